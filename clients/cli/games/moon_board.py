"""Moon's table, drawn: its lines for the line client, and the full-screen table's middle: trump and the
auction in words, then the trick as it is built (the trick part shared with Texas 42).

The head says what the hand waits for (who bids, who takes the widow and discards, who names trump);
the trick shows one slot per seat, the leader's and the winning tile marked, then who led, who is
winning it, and the tricks each player has taken this hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text

from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import Tile, is_trump, tile_word, trick_winner, trump_word
from boneyard.clients.cli.tui import drawing
from boneyard.clients.cli.ui.render import (
    Fragments,
    hand_line,
    header,
    per_seat,
    row,
    scores,
    seat_label,
    tile,
    turn_line,
)
from boneyard.protocol import MoonView, TexasView

TrickView = MoonView | TexasView
"""The views of the trick games (Texas 42's builds on Moon's)."""
Decide = Callable[[Any, Sequence[Tile]], int]
"""Which tile (its index in play order) takes a trick under a trump."""


def _who(mirror: TableMirror, seat: int | None) -> str:
    return "you" if seat is not None and seat == mirror.seat else mirror.seat_name(seat or 0)


def stage_words(mirror: TableMirror, view: TrickView) -> str:
    """What the hand waits for, in words (the phase names only what the engine calls it)."""
    mover, mine = view.to_move, mirror.my_turn
    if view.phase == "bidding":
        return "bidding: your bid" if mine else f"bidding: {_who(mirror, mover)} to bid"
    if view.phase == "discarding":
        if mine:
            return "you took the widow: discard one tile (its number, or click it)"
        return f"{_who(mirror, mover)} took the widow and discards a tile"
    if view.phase == "naming_trump":
        return "name trump" if mine else f"{_who(mirror, mover)} names trump"
    if view.phase == "playing":
        return ""
    return {"scored": "hand scored", "thrown_in": "hand thrown in", "over": "game over"}[view.phase]


def trick_lines(
    mirror: TableMirror, view: TrickView, width: int, decide: Decide = trick_winner, out: int | None = None
) -> list[Text]:
    """The trick as built so far (seat order, the winning tile's player ✓), who led, who is winning;
    ``out``: a seat sitting the hand out (no slot)."""
    played = dict(view.trick)
    trump = view.trump
    winning = None
    if view.trick:
        best = decide(trump, [tile for _, tile in view.trick])
        winning = view.trick[best][0]
    slots: list[tuple[str, Any, str]] = []
    seats = [seat for seat in range(len(view.tile_counts)) if seat != out]
    for seat in seats:
        tile = played.get(seat)
        mark = "▶ " if seat == view.to_move else ""
        style = "bold yellow" if tile is not None and is_trump(tile, trump) else "bold"
        slots.append((mark + seat_label(mirror, seat), tile, style))
    slot = seats.index(winning) if winning is not None else None
    lines = list(drawing.moon_trick(slots, width, winner=slot).text().split("\n"))
    if view.trick:
        (leader, led), best_tile = view.trick[0], played[winning or 0]
        says = f"{_who(mirror, leader)} led {tile_word(led)}"
        if len(view.trick) > 1:
            says += f" · {_who(mirror, winning)} winning with {tile_word(best_tile)}"
        lines.append(Text(says))
    elif view.to_move is not None:
        lines.append(Text(f"{_who(mirror, view.to_move)} to lead", "dim"))
    return lines


def tui_board(mirror: TableMirror, view: MoonView, width: int, height: int) -> Text:
    head = Text(no_wrap=True, overflow="crop")
    head.append(f"Trump: {trump_word(view.trump)}", "bold yellow")
    if view.high_bidder is not None:
        head.append(f"   high bid {mirror.seat_name(view.high_bidder)} {view.high_bid}")
    stage = stage_words(mirror, view)
    lines = [head, Text(stage, "bold" if mirror.my_turn else "dim")]
    if view.phase == "playing" or view.trick:
        lines += trick_lines(mirror, view, width)
        taken = " · ".join(f"{_who(mirror, s)} {n}" for s, n in enumerate(view.tricks))
        lines.append(Text(f"tricks taken: {taken}", "dim"))
    if mirror.last_trick and mirror.last_trick_winner is not None:
        tiles = " ".join(tile_word(t) for _, t in mirror.last_trick)
        lines.append(Text(f"last trick {tiles}: {_who(mirror, mirror.last_trick_winner)} took it", "dim"))
    if view.discard is not None:  # the bidder's own (or, in a replay, the bidder's)
        whose = "your" if mirror.seat is not None else f"{_who(mirror, view.high_bidder)}'s"
        lines.append(Text(f"{whose} discard: {tile_word(view.discard)}", "dim"))
    return Text("\n").join(lines)


def line_board(mirror: TableMirror, view: MoonView, seconds: float | None = None) -> Fragments:
    bids = ["—" if b is None else b for b in view.bids]
    high = (
        f"   high: {mirror.seat_name(view.high_bidder)} {view.high_bid}"
        if view.high_bidder is not None
        else ""
    )
    trick: Fragments = []
    for seat, t in view.trick:
        trick += [("", f"{mirror.seat_name(seat)} "), *tile(t, "class:tile"), ("", "  ")]
    if not view.trick and mirror.last_trick:
        winner = mirror.last_trick_winner
        trick += [("class:dim", "last: ")]
        for seat, t in mirror.last_trick:
            trick += [("class:dim", f"{mirror.seat_name(seat)} "), *tile(t, "class:dim"), ("", " ")]
        if winner is not None:
            trick.append(("class:dim", f"→ {mirror.seat_name(winner)}"))
    out = header(mirror, view)
    out += row("Scores", scores(mirror, view))
    out += row("Bids", [*per_seat(mirror, bids, view.to_move if view.phase == "bidding" else None),
                         ("class:dim", high)])  # fmt: skip
    out += row("Trump", [("class:trump", trump_word(view.trump))])
    if view.phase == "playing" or view.played:
        out += row("Trick", trick or [("class:dim", "(empty)")])
        out += row("Tricks", per_seat(mirror, view.tricks))
    out += row("Tiles", per_seat(mirror, view.tile_counts, view.to_move))
    if view.discard is not None:
        out += row("Discard", tile(view.discard, "class:dim"))
    out += row("Turn", turn_line(mirror, view, seconds))
    if view.viewer is not None:
        out += row("Hand", hand_line(view))
    return out
