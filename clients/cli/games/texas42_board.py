"""Texas 42's table, drawn: as lines for the line client, and as the middle of the full-screen table.

Both show what a 42 player looks for: the auction with marks, trump (or nello and the partner sitting
out, hand face down), the trick as it is built, each team's points this hand against the bid, and the
marks.
"""

from __future__ import annotations

from rich.text import Text

from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.games.moon_board import stage_words, trick_lines
from boneyard.clients.cli.games.texas42_rules import MARK, bid_text, contract_text, team_of, winner_index
from boneyard.clients.cli.ui.render import (
    Fragments,
    hand_line,
    header,
    per_seat,
    row,
    scores,
    tile,
    turn_line,
)
from boneyard.protocol import TexasView

FACE_DOWN = "▒▒"
"""A tile lying face down."""


def face_down(count: int) -> str:
    return " ".join([FACE_DOWN] * count)


def contract_words(mirror: TableMirror, view: TexasView) -> str:
    """``ana bid 31 · trump 5s``, or what the auction stands at."""
    if view.high_bidder is None or view.high_bid is None:
        return "no bid yet"
    said = f"{mirror.seat_name(view.high_bidder)} bid {bid_text(view.high_bid)}"
    return f"{said} · {'trump ' if view.trump not in (None, 'nello') else ''}{contract_text(view.trump)}"


def needs(view: TexasView) -> str:
    """What the bid asks of each team this hand (T9): the points to make it, or to set it."""
    if view.high_bidder is None or view.high_bid is None or view.trump is None:
        return ""
    bidders = team_of(view.high_bidder)
    if view.trump == "nello":
        return f"team {bidders} must lose every trick"
    if view.high_bid >= MARK:
        return f"team {bidders} must take every trick"
    made = max(0, view.high_bid - view.points[bidders])
    sets = max(0, 43 - view.high_bid - view.points[1 - bidders])
    return f"team {bidders} needs {made} more to make it, team {1 - bidders} {sets} more to set it"


def nello_words(mirror: TableMirror, view: TexasView) -> str:
    """The partner sitting a nello hand out, hand face down."""
    if view.out is None:
        return ""
    return f"{mirror.seat_name(view.out)} sits out, face down {face_down(view.tile_counts[view.out])}"


def line_board(mirror: TableMirror, view: TexasView, seconds: float | None = None) -> Fragments:
    """The table as lines: marks, bids, contract, the trick, the hand's points, tiles, turn and hand."""
    bids = ["—" if b is None else b if b == "pass" else bid_text(b) for b in view.bids]
    out = header(mirror, view, "mark" if view.target == 1 else "marks")
    out += row("Marks", scores(mirror, view))
    out += row("Bids", per_seat(mirror, bids, view.to_move if view.phase == "bidding" else None))
    out += row("Contract", [("class:trump", contract_words(mirror, view))])
    if view.out is not None:
        out += row("Nello", [("class:dim", nello_words(mirror, view))])
    if view.phase == "playing" or view.played:
        trick: Fragments = []
        for seat, played in view.trick:
            trick += [("", f"{mirror.seat_name(seat)} "), *tile(played), ("", "  ")]
        if view.trick:
            winning = view.trick[winner_index(view.trump, [t for _, t in view.trick])][0]
            trick.append(("class:dim", f"(winning: {mirror.seat_name(winning)})"))
        elif mirror.last_trick:
            trick.append(("class:dim", "last: "))
            for seat, played in mirror.last_trick:
                trick += [("class:dim", f"{mirror.seat_name(seat)} "), *tile(played, "class:dim"), ("", " ")]
            if mirror.last_trick_winner is not None:
                trick.append(("class:dim", f"→ {mirror.seat_name(mirror.last_trick_winner)}"))
        out += row("Trick", trick or [("class:dim", "(empty)")])
        points = " · ".join(f"team {t} {p}" for t, p in enumerate(view.points))
        out += row("Points", [("class:score", points), ("class:dim", f"   {needs(view)}")])
        out += row("Tricks", per_seat(mirror, view.tricks))
    out += row("Tiles", per_seat(mirror, view.tile_counts, view.to_move))
    out += row("Turn", turn_line(mirror, view, seconds))
    if view.viewer is not None:
        out += row("Hand", hand_line(view) if view.viewer != view.out else [("class:dim", "you sit out")])
    return out


def tui_board(mirror: TableMirror, view: TexasView, width: int, height: int) -> Text:
    """The middle of the table: the contract, what the hand waits for, the trick, the hand's points."""
    head = Text(no_wrap=True, overflow="crop")
    head.append(contract_words(mirror, view), "bold yellow")
    lines = [head, Text(stage_words(mirror, view), "bold" if mirror.my_turn else "dim")]
    if view.out is not None:
        lines.append(Text(f"nello: {nello_words(mirror, view)}", "yellow"))
    if view.phase == "playing" or view.trick:
        lines += trick_lines(mirror, view, width, winner_index, view.out)
        points = " · ".join(f"team {t} {p}" for t, p in enumerate(view.points))
        lines.append(
            Text.assemble(("points this hand: ", "dim"), (points, "bold"), (f"   {needs(view)}", "dim"))
        )
    if mirror.last_trick and mirror.last_trick_winner is not None:
        tiles = " ".join(f"[{a}|{b}]" for _, (a, b) in mirror.last_trick)
        taker = (
            "you" if mirror.last_trick_winner == mirror.seat else mirror.seat_name(mirror.last_trick_winner)
        )
        lines.append(Text(f"last trick {tiles}: {taker} took it", "dim"))
    return Text("\n").join(lines)
