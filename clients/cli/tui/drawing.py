r"""Dominoes drawn on a :class:`~.canvas.Canvas`: a Moon trick, and Straight's two-dimensional layout.

Straight's layout is the line left to right through the opening tile, doubles lying crosswise
(drawn upright, three rows high), and the spinner's ``up`` and ``down`` arms going up and down
from it, their tiles upright and their doubles crosswise (flat). The line's row is chosen so that
both arms fit where the board has the rows; on a board too short for upright arms, their tiles lie
flat, a row each. What still does not fit is elided next to the spinner, never at the open ends.
Each open end is marked on the tile itself: its pip highlighted (``OPEN``), and an arrow just
outside it pointing away (``◂ ▸ ▴ ▾``), so that the ends read without colour too (``NO_COLOR``).

>>> from boneyard.clients.cli.core import layout as L
>>> lay = L.play(L.play(L.play(L.EMPTY, (6, 4), None), (4, 4), "right"), (4, 1), "right")
>>> lay = L.play(L.play(L.play(lay, (4, 3), "up"), (4, 2), "down"), (1, 1), "right")
>>> print("\n".join(row.rstrip() for row in straight_layout(lay, 30, 11).plain().splitlines()))
             ▴
            ┌3┐
            │─│
            └4┘
            ┌4┐     ┌1┐
      ◂[6|4]│─│[4|1]│─│▸
            └4┘     └1┘
            ┌4┐
            │─│
            └2┘
             ▾
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boneyard.clients.cli.core.rules import tile_word
from boneyard.clients.cli.tui.canvas import Canvas
from boneyard.protocol import Layout
from boneyard.protocol.views import PlacedTile

TILE = "bold"
SPINNER = "bold yellow"
DIM = "dim"
OPEN = "bold reverse green"
"""An open end's pip (reverse: it stands out without colour too)."""
MARKS = {"left": "◂", "right": "▸", "up": "▴", "down": "▾"}
"""The arrow drawn just outside each open end."""


@dataclass(frozen=True)
class Piece:
    """A tile as it lies in the line: ``a`` on the left (or top), ``b`` on the right (or bottom)."""

    a: int
    b: int
    upright: bool
    spinner: bool = False

    def width(self, scale: Scale) -> int:
        return scale.upright_w if self.upright else scale.flat_w


@dataclass(frozen=True)
class Scale:
    """How big the tiles are drawn: small (80x24) or large (where the board has the room)."""

    flat_w: int
    flat_h: int
    upright_w: int
    upright_h: int

    @property
    def big(self) -> bool:
        return self.flat_h > 1


SMALL = Scale(5, 1, 3, 3)
LARGE = Scale(9, 3, 5, 5)


def flat(canvas: Canvas, x: int, y: int, a: int, b: int, style: str = TILE) -> None:
    """A tile lying flat, one row: ``[a|b]``."""
    canvas.put(x, y, tile_word((a, b)), style)


def upright(canvas: Canvas, x: int, y: int, a: int, b: int, style: str = TILE) -> None:
    """A tile standing up, three rows from ``y``: ``a`` on top."""
    canvas.put(x, y, f"┌{a}┐", style)
    canvas.put(x, y + 1, "│─│", style)
    canvas.put(x, y + 2, f"└{b}┘", style)


def big_upright(canvas: Canvas, x: int, y: int, a: int, b: int, style: str = TILE) -> None:
    """A large tile standing up, five wide and five high from ``y``: ``a`` on top."""
    canvas.put(x, y, "┌───┐", style)
    canvas.put(x, y + 1, f"│ {a} │", style)
    canvas.put(x, y + 2, "├───┤", style)
    canvas.put(x, y + 3, f"│ {b} │", style)
    canvas.put(x, y + 4, "└───┘", style)


def draw(canvas: Canvas, scale: Scale, x: int, top: int, a: int, b: int, standing: bool, style: str) -> None:
    """A tile at ``scale``, flat or standing, its top-left corner at ``(x, top)``."""
    if standing:
        (big_upright if scale.big else upright)(canvas, x, top, a, b, style)
    elif scale.big:
        big(canvas, x, top, (a, b), style)
    else:
        flat(canvas, x, top, a, b, style)


