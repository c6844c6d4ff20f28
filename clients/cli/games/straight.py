"""Straight Dominoes in the terminal client: its view folding and where its drawing lives."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pydantic import BaseModel
from rich.text import Text

from boneyard.clients.cli import bots
from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.games import ClientGame, Update, register_client_game
from boneyard.clients.cli.core.mirror import MirrorError, TableMirror
from boneyard.clients.cli.core.rules import sort_straight_hand
from boneyard.clients.cli.games import straight_board
from boneyard.clients.cli.games.folding import bump, without
from boneyard.clients.cli.games.straight_replay import straight_positions, straight_steps
from boneyard.clients.cli.replay_text import Step
from boneyard.clients.cli.tui import replay_states
from boneyard.clients.cli.ui.describe import score_list, side
from boneyard.clients.cli.ui.render import Fragments, seat_label, tile_text
from boneyard.protocol import StraightOptions, StraightRecord, StraightView, TableInfo
from boneyard.protocol.game import (
    Blocked,
    Domino,
    GameOver,
    HandDealt,
    HandStarted,
    StraightHandScored,
    StraightTilePlayed,
    TileDrawn,
)
from boneyard.protocol.values import PARTNERSHIP_PLAYERS


def blank_view(table: TableInfo, seat: int | None) -> StraightView:
    n = len(table.seats)
    options = table.options
    teams = isinstance(options, StraightOptions) and bool(options.partnerships)
    return StraightView(
        game="straight", viewer=seat, hand_number=0, players=n, partnerships=teams, target=options.target,
        hand=(), tile_counts=(0,) * n, boneyard=0, layout=layouts.EMPTY, count=0,
        scores=(0,) * (2 if teams else n), leader=0, to_move=None, legal_actions=(), is_over=False,
        winner=None,
    )  # fmt: skip


def fold(view: StraightView, event: object) -> Update:
    match event:
        case HandStarted(hand=number, first=first, tile_counts=counts, boneyard=boneyard):
            return {
                "hand_number": number, "tile_counts": tuple(counts), "hand": (), "boneyard": boneyard,
                "layout": layouts.EMPTY, "count": 0, "leader": first, "to_move": first,
            }  # fmt: skip
        case HandDealt(seat=seat, tiles=tiles) if tiles is not None and seat == view.viewer:
            return {"hand": tuple(tiles)}
        case StraightTilePlayed(seat=seat, tile=tile, end=end, count=count, scores=scores):
            try:
                layout = layouts.play(view.layout, tile, end)
            except ValueError as error:
                raise MirrorError(f"tile_played does not fit the mirrored layout: {error}") from None
            return {
                "layout": layout.model_copy(update={"count": count}),
                "count": count,
                "scores": tuple(scores),
                "hand": without(view.hand, tile) if seat == view.viewer else view.hand,
                "tile_counts": bump(view.tile_counts, seat, -1),
            }
        case TileDrawn(seat=seat, tile=tile, boneyard=boneyard):
            mine = tile is not None and seat == view.viewer
            return {
                "boneyard": boneyard,
                "hand": (*view.hand, tile) if mine else view.hand,
                "tile_counts": bump(view.tile_counts, seat, 1),
            }
        case StraightHandScored(scores=scores):
            return {"scores": tuple(scores), "to_move": None}  # nobody moves until the next deal
        case GameOver(winner=winner, scores=scores):
            return {"is_over": True, "winner": winner, "scores": tuple(scores), "to_move": None}
    return {}


def complete_options(options: dict[str, object]) -> dict[str, object]:
    """RULES.md S1: four players play in partnerships unless asked not to (``play`` says so)."""
    players = options.get("players", StraightOptions().players)
    if players == PARTNERSHIP_PLAYERS and options.get("partnerships") is None:
        return options | {"partnerships": True}
    return options


def sort_hand(view: StraightView) -> StraightView:
    return view.model_copy(update={"hand": tuple(sort_straight_hand(view.hand))})


def event_line(mirror: TableMirror, event: object) -> Fragments | None:
    """Words for Straight's own events (the shared ones are said by ``ui/describe``)."""
    who = (lambda seat: seat_label(mirror, seat)) if mirror else str
    match event:
        case StraightTilePlayed(seat=seat, tile=t, end=end, count=count, points=points):
            where = f" on the {end} end" if end else " to open"
            scored = [("class:good", f"   scores {points}!")] if points else []
            return [("", f"{who(seat)} plays {tile_text(t)}{where}"), ("class:dim", f"   count {count}"),
                    *scored]  # fmt: skip
        case TileDrawn(seat=seat, tile=t, boneyard=left):
            return [("class:dim", f"{who(seat)} draws {tile_text(t)} ({left} left in the boneyard)")]
        case Domino(seat=seat):
            return [("class:title", f"{who(seat)} dominoes!")]
        case Blocked():
            return [("class:notice", "The hand is blocked: nobody can play")]
        case StraightHandScored(winners=winners, points=points, pips=left, scores=totals):
            names = " and ".join(side(mirror, w) for w in winners) or "nobody"
            award = max(points) if points else 0
            pips = ", ".join(f"{mirror.seat_name(s)} {p}" for s, p in enumerate(left))
            return [("class:title", f"Hand scored: {names} +{award}"), ("class:dim", f"   pips left: {pips}"),
                    ("", f"   scores: {score_list(mirror, totals)}")]  # fmt: skip
    return None


