"""Straight's table, drawn: as lines for the line client (the line left to right, the spinner's arms,
the ends and the count), and as the full-screen table's middle (the layout on a grid)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from boneyard.clients.cli.core.layout import spinner_covered
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import tile_word
from boneyard.clients.cli.tui import drawing
from boneyard.clients.cli.ui.render import Fragments, hand_line, header, per_seat, row, scores, turn_line
from boneyard.protocol import StraightView


def layout_lines(view: StraightView) -> Fragments:
    """The line left to right (the spinner marked ``*``), then the spinner's up and down arms."""
    lay = view.layout
    if lay.opening is None:
        return [("class:dim", "(empty: the leader plays any tile)\n")]
    spinner_style = "class:trump"
    line: Fragments = []
    arms = lay.arms
    left = list(arms.get("left", ()))
    right = list(arms.get("right", ()))

    def placed(p: Any, reverse: bool, spinner: bool) -> Fragments:
        a, b = (p.outer, p.inner) if reverse else (p.inner, p.outer)
        style = spinner_style if spinner else "class:tile"
        mark = "*" if spinner else ""
        return [(style, f"{mark}{tile_word((a, b))}{mark}"), ("", " ")]

    for i in range(len(left) - 1, -1, -1):
        line += placed(left[i], True, lay.spinner_arm == "left" and lay.spinner_index == i)
    centre = lay.spinner_arm == "centre"
    star = "*" if centre else ""
    opening = f"{star}{tile_word(lay.opening)}{star}"
    line += [(spinner_style if centre else "class:tile", opening), ("", " ")]
    for i, p in enumerate(right):
        line += placed(p, False, lay.spinner_arm == "right" and lay.spinner_index == i)
    out = row("Layout", line)
    if spinner_covered(lay):
        for end in ("up", "down"):
            arm = list(arms.get(end, ()))
            arm_row: Fragments = [("class:dim", "spinner ")]
            for p in arm:
                arm_row += placed(p, False, False)
            out += row(f"  {end}", arm_row if arm else [("class:dim", "(open, counts once played on)")])
    ends = " · ".join(f"{end} {value}" for end, value in lay.open_ends.items())
    out += row("Ends", [("", ends), ("class:score", f"   count {view.count}")])
    return out


def line_board(mirror: TableMirror, view: StraightView, seconds: float | None = None) -> Fragments:
    out = header(mirror, view)
    out += row("Scores", scores(mirror, view))
    out += layout_lines(view)
    out += row("Tiles", [*per_seat(mirror, view.tile_counts, view.to_move),
                          ("class:dim", f"   boneyard {view.boneyard}")])  # fmt: skip
    out += row("Turn", turn_line(mirror, view, seconds))
    if view.viewer is not None:
        out += row("Hand", hand_line(view))
    return out


def tui_board(mirror: TableMirror, view: StraightView, width: int, height: int) -> Text:
    """Straight's middle: the layout drawn, its open ends, the count, the boneyard."""
    out = drawing.straight_layout(view.layout, width, max(3, height - 1)).text()
    ends = " · ".join(f"{end} {value}" for end, value in view.layout.open_ends.items())
    scoring = view.count > 0 and view.count % 5 == 0
    out.append("\n")
    out.append(f"ends: {ends or '—'}   ")
    out.append(f"count {view.count}", "bold green" if scoring else "bold")
    out.append("   ")
    out.append(f"boneyard {view.boneyard}", "dim")
    return out