def pips(scale: Scale, x: int, top: int, standing: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where a tile drawn by :func:`draw` at ``(x, top)`` shows its two numbers: ``a``'s cell, ``b``'s."""
    if standing:
        return ((x + 2, top + 1), (x + 2, top + 3)) if scale.big else ((x + 1, top), (x + 1, top + 2))
    if scale.big:
        return (x + 2, top + 1), (x + 6, top + 1)
    return (x + 1, top), (x + 3, top)


def mark_open(canvas: Canvas, cells: Sequence[tuple[int, int]], end: str, at: tuple[int, int]) -> None:
    """An open end: its pip cells highlighted, its arrow at ``at``."""
    for x, y in cells:
        canvas.restyle(x, y, OPEN)
    canvas.put(at[0], at[1], MARKS[end], OPEN)


def big(canvas: Canvas, x: int, y: int, tile: Sequence[int], style: str = TILE) -> None:
    """A large flat tile, nine wide and three high (the Moon trick)."""
    canvas.put(x, y, "┌───┬───┐", style)
    canvas.put(x, y + 1, f"│ {tile[0]} │ {tile[1]} │", style)
    canvas.put(x, y + 2, "└───┴───┘", style)


def line_pieces(layout: Layout) -> tuple[list[Piece], int]:
    """The line left to right, and the index of the spinner in it (-1: none in the line)."""
    assert layout.opening is not None
    left, right = list(layout.arms.get("left", ())), list(layout.arms.get("right", ()))
    pieces: list[Piece] = []
    spinner = -1
    for i in range(len(left) - 1, -1, -1):
        p = left[i]
        if layout.spinner_arm == "left" and layout.spinner_index == i:
            spinner = len(pieces)
        pieces.append(Piece(p.outer, p.inner, p.crosswise))
    if layout.spinner_arm == "centre":
        spinner = len(pieces)
    a, b = layout.opening
    pieces.append(Piece(a, b, a == b))
    for i, p in enumerate(right):
        if layout.spinner_arm == "right" and layout.spinner_index == i:
            spinner = len(pieces)
        pieces.append(Piece(p.inner, p.outer, p.crosswise))
    if spinner >= 0:
        s = pieces[spinner]
        pieces[spinner] = Piece(s.a, s.b, s.upright, spinner=True)
    return pieces, spinner


def _fit_line(
    pieces: list[Piece], spinner: int, width: int, scale: Scale = SMALL
) -> tuple[list[Piece | None], list[Piece]]:
    """Drop tiles next to the centre of the longer side until the line fits (``None``: "…"); and the
    tiles dropped, in line order."""
    out: list[Piece | None] = list(pieces)
    centre = spinner if spinner >= 0 else next(i for i, p in enumerate(pieces) if p is not None)
    dropped: list[Piece] = []

    def size() -> int:
        return sum(1 if p is None else p.width(scale) for p in out)

    while size() > width and len(out) > 3:
        left_n, right_n = centre, len(out) - centre - 1
        if left_n >= right_n and left_n > 1:
            i = centre - 1
            if out[i] is None:
                i -= 1
            gone = out.pop(i)
            centre -= 1
            if out[centre - 1] is not None:
                out.insert(centre, None)
                centre += 1
        elif right_n > 1:
            i = centre + 1
            if out[i] is None:
                i += 1
            gone = out.pop(i)
            if out[centre + 1] is not None:
                out.insert(centre + 1, None)
        else:
            break
        if gone is not None:
            dropped.append(gone)
    return out, sorted(dropped, key=pieces.index)


def straight_layout(layout: Layout, width: int, height: int, scale: Scale | None = None) -> Canvas:
    """The layout drawn in ``width`` x ``height`` cells (the line in the middle row), its open ends
    marked; large tiles when the board has the room for them and a line of a few tiles."""
    canvas = Canvas(width, height)
    if layout.opening is None:
        canvas.put(0, 0, "(empty: the leader plays any tile)", DIM)
        return canvas
    pieces, spinner = line_pieces(layout)
    room = width - 2  # a column each side for the ends' arrows
    arms = layout.arms
    up, down = list(arms.get("up", ())), list(arms.get("down", ()))
    if scale is None:
        # Large tiles only where the whole line fits them: small ones beat tiles elided (issue 24.10).
        wide = sum(p.width(LARGE) for p in pieces) <= room
        scale = LARGE if height >= 21 and wide else SMALL
        if scale is LARGE and _arm_rows(up, LARGE) + LARGE.upright_h + _arm_rows(down, LARGE) > height:
            scale = SMALL  # the arms would not fit large: every tile of them small beats some elided
    fitted, dropped = _fit_line(pieces, spinner, room, scale)
    # Upright arm tiles take three rows each; where that is more than the board has, they lie flat
    # (a row each), so that the up and down arms stay in sight on a short board.
    compact = not scale.big and _arm_rows(up, scale) + scale.upright_h + _arm_rows(down, scale) > height
    y = _line_row(height, scale, _arm_rows(up, scale, compact), _arm_rows(down, scale, compact))
    x = 1 + max(0, (room - sum(1 if p is None else p.width(scale) for p in fitted)) // 2)
    spinner_at: tuple[int, int] = (-1, -1)
    placed: list[tuple[int, int, Piece]] = []
    for piece in fitted:
        if piece is None:
            canvas.put(x, y, "…", DIM)
            x += 1
            continue
        style = SPINNER if piece.spinner else TILE
        top = y - (scale.upright_h if piece.upright else scale.flat_h) // 2
        draw(canvas, scale, x, top, piece.a, piece.b, piece.upright, style)
        placed.append((x, top, piece))
        if piece.spinner and piece.upright:
            spinner_at = (x, top)
        x += piece.width(scale)
    ends = layout.open_ends
    (first_x, first_top, first), (last_x, last_top, last) = placed[0], placed[-1]
    a_cell, b_cell = pips(scale, first_x, first_top, first.upright)
    if "left" in ends:
        mark_open(canvas, (a_cell, b_cell) if first.upright else (a_cell,), "left", (first_x - 1, y))
    a_cell, b_cell = pips(scale, last_x, last_top, last.upright)
    if "right" in ends:
        right_x = last_x + last.width(scale)
        mark_open(canvas, (a_cell, b_cell) if last.upright else (b_cell,), "right", (right_x, y))
    if spinner_at[0] >= 0:
        sx, stop = spinner_at
        top_pip, bottom_pip = pips(scale, sx, stop, True)
        for end, arm, step, row, pip in (
            ("up", up, -1, stop - 1, top_pip),
            ("down", down, +1, stop + scale.upright_h, bottom_pip),
        ):
            outer = _arm(canvas, scale, arm, sx, row, step, compact)
            if end in ends:
                cells, at = outer if outer is not None else ((pip,), (pip[0], row))
                mark_open(canvas, cells, end, at)
    _name_the_elided(canvas, pieces, spinner, dropped)
    return canvas


def _name_the_elided(canvas: Canvas, pieces: list[Piece], spinner: int, dropped: Sequence[Piece]) -> None:
    """The tiles a line too long for the board leaves out beside the spinner, named on a free row
    (the lowest, else the highest): a narrow board hides none of them while it has rows to spare."""
    free = [y for y in range(canvas.height) if all(ch == " " for ch, _ in canvas.cells[y])]
    if not dropped or not free:
        return
    sides = (
        [p for p in dropped if pieces.index(p) < spinner],
        [p for p in dropped if pieces.index(p) > spinner],
    )
    named = [" ".join(tile_word((p.a, p.b)) for p in side) for side in sides if side]
    words = "… = " + " · … = ".join(named)
    y = free[-1] if free[-1] > canvas.height // 2 else free[0]
    canvas.put(1, y, words[: canvas.width - 1], DIM)


def _tall(p: PlacedTile, scale: Scale, compact: bool = False) -> int:
    """Rows an arm's tile takes: a double lies across it (flat), the others stand, unless ``compact``."""
    return scale.flat_h if p.crosswise or compact else scale.upright_h


def _arm_rows(arm: Sequence[PlacedTile], scale: Scale, compact: bool = False) -> int:
    """Rows an up or down arm takes, with the row for its end's arrow."""
    return sum(_tall(p, scale, compact) for p in arm) + 1


def _line_row(height: int, scale: Scale, up: int, down: int) -> int:
    """The line's row: the board's middle, moved so that the up arm (``up`` rows) and the down arm fit
    where they can (a long down arm must not lose tiles while rows above stay empty)."""
    half = scale.upright_h // 2
    spare = height - (up + scale.upright_h + down)
    if spare >= 0:  # both fit: the slack shared above and below
        return up + spare // 2 + half
    # They do not both fit: each arm gets two rows (its outermost tile and its arrow) first, then the
    # rest of the rows in proportion to what each still needs.
    low_up, low_down = min(up, 2), min(down, 2)
    extra = max(0, height - scale.upright_h - low_up - low_down)
    above = low_up + extra * (up - low_up) // max(1, up - low_up + down - low_down)
    return max(half, min(height - 1 - half, above + half))


def _arm(
    canvas: Canvas, scale: Scale, arm: Sequence[PlacedTile], x: int, y: int, step: int, compact: bool = False
) -> tuple[tuple[tuple[int, int], ...], tuple[int, int]] | None:
    """An up (``step`` -1) or down (+1) arm from the spinner's edge at row ``y``, outermost tiles kept
    (a row is left beyond them for the end's arrow); ``compact``, every tile flat, a row each. Returns the
    outermost tile's outer pip cells and the cell beyond it, or ``None`` for an empty arm."""
    room = (y if step < 0 else canvas.height - y - 1) + (0 if arm else 1)
    shown = list(arm)
    elided = 0

    def tall(p: PlacedTile) -> int:
        return _tall(p, scale, compact)

    while shown and sum(tall(p) for p in shown) > room - (1 if elided else 0):
        shown.pop(0)
        elided += 1
    if not shown and arm and tall(arm[-1]) <= room:  # no row for "⋮" too: the open end matters more
        shown, elided = [arm[-1]], 0
    row = y
    if elided:
        canvas.put(x + scale.upright_w // 2, row, "⋮", DIM)
        row += step
    outer: tuple[tuple[tuple[int, int], ...], tuple[int, int]] | None = None
    for p in shown:
        h = tall(p)
        top = row if step > 0 else row - h + 1
        a, b = (p.inner, p.outer) if step > 0 else (p.outer, p.inner)
        lying = p.crosswise or compact
        left = x - (scale.flat_w - scale.upright_w) // 2 if lying else x
        draw(canvas, scale, left, top, a, b, not lying, TILE)
        a_cell, b_cell = pips(scale, left, top, not lying)
        cells = (a_cell, b_cell) if p.crosswise else ((a_cell,) if step < 0 else (b_cell,))
        row += h * step
        outer = (cells, (x + scale.upright_w // 2, row))
    return outer


def moon_trick(
    played: Sequence[tuple[str, Sequence[int] | None, str]], width: int, winner: int | None = None
) -> Canvas:
    """Slots left to right, each ``(name, tile or None, style)``: the name above a large tile (or a gap)."""
    canvas = Canvas(width, 4)
    if not played:
        return canvas
    slot = max(11, min(18, width // max(1, len(played))))
    x = max(0, (width - slot * len(played)) // 2)
    for i, (name, tile, style) in enumerate(played):
        label = (name + (" ✓" if i == winner else ""))[: slot - 1]
        canvas.put(x + (slot - len(label)) // 2, 0, label, "bold" if i == winner else "")
        if tile is None:
            canvas.put(x + (slot - 9) // 2, 2, "    ·    ", DIM)
        else:
            big(canvas, x + (slot - 9) // 2, 1, tile, style)
        x += slot
    return canvas
