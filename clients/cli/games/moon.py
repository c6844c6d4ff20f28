"""Three-Player Moon in the terminal client: its view folding and where its drawing lives."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pydantic import BaseModel
from rich.text import Text

from boneyard.clients.cli import bots
from boneyard.clients.cli.core.games import ClientGame, Update, register_client_game
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import sort_moon_hand, trump_word
from boneyard.clients.cli.games import moon_board
from boneyard.clients.cli.games.folding import bump, spoken, without
from boneyard.clients.cli.games.moon_replay import moon_positions, moon_steps
from boneyard.clients.cli.games.tricks import bid_column, tricks_column
from boneyard.clients.cli.replay_text import Step
from boneyard.clients.cli.tui import replay_states
from boneyard.clients.cli.tui.sheet import bid_words
from boneyard.clients.cli.ui.describe import score_list
from boneyard.clients.cli.ui.render import Fragments, seat_label, tile_text, tiles
from boneyard.protocol import MoonOptions, MoonRecord, MoonView, TableInfo
from boneyard.protocol.game import (
    BidMade,
    Discarded,
    GameOver,
    HandDealt,
    HandStarted,
    HandThrownIn,
    MoonHandScored,
    MoonTilePlayed,
    Passed,
    TrickWon,
    TrumpNamed,
    WidowTaken,
)


def blank_view(table: TableInfo, seat: int | None) -> MoonView:
    n = len(table.seats)
    return MoonView(
        game="moon", viewer=seat, hand_number=0, phase="bidding", hand=(), tile_counts=(0,) * n,
        first=0, bids=(None,) * n, high_bidder=None, high_bid=None, trump=None, trick=(), leader=None,
        played=(), tricks=(0,) * n, scores=(0,) * n, target=table.options.target, to_move=None,
        legal_actions=(), discard=None, winner=None,
    )  # fmt: skip


def fold(view: MoonView, event: object) -> Update:
    match event:
        case HandStarted(hand=number, first=first, tile_counts=counts):
            n = len(counts)
            return {
                "hand_number": number, "tile_counts": tuple(counts), "hand": (), "phase": "bidding",
                "first": first, "bids": (None,) * n, "high_bidder": None, "high_bid": None, "trump": None,
                "trick": (), "leader": None, "played": (), "tricks": (0,) * n, "discard": None,
                "to_move": first,
            }  # fmt: skip
        case HandDealt(seat=seat, tiles=tiles) if tiles is not None and seat == view.viewer:
            return {"hand": tuple(tiles)}
        case BidMade(seat=seat, bid=bid):
            return {"bids": spoken(view.bids, seat, bid), "high_bidder": seat, "high_bid": bid}
        case Passed(seat=seat):
            return {"bids": spoken(view.bids, seat, "pass")}
        case HandThrownIn():
            return {"phase": "thrown_in", "to_move": None}  # nobody moves until the next deal
        case WidowTaken(seat=seat, tile=tile):
            hand = (*view.hand, tile) if tile is not None and seat == view.viewer else view.hand
            return {"phase": "discarding", "hand": hand, "tile_counts": bump(view.tile_counts, seat, 1)}
        case Discarded(seat=seat, tile=tile):
            mine = tile is not None and seat == view.viewer
            return {
                "phase": "naming_trump",
                "hand": without(view.hand, tile) if mine and tile is not None else view.hand,
                "discard": tile if mine else view.discard,
                "tile_counts": bump(view.tile_counts, seat, -1),
            }
        case TrumpNamed(seat=seat, trump=trump):
            return {"phase": "playing", "trump": trump, "leader": seat}
        case MoonTilePlayed(seat=seat, tile=tile):
            return {
                "trick": (*view.trick, (seat, tile)),
                "leader": seat if not view.trick else view.leader,
                "hand": without(view.hand, tile) if seat == view.viewer else view.hand,
                "tile_counts": bump(view.tile_counts, seat, -1),
            }
        case TrickWon(seat=seat, tricks=tricks):
            return {
                "played": (*view.played, view.trick),
                "trick": (),
                "leader": seat,
                "tricks": tuple(tricks),
            }
        case MoonHandScored(tricks=tricks, scores=scores):
            return {"phase": "scored", "tricks": tuple(tricks), "scores": tuple(scores), "to_move": None}
        case GameOver(winner=winner, scores=scores):
            return {"phase": "over", "winner": winner, "scores": tuple(scores), "to_move": None}
    return {}


def sort_hand(view: MoonView) -> MoonView:
    # One order for the whole hand, trump or not: naming trump must not renumber the hand a player
    # has been reading (the trumps are marked where it is shown).
    return view.model_copy(update={"hand": tuple(sort_moon_hand(view.hand, None))})


def hand_words(mirror: TableMirror, hand: object) -> tuple[str, bool | None]:
    assert isinstance(hand, MoonHandScored)
    return bid_words(mirror, hand.bidder, hand.bid, hand.points[hand.bidder] > 0)


def hand_detail(mirror: TableMirror, hand: object) -> str:
    assert isinstance(hand, MoonHandScored)
    return "tricks: " + " · ".join(f"{mirror.seat_name(s)} {n}" for s, n in enumerate(hand.tricks))


def hand_points(hand: object) -> tuple[int, ...]:
    assert isinstance(hand, MoonHandScored)
    return tuple(hand.points)


def event_line(mirror: TableMirror, event: object) -> Fragments | None:
    """Words for Moon's own events (the shared ones are said by ``ui/describe``)."""
    who = (lambda seat: seat_label(mirror, seat)) if mirror else str
    match event:
        case BidMade(seat=seat, bid=bid):
            return [("", f"{who(seat)} bids {bid}")]
        case WidowTaken(seat=seat, tile=t):
            return [("", f"{who(seat)} takes the widow{' ' + tile_text(t) if t else ''}")]
        case Discarded(seat=seat, tile=t):
            return [("", f"{who(seat)} discards {tile_text(t) if t else 'a tile face down'}")]
        case TrumpNamed(seat=seat, trump=trump):
            return [("class:trump", f"{who(seat)} names trump: {trump_word(trump)}")]
        case TrickWon(seat=seat, tiles=played, tricks=taken):
            return [("class:good" if seat == mirror.seat else "", f"{who(seat)} takes the trick "),
                    *tiles(played), ("class:dim", f"   tricks: {score_list(mirror, taken)}")]  # fmt: skip
        case MoonHandScored(bidder=bidder, bid=bid, tricks=taken, points=points, scores=totals):
            made = points[bidder] > 0
            verdict = ("class:good", "made it") if made else ("class:bad", "went set")
            summary = f"   points: {score_list(mirror, points)}   scores: {score_list(mirror, totals)}"
            head = f"Hand scored: {who(bidder)} bid {bid}, took {taken[bidder]}: "
            return [("class:title", head), verdict, ("", summary)]
    return None


