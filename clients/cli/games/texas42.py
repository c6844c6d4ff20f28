"""Texas 42 in the terminal client: the view following the events, its words, columns and sheet.

Bids are points (30-41) or marks (42 is one mark, 84 two, ...); scores are marks per partnership
(team 0: seats 0+2, team 1: seats 1+3); a hand's points are per partnership too (docs/RULES.md T8).
In a nello hand the bidder's partner sits out, their hand face down. The boards are in
:mod:`boneyard.clients.cli.games.texas42_board`, the replay in :mod:`~.texas42_replay`.
"""

from __future__ import annotations

import random

from pydantic import BaseModel
from rich.text import Text

from boneyard.clients.cli import bots
from boneyard.clients.cli.core.games import ClientGame, Update, register_client_game
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import sort_moon_hand
from boneyard.clients.cli.games import texas42_board, texas42_replay
from boneyard.clients.cli.games.folding import bump, spoken, without
from boneyard.clients.cli.games.texas42_rules import (
    BIDS,
    SEATS,
    bid_text,
    contract_text,
    offered_bid,
    team_of,
)
from boneyard.clients.cli.games.tricks import bid_column, tricks_column
from boneyard.clients.cli.tui.sheet import bid_words
from boneyard.clients.cli.ui.describe import score_list, side
from boneyard.clients.cli.ui.render import Fragments, seat_label, tiles
from boneyard.protocol import TableInfo, Texas42Record, TexasOptions, TexasView
from boneyard.protocol.game import GameOver, HandDealt, HandStarted, HandThrownIn, MoonTilePlayed, Passed
from boneyard.protocol.texas42 import TexasBidMade, TexasHandScored, TexasTrickWon, TexasTrumpNamed


def blank_view(table: TableInfo, seat: int | None) -> TexasView:
    return TexasView(
        game="texas42", viewer=seat, hand_number=0, phase="bidding", hand=(), tile_counts=(0,) * SEATS,
        first=0, bids=(None,) * SEATS, high_bidder=None, high_bid=None, trump=None, out=None, trick=(),
        leader=None, played=(), tricks=(0,) * SEATS, points=(0, 0), scores=(0, 0),
        target=table.options.target, to_move=None, legal_actions=(), winner=None,
    )  # fmt: skip


def fold(view: TexasView, event: object) -> Update:
    match event:
        case HandStarted(hand=number, first=first, tile_counts=counts):
            return {
                "hand_number": number, "tile_counts": tuple(counts), "hand": (), "phase": "bidding",
                "first": first, "bids": (None,) * SEATS, "high_bidder": None, "high_bid": None,
                "trump": None, "out": None, "trick": (), "leader": None, "played": (),
                "tricks": (0,) * SEATS, "points": (0, 0), "to_move": first,
            }  # fmt: skip
        case HandDealt(seat=seat, tiles=dealt) if dealt is not None and seat == view.viewer:
            return {"hand": tuple(dealt)}
        case TexasBidMade(seat=seat, bid=bid):
            return _spoken(view, seat, bid) | {"high_bidder": seat, "high_bid": bid}
        case Passed(seat=seat):
            return _spoken(view, seat, "pass")
        case HandThrownIn():
            return {"phase": "thrown_in", "to_move": None}
        case TexasTrumpNamed(seat=seat, trump=trump, out=out):
            return {"phase": "playing", "trump": trump, "out": out, "leader": seat, "to_move": seat}
        case MoonTilePlayed(seat=seat, tile=tile):
            return {
                "trick": (*view.trick, (seat, tile)),
                "leader": seat if not view.trick else view.leader,
                "hand": without(view.hand, tile) if seat == view.viewer else view.hand,
                "tile_counts": bump(view.tile_counts, seat, -1),
            }
        case TexasTrickWon(seat=seat, tricks=taken, points=points):
            return {
                "played": (*view.played, view.trick), "trick": (), "leader": seat, "to_move": seat,
                "tricks": tuple(taken), "points": tuple(points),
            }  # fmt: skip
        case TexasHandScored(points=points, scores=scores):
            return {"phase": "scored", "points": tuple(points), "scores": tuple(scores), "to_move": None}
        case GameOver(winner=winner, scores=scores):
            return {"phase": "over", "winner": winner, "scores": tuple(scores), "to_move": None}
    return {}


def _spoken(view: TexasView, seat: int, word: int | str) -> Update:
    """A seat's word in the auction; after the fourth, the winner names trump (T5, T6)."""
    bids = spoken(view.bids, seat, word)
    done = all(b is not None for b in bids)
    return {"bids": bids, "phase": "naming_trump" if done else "bidding"}


