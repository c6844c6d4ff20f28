"""A finished game's record as a series of table positions, for the replay on the table screen.

Each :class:`Position` is a :class:`~boneyard.clients.cli.core.TableMirror` (a view as a spectator
sees it, and the score sheet so far), every seat's tiles face up (the game is over), and a title.
Who took each Moon trick and Straight's layout and count come from the client's own rule
knowledge, as in :mod:`boneyard.clients.cli.replay`; the record's scores are the authority.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import TableMirror, View
from boneyard.clients.cli.core.rules import (
    Tile,
)
from boneyard.protocol import GameEvent, TableInfo
from boneyard.protocol.game import GameOver
from boneyard.protocol.records import BaseRecord as AnyRecord


@dataclass(frozen=True)
class Position:
    title: str
    mirror: TableMirror
    hands: tuple[tuple[Tile, ...], ...]
    """Every seat's tiles at this point."""
    hand: int
    """The hand's number, from 1."""


_TABLE: TypeAdapter[TableInfo] = TypeAdapter(TableInfo)


def replay_table(record: AnyRecord) -> TableInfo:
    """The finished table a record describes, as the lobby would list it (its seats named)."""
    names = list(record.seat_names or ())
    seats = [
        {"seat": s, "name": names[s] if s < len(names) else f"seat {s}", "bot": False, "connected": True,
         "auto": False}
        for s in range(record.players)
    ]  # fmt: skip
    return _TABLE.validate_python(
        {"table_id": "replay", "game": record.game, "options": record.options.model_dump(), "seats": seats,
         "status": "finished", "turn_seconds": None, "spectators": 0, "rematch": []}
    )  # fmt: skip


HandOrder = Callable[[Sequence[Tile], Any], list[Tile]]
"""How a seat's tiles are shown: its hand, and the view's trump (or ``None``)."""


class Replay:
    """Positions collected while walking through a record's hands (``order``: how hands are shown)."""

    def __init__(self, record: AnyRecord, order: HandOrder) -> None:
        self.record = record
        self.table = replay_table(record)
        self.order = order
        self.out: list[Position] = []
        self.sheet: list[GameEvent] = []
        self.held: list[list[Tile]] = []
        self.number = 0

    def name(self, seat: int) -> str:
        return self.table.seats[seat].name or f"seat {seat}"

    def add(self, title: str, view: View, trick: Any = (), won: int | None = None) -> None:
        mirror = TableMirror("replay", table=self.table, view=view, hands=list(self.sheet))
        mirror.last_trick, mirror.last_trick_winner = tuple(trick), won
        game = client_game(view.game)
        trump = game.trump(view) if game is not None else None
        hands = tuple(tuple(self.order(h, trump)) for h in self.held)
        self.out.append(Position(f"Hand {self.number}: {title}", mirror, hands, self.number))

    def finish(self) -> list[Position]:
        last = self.out[-1]
        over = GameOver(type="game_over", winner=self.record.winner, scores=tuple(self.record.final_scores))
        assert last.mirror.view is not None
        view = last.mirror.view.model_copy(update={"to_move": None})
        mirror = TableMirror("replay", table=self.table, view=view, hands=list(self.sheet), game_over=over)
        self.out.append(Position("Game over", mirror, last.hands, last.hand))
        return self.out


def positions(record: AnyRecord) -> list[Position]:
    """A record's positions, by its game's own walk (none for a game this client cannot show)."""
    game = client_game(record.game)
    return [p for p in game.replay(record) if isinstance(p, Position)] if game is not None else []