def seat_columns(mirror: TableMirror, view: MoonView, seat: int, wide: bool) -> Text:
    """Tricks taken, the bid, the score."""
    out = tricks_column(view.tricks[seat], wide)
    out.append_text(bid_column(view.bids[seat]))
    out.append(" ")
    out.append(f"{view.scores[seat]:>3} pts", "bold")
    return out


def choose(view: MoonView, rng: random.Random) -> object:
    return bots.choose_trick_game(view, list(view.legal_actions))


def line_replay(record: BaseModel) -> Iterator[Step]:
    assert isinstance(record, MoonRecord)
    return moon_steps(record)


def replay(record: BaseModel) -> list[replay_states.Position]:
    assert isinstance(record, MoonRecord)
    return moon_positions(record)


MOON = register_client_game(
    ClientGame(
        name="moon",
        title="Moon",
        rules_heading="## Three-Player Moon",
        options=MoonOptions,
        view=MoonView,
        first_role="bids first",
        teams=lambda view: False,
        blank_view=blank_view,
        fold=fold,
        sort_hand=sort_hand,
        line_board=moon_board.line_board,
        tui_board=moon_board.tui_board,
        seat_columns=seat_columns,
        event_line=event_line,
        hand_words=hand_words,
        hand_detail=hand_detail,
        hand_points=hand_points,
        choose=choose,
        replay=replay,
        line_replay=line_replay,
        bids=(4, 5, 6, 7, 21),
        trump=lambda view: view.trump,
        trick=lambda view: view.trick,
    )
)
