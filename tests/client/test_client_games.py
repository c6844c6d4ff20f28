"""The client's games registry: a game registered at run time, only here, is followed, drawn, worded,
scored and offered by the line client with no change anywhere else (issue 27); and the client's files
stay small (every one under 400 lines)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field
from rich.text import Text

from boneyard.clients.cli import bots
from boneyard.clients.cli.core.games import CLIENT_GAMES, ClientGame, Update, register_client_game
from boneyard.clients.cli.core.mirror import Mirror, TableMirror
from boneyard.clients.cli.main import build_parser, play_options
from boneyard.clients.cli.tui.sheet import sheet_text
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.describe import message_line
from boneyard.clients.cli.ui.forms import FormError, create_request
from boneyard.clients.cli.ui.render import Fragments, plain
from boneyard.protocol import GameEvent, PassAction, SeatInfo, Snapshot
from boneyard.protocol.game import EventMessageBase, GameOver, HandStarted
from boneyard.protocol.lobby import BaseTable
from boneyard.protocol.values import GameOptions

ROOT = Path(__file__).resolve().parents[2]


class TinyOptions(GameOptions):
    """The tiny game's options: the protocol's options models are closed and carry their ranges."""

    rounds: Annotated[int, Field(ge=1, le=9)] = 3

    @property
    def players(self) -> int:
        return 2


class TinyTable(BaseTable):
    game: Literal["tiny"]  # type: ignore[assignment]
    options: TinyOptions

    @property
    def players(self) -> int:
        return self.options.players


class TinyView(BaseModel):
    game: Literal["tiny"] = "tiny"
    viewer: int | None = 0
    hand_number: int = 0
    hand: tuple[tuple[int, int], ...] = ()
    tile_counts: tuple[int, ...] = (0, 0)
    scores: tuple[int, ...] = (0, 0)
    target: int = 3
    to_move: int | None = None
    legal_actions: tuple[PassAction, ...] = ()
    pips: int = 0


class Counted(GameEvent):
    """The tiny game's own event: a seat counts some pips."""

    type: Literal["counted"]
    seat: int
    pips: int


class Tallied(GameEvent):
    type: Literal["hand_scored"]
    scores: tuple[int, ...]


class TinyEventMessage(EventMessageBase):
    game: Literal["tiny"]  # type: ignore[assignment]
    event: HandStarted | Counted | Tallied | GameOver  # type: ignore[assignment]


def _fold(view: TinyView, event: object) -> Update:
    match event:
        case HandStarted(hand=number, first=first):
            return {"hand_number": number, "to_move": first, "pips": 0}
        case Counted(pips=pips):
            return {"pips": view.pips + pips}
        case Tallied(scores=scores):
            return {"scores": scores, "to_move": None}
    return {}


def _board(mirror: TableMirror, view: TinyView, seconds: float | None) -> Fragments:
    return [*render.header(mirror, view, "rounds"), ("", f"Pips     {view.pips}\n")]


def _words(mirror: TableMirror, event: object) -> Fragments | None:
    return (
        [("", f"{mirror.seat_name(event.seat)} counts {event.pips}")] if isinstance(event, Counted) else None
    )


TINY: ClientGame[TinyView] = ClientGame(
    name="tiny", title="Tiny", rules_heading="## Tiny", options=TinyOptions, view=TinyView,
    first_role="counts first", teams=lambda view: False,
    blank_view=lambda table, seat: TinyView(viewer=seat), fold=_fold, sort_hand=lambda view: view,
    line_board=_board, tui_board=lambda mirror, view, width, height: Text(f"pips {view.pips}"),
    seat_columns=lambda mirror, view, seat, wide: Text(f" {view.scores[seat]} pts"),
    event_line=_words, hand_words=lambda mirror, hand: ("tallied", None),
    hand_detail=lambda mirror, hand: "", hand_points=lambda hand: getattr(hand, "scores", ()),
    choose=lambda view, rng: view.legal_actions[0], replay=lambda record: [],
)  # fmt: skip


@pytest.fixture
def tiny() -> Iterator[ClientGame[TinyView]]:
    register_client_game(TINY)
    try:
        yield TINY
    finally:
        CLIENT_GAMES.pop("tiny", None)


def _table() -> TinyTable:
    seats = tuple(
        SeatInfo(seat=s, name=n, bot=s == 1, connected=True, auto=False) for s, n in enumerate("ab")
    )
    return TinyTable(
        table_id="t1", game="tiny", options=TinyOptions(rounds=3), seats=seats, status="playing",
        turn_seconds=None,
        spectators=0, rematch=(),
    )  # fmt: skip


def _event(seq: int, event: GameEvent) -> TinyEventMessage:
    return TinyEventMessage(type="event", seq=seq, table_id="t1", game="tiny", event=event)


def test_a_game_registered_at_run_time_plays_in_the_line_client(tiny: ClientGame[TinyView]) -> None:
    mirror = Mirror()
    view = TinyView(viewer=0, to_move=0, legal_actions=(PassAction(type="pass"),))
    mirror.apply(
        Snapshot.model_construct(type="snapshot", seq=1, reply_to=None, table=_table(), view=view,
                                 time_left_ms=None, pause=None, chat=())
    )  # fmt: skip
    table = mirror.tables["t1"]
    table.seat = 0
    assert bots.choose(table.view) == PassAction(type="pass")  # its --auto player
    for seq, event in enumerate(
        (HandStarted(type="hand_started", hand=1, first=1, tile_counts=(0, 0), boneyard=0),
         Counted(type="counted", seat=1, pips=5), Counted(type="counted", seat=0, pips=4)), 2
    ):  # fmt: skip
        mirror.apply(message := _event(seq, event))
        said = plain(message_line(mirror, message) or [])
    assert said == "a counts 4"  # its own event, in its own words
    assert table.view == TinyView(viewer=0, hand_number=1, to_move=1, pips=9)  # folded by the game
    started = message_line(mirror, _event(9, HandStarted(type="hand_started", hand=1, first=1,
                                                          tile_counts=(0, 0), boneyard=0)))  # fmt: skip
    assert plain(started or []) == "── Hand 2: b counts first ──"
    board = plain(render.board(table))
    assert board.startswith("── Tiny · table t1 · hand 2 · first to 3 rounds ──") and "Pips     9" in board
    mirror.apply(_event(10, Tallied(type="hand_scored", scores=(1, 0))))
    assert table.hands and "tallied" in sheet_text(table, 40).plain


def test_its_options_come_from_its_model(tiny: ClientGame[TinyView]) -> None:
    parse = build_parser().parse_args
    assert play_options(parse(["play", "tiny", "--option", "rounds=5"])) == ({"rounds": 5}, 2)
    with pytest.raises(ValueError, match="rounds: input should be less than or equal to 9"):
        play_options(parse(["play", "tiny", "--option", "rounds=12"]))
    assert create_request(["tiny", "rounds=2", "bots=1"])["options"] == {"rounds": 2}
    with pytest.raises(FormError, match=r"tiny has no target option \(its options: rounds\)"):
        create_request(["tiny", "target=5"])


def test_every_client_file_stays_under_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "clients" / "cli").rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 400
    }
    assert not long, long


def test_the_built_in_games_register_themselves() -> None:
    from boneyard.clients.cli.core.games import load_games

    assert {"moon", "straight", "texas42"} <= set(load_games())
