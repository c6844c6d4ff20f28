"""Duel in the terminal client (the test game's client part of the recipe): how its events change the
view, its board in the line client and the full-screen table, its words and its sheet. Registered by
the tests only, with :func:`duel_kit.registered`'s wire and server parts."""

from __future__ import annotations

import random

from duel_wire import DuelHandScored, DuelOptions, DuelTilePlayed, DuelTrickWon, DuelView
from rich.text import Text

from boneyard.clients.cli.core.games import ClientGame, Update
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol import TableInfo
from boneyard.protocol.play import GameOver, HandDealt, HandStarted


def _blank(table: TableInfo, seat: int | None) -> DuelView:
    n = len(table.seats)
    return DuelView(
        game="duel", viewer=seat, hand_number=0, hand=(), tile_counts=(0,) * n, trick=(), tricks=(0,) * n,
        scores=(0,) * n, target=table.options.target if isinstance(table.options, DuelOptions) else 3,
        to_move=None, legal_actions=(), winner=None,
    )  # fmt: skip


def _fold(view: DuelView, event: object) -> Update:
    match event:
        case HandStarted(hand=number, first=first, tile_counts=counts):
            return {"hand_number": number, "to_move": first, "tile_counts": tuple(counts), "trick": (),
                    "tricks": (0,) * len(counts)}  # fmt: skip
        case HandDealt(seat=seat, tiles=tiles) if tiles is not None and seat == view.viewer:
            return {"hand": tuple(tiles)}
        case DuelTilePlayed(seat=seat, tile=tile):
            counts = list(view.tile_counts)
            counts[seat] -= 1
            hand = (
                tuple(t for t in view.hand if tuple(t) != tuple(tile)) if seat == view.viewer else view.hand
            )
            return {"trick": (*view.trick, (seat, tile)), "tile_counts": tuple(counts), "hand": hand,
                    "to_move": (seat + 1) % len(counts)}  # fmt: skip
        case DuelTrickWon(seat=seat, tricks=tricks):
            return {"trick": (), "tricks": tuple(tricks), "to_move": seat}
        case DuelHandScored(scores=scores):
            return {"scores": tuple(scores), "to_move": None}
        case GameOver(winner=winner, scores=scores):
            return {"winner": winner, "scores": tuple(scores), "to_move": None}
    return {}


def _line_board(mirror: TableMirror, view: DuelView, seconds: float | None) -> Fragments:
    trick = " ".join(f"{mirror.seat_name(seat)} {render.tile_text(tile)}" for seat, tile in view.trick)
    return [
        *render.header(mirror, view, "points"),
        *render.row("Trick", [("", trick or "(empty)")]),
        *render.row("Tricks", render.per_seat(mirror, view.tricks, view.to_move)),
        *render.row("Score", render.scores(mirror, view)),
        *render.row("Hand", render.hand_line(view)),
        *render.turn_line(mirror, view, seconds),
        ("", "\n"),
    ]


def _words(mirror: TableMirror, event: object) -> Fragments | None:
    match event:
        case DuelTilePlayed(seat=seat, tile=tile):
            return [("", f"{mirror.seat_name(seat)} plays {render.tile_text(tile)}")]
        case DuelTrickWon(seat=seat):
            return [("", f"{mirror.seat_name(seat)} takes the trick")]
    return None


def _choose(view: DuelView, rng: random.Random) -> object:
    return rng.choice(view.legal_actions)


def _hand_words(mirror: TableMirror, hand: object) -> tuple[str, bool | None]:
    tricks = hand.tricks if isinstance(hand, DuelHandScored) else ()
    return f"tricks {'-'.join(map(str, tricks))}", None


DUEL_CLIENT: ClientGame[DuelView] = ClientGame(
    name="duel", title="Duel", rules_heading="## Duel", options=DuelOptions, view=DuelView,
    first_role="leads", teams=lambda view: False, blank_view=_blank, fold=_fold, sort_hand=lambda view: view,
    line_board=_line_board, tui_board=lambda mirror, view, width, height: Text(f"trick {len(view.trick)}"),
    seat_columns=lambda mirror, view, seat, wide: Text(f" {view.tricks[seat]} tricks"),
    event_line=_words, hand_words=_hand_words, hand_detail=lambda mirror, hand: "",
    hand_points=lambda hand: hand.scores if isinstance(hand, DuelHandScored) else (),
    choose=_choose, replay=lambda record: [],  # no step-through replay drawn for the test game
    trick=lambda view: view.trick,
)  # fmt: skip
"""Duel as the terminal client shows it."""