def seat_columns(mirror: TableMirror, view: StraightView, seat: int, wide: bool) -> Text:
    """The seat's team (in partnerships) and its score."""
    score = view.scores[seat % 2] if view.partnerships else view.scores[seat]
    out = Text(f"  team {seat % 2}  " if view.partnerships else "  ")
    out.append(f"{score:>3} pts", "bold")
    return out


def hand_words(mirror: TableMirror, hand: object) -> tuple[str, bool | None]:
    assert isinstance(hand, StraightHandScored)
    if not hand.winners:
        return "nobody scores the hand", None
    names = [f"team {w}" if bool(getattr(mirror.view, "partnerships", False)) else mirror.seat_name(w)
             for w in hand.winners]  # fmt: skip
    return f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'} +{max(hand.points)}", None


def hand_detail(mirror: TableMirror, hand: object) -> str:
    assert isinstance(hand, StraightHandScored)
    return "pips left: " + " · ".join(f"{mirror.seat_name(s)} {p}" for s, p in enumerate(hand.pips))


def hand_points(hand: object) -> tuple[int, ...]:
    """The end-of-hand award per side (points in play are already in the running scores)."""
    assert isinstance(hand, StraightHandScored)
    return tuple(hand.points)


def choose(view: StraightView, rng: random.Random) -> object:
    return bots.choose_straight(view, list(view.legal_actions), rng)


def line_replay(record: BaseModel) -> Iterator[Step]:
    assert isinstance(record, StraightRecord)
    return straight_steps(record)


def replay(record: BaseModel) -> list[replay_states.Position]:
    assert isinstance(record, StraightRecord)
    return straight_positions(record)


STRAIGHT = register_client_game(
    ClientGame(
        name="straight",
        title="Straight",
        rules_heading="## Straight Dominoes",
        options=StraightOptions,
        view=StraightView,
        first_role="leads",
        teams=lambda view: view.partnerships,
        blank_view=blank_view,
        fold=fold,
        sort_hand=sort_hand,
        line_board=straight_board.line_board,
        tui_board=straight_board.tui_board,
        seat_columns=seat_columns,
        event_line=event_line,
        hand_words=hand_words,
        hand_detail=hand_detail,
        hand_points=hand_points,
        choose=choose,
        replay=replay,
        complete_options=complete_options,
        line_replay=line_replay,
    )
)
