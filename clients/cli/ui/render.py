"""Drawing a game as text: tiles like ``[6|4]``, the rows every board is made of, the lobby's lines
(each game's board is its module's, in ``clients/cli/games/``).

Everything returns prompt_toolkit *fragments* (``(style, text)`` pairs). With colour the
styles in :data:`STYLE` apply; without, the same fragments print as plain text, and
nothing depends on colour alone: legal moves are numbered, the player to move is marked
with ``>``, and your own seat with ``(you)``.

>>> plain(tile((6, 4)))
'[6|4]'
>>> plain(tiles([(6, 6), (2, 1)]))
'[6|6] [2|1]'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style

from boneyard.clients.cli.core.games import client_game, game_title
from boneyard.clients.cli.core.mirror import TableMirror, View
from boneyard.clients.cli.core.rules import is_trump, tile_word
from boneyard.clients.cli.ui.choices import choices

Fragments = StyleAndTextTuples

STYLE = Style.from_dict(
    {
        "title": "bold",
        "tile": "",
        "trump": "ansiyellow bold",
        "legal": "ansigreen bold",
        "number": "ansicyan bold",
        "dim": "ansibrightblack",
        "me": "ansicyan bold",
        "turn": "ansimagenta bold",
        "score": "bold",
        "good": "ansigreen",
        "bad": "ansired",
        "error": "ansired bold",
        "notice": "ansiyellow",
        "chat": "ansiblue",
    }
)
"""The colours; a terminal without colour simply shows the text."""


def plain(fragments: Fragments) -> str:
    """The text of some fragments, without styles."""
    return "".join(fragment[1] for fragment in fragments)


def wrapped(fragments: Fragments, width: int, indent: str = "  ") -> Fragments:
    r"""The fragments with their lines broken at spaces to fit ``width`` columns, never inside a word.

    A tile (``[6|4]``) holds no space, so no tile is ever cut in two; continuation lines start with
    ``indent``. A word longer than the whole line stays whole.

    >>> plain(wrapped(tiles([(6, 6), (5, 4), (3, 1)]), 12))
    '[6|6] [5|4]\n  [3|1]'
    >>> plain(wrapped([("", "short")], 80))
    'short'
    """
    out: Fragments = []
    column = 0
    for style, text, *_ in fragments:
        for number, line in enumerate(text.split("\n")):
            if number:
                out.append((style, "\n"))
                column = 0
            for index, word in enumerate(line.split(" ")):
                gap = " " if index else ""
                if column and column + len(gap) + len(word) > width and word:
                    while out and out[-1][1].endswith(" "):  # no space left dangling at the break
                        out[-1] = (out[-1][0], out[-1][1].rstrip(" "))
                    out.append((style, "\n" + indent))
                    column, gap = len(indent), ""
                out.append((style, gap + word))
                column += len(gap) + len(word)
    return out


def tile(t: Sequence[int], style: str = "class:tile") -> Fragments:
    return [(style, tile_word(t))]


def tiles(ts: Sequence[Sequence[int]], style: str = "class:tile") -> Fragments:
    out: Fragments = []
    for i, t in enumerate(ts):
        if i:
            out.append(("", " "))
        out += tile(t, style)
    return out


def tile_text(t: Sequence[int] | None) -> str:
    return "a tile" if t is None else tile_word(t)


def seat_label(mirror: TableMirror, seat: int) -> str:
    name = mirror.seat_name(seat)
    return f"{name} (you)" if seat == mirror.seat else name


def team_label(mirror: TableMirror, team: int) -> str:
    return f"team {team} ({mirror.seat_name(team)}+{mirror.seat_name(team + 2)})"


def legal_moves(view: View) -> Fragments:
    """The numbered choices that are legal now: type the number (or the tile) to play one."""
    out: Fragments = [("class:title", "Your move: ")]
    game = client_game(view.game)
    for choice in choices(view.hand, view.legal_actions, game.bid_words if game is not None else str):
        if not choice.legal:
            continue
        if len(out) > 1:
            out.append(("", "  "))
        ends = [str(a.end) for a in choice.actions if getattr(a, "end", None)]
        label = choice.label + (" " + "/".join(ends) if ends else "")
        out += [("class:number", f"{choice.number})"), ("class:legal", label)]
    return out


def row(label: str, parts: Fragments) -> Fragments:
    return [("class:title", f"{label:<9}"), *parts, ("", "\n")]


def per_seat(mirror: TableMirror, values: Sequence[Any], to_move: int | None = None) -> Fragments:
    out: Fragments = []
    for seat, value in enumerate(values):
        if seat:
            out.append(("class:dim", " · "))
        mark = ">" if seat == to_move else ""
        style = "class:me" if seat == mirror.seat else ("class:turn" if seat == to_move else "")
        out.append((style, f"{mark}{seat_label(mirror, seat)} {value}"))
    return out


def teams(view: View) -> bool:
    """The game is played in partnerships at this table (scores per team)."""
    game = client_game(view.game)
    return game is not None and game.teams(view)


def scores(mirror: TableMirror, view: View) -> Fragments:
    if teams(view):
        parts: Fragments = []
        for team, value in enumerate(view.scores):
            if team:
                parts.append(("class:dim", " · "))
            parts.append(("class:score", f"{team_label(mirror, team)} {value}"))
        return parts
    return per_seat(mirror, view.scores)


def hand_line(view: View) -> Fragments:
    """The hand in hand order, numbered 1..n, legal tiles highlighted (trumps marked ``*``)."""
    game = client_game(view.game)
    trump = game.trump(view) if game is not None else None
    menu = {c.tile: c for c in choices(view.hand, view.legal_actions) if c.tile is not None}
    out: Fragments = []
    for i, t in enumerate(view.hand, 1):
        if i > 1:
            out.append(("", " "))
        choice = menu.get(tuple(t))  # type: ignore[arg-type]
        legal = choice is not None and choice.legal
        trumpy = is_trump(t, trump)
        out.append(("class:number" if legal else "class:dim", f"{i})"))
        style = "class:legal" if legal else ("class:dim" if view.legal_actions else "class:tile")
        if trumpy:
            style += " class:trump"
        out += tile(t, style)
        if trumpy:
            out.append(("class:trump", "*"))
    return out or [("class:dim", "(no tiles)")]


def turn_line(mirror: TableMirror, view: View, seconds: float | None) -> Fragments:
    if view.to_move is None:
        return [("class:title", "Game over")]
    who = "you" if view.to_move == mirror.seat else mirror.seat_name(view.to_move)
    clock = f" — {int(seconds)} s left" if seconds is not None else ""
    style = "class:me" if view.to_move == mirror.seat else "class:turn"
    return [(style, f"{who} to move{clock}")]


def header(mirror: TableMirror, view: View, unit: str = "") -> Fragments:
    """The table's heading line; ``unit`` names what the target counts (Texas 42: ``marks``)."""
    game = game_title(view.game)
    target = f"{view.target} {unit}".rstrip()
    return [("class:title", f"── {game} · table {mirror.table_id} · hand {view.hand_number + 1} · "
                            f"first to {target} ──\n")]  # fmt: skip