def sort_hand(view: TexasView) -> TexasView:
    # One order for the whole hand (naming trump does not renumber it; trumps are marked where shown).
    return view.model_copy(update={"hand": tuple(sort_moon_hand(view.hand, None))})


def event_line(mirror: TableMirror, event: object) -> Fragments | None:
    """Words for Texas 42's own events (the shared ones are said by ``ui/describe``)."""
    who = (lambda seat: seat_label(mirror, seat)) if mirror else str
    match event:
        case TexasBidMade(seat=seat, bid=bid):
            return [("", f"{who(seat)} bids {bid_text(bid)}")]
        case TexasTrumpNamed(seat=seat, trump="nello", out=out):
            sits = f": {who(out)} sits out, hand face down" if out is not None else ""
            return [("class:trump", f"{who(seat)} plays nello (to lose every trick){sits}")]
        case TexasTrumpNamed(seat=seat, trump=trump):
            return [("class:trump", f"{who(seat)} names trump: {contract_text(trump)}")]
        case TexasTrickWon(seat=seat, tiles=played, points=points):
            return [("class:good" if seat == mirror.seat else "", f"{who(seat)} takes the trick "),
                    *tiles(played), ("class:dim", f"   points: {score_list(mirror, points)}")]  # fmt: skip
        case TexasHandScored(bidder=bidder, bid=bid, trump=trump, made=made, points=points, marks=marks,
                             scores=totals):  # fmt: skip
            verdict = ("class:good", "made it") if made else ("class:bad", "went set")
            took = (
                ""
                if trump == "nello"
                else f", {side(mirror, team_of(bidder))} took {points[team_of(bidder)]}"
            )
            head = f"Hand scored: {who(bidder)} bid {bid_text(bid)} ({contract_text(trump)}){took}: "
            summary = f"   marks: {score_list(mirror, marks)}   scores: {score_list(mirror, totals)}"
            return [("class:title", head), verdict, ("", summary)]
    return None


def seat_columns(mirror: TableMirror, view: TexasView, seat: int, wide: bool) -> Text:
    """Tricks taken, the bid, the team and its marks; ``out`` for nello's partner sitting out."""
    out = tricks_column(view.tricks[seat], wide)
    bid = view.bids[seat]
    out.append_text(bid_column(bid_text(bid) if isinstance(bid, int) and wide else bid))
    team = team_of(seat)
    out.append(f" team {team} " if wide else f" t{team} ")
    marks = view.scores[team]
    out.append(f"{marks} mark{'' if marks == 1 else 's'}" if wide else f"{marks}mk", "bold")
    if seat == view.out:
        out.append("  sits out" if wide else " out", "yellow")
    return out


def hand_words(mirror: TableMirror, hand: object) -> tuple[str, bool | None]:
    assert isinstance(hand, TexasHandScored)
    words, made = bid_words(mirror, hand.bidder, bid_text(hand.bid), hand.made)
    return f"{words} ({contract_text(hand.trump)})", made


def hand_detail(mirror: TableMirror, hand: object) -> str:
    assert isinstance(hand, TexasHandScored)
    return "points: " + " · ".join(f"team {t} {p}" for t, p in enumerate(hand.points))


def hand_points(hand: object) -> tuple[int, ...]:
    """The marks the hand gave each team."""
    assert isinstance(hand, TexasHandScored)
    return tuple(hand.marks)


def choose(view: TexasView, rng: random.Random) -> object:
    """``--auto``: Moon's basic player fits (it bids only what it can afford, else passes or makes the
    lowest bid; names its best trump; takes a trick as cheaply as it can)."""
    return bots.choose_trick_game(view, list(view.legal_actions))


def replay(record: BaseModel) -> list[texas42_replay.Position]:
    assert isinstance(record, Texas42Record)
    return texas42_replay.positions(record)


TEXAS42 = register_client_game(
    ClientGame(
        name="texas42",
        title="Texas 42",
        rules_heading="## Texas 42",
        options=TexasOptions,
        view=TexasView,
        first_role="bids first",
        teams=lambda view: True,
        blank_view=blank_view,
        fold=fold,
        sort_hand=sort_hand,
        line_board=texas42_board.line_board,
        tui_board=texas42_board.tui_board,
        seat_columns=seat_columns,
        event_line=event_line,
        hand_words=hand_words,
        hand_detail=hand_detail,
        hand_points=hand_points,
        choose=choose,
        replay=replay,
        sheet_unit="marks",
        bid_words=offered_bid,
        bids=BIDS,
        contracts={"nello": "nello"},
        trump=lambda view: view.trump if view.trump != "nello" else None,
        trick=lambda view: view.trick,
    )
)