def board(mirror: TableMirror, seconds: float | None = None) -> Fragments:
    view = mirror.view
    game = client_game(view.game) if view is not None else None
    if view is None or game is None:
        return waiting(mirror)
    return game.line_board(mirror, view, seconds)


def waiting(mirror: TableMirror) -> Fragments:
    table = mirror.table
    if table is None:
        return [("class:dim", f"table {mirror.table_id}: nothing to show yet\n")]
    return [("class:title", f"Table {table.table_id} ({table.game}) is {table.status}: "), *seats_line(table),
            ("", "\n")]  # fmt: skip


def seats_line(table: Any) -> Fragments:
    out: Fragments = []
    for s in table.seats:
        if s.seat:
            out.append(("class:dim", " · "))
        who = s.name or "(empty)"
        flags = " [bot]" if s.bot else (" [away]" if not s.connected and s.name else "")
        out.append(("class:dim" if s.name is None else "", f"{s.seat}: {who}{flags}"))
    return out


def table_line(table: Any) -> Fragments:
    """One lobby line: id, game, options, status, seats."""
    options = ", ".join(f"{k}={v}" for k, v in table.options.model_dump().items())
    timer = f"{table.turn_seconds}s turns" if table.turn_seconds else "no timer"
    watchers = f", {table.spectators} watching" if table.spectators else ""
    return [("class:title", f"{table.table_id:<8}"), ("", f" {table.game:<8} {table.status:<8} "),
            *seats_line(table), ("class:dim", f"   ({options}; {timer}{watchers})")]  # fmt: skip
