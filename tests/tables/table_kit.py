"""The table tier without sockets: a fake host, a manual clock, players whose frames are decoded.

:class:`FakeHost` is a :class:`~boneyard.server.host.TableServer` that records what a table tells the
server; :class:`MemoryLog` is a :class:`~boneyard.server.storage.store.TableLog` keeping, in memory,
exactly what the database would (the rows :func:`~boneyard.server.storage.stored.load` reads back),
so a restore can be driven from it. Every frame a :class:`Player` gets is decoded strictly and its
``seq`` checked, as the socket tests do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import TypeAdapter

from boneyard.protocol import Action, ServerMessage, decode_server_message
from boneyard.protocol.values import CommandId
from boneyard.server.games.registry import game_spec
from boneyard.server.host import ManualClock
from boneyard.server.record_store import MemoryRecordStore
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.spectators import SpectatorChat
from boneyard.server.storage.crashlog import Ends, SeatEnds, ends_json, parsed_ends
from boneyard.server.storage.logged import LoggedSession, LoggedTable
from boneyard.server.storage.stored import StoredSeat, StoredSession, StoredTable
from boneyard.server.table import Table
from boneyard.server.wire import wire_action

ACTION: TypeAdapter[Any] = TypeAdapter(Action)


def settings(**overrides: Any) -> Settings:
    """In memory, dealt from a fixed seed (every run of a test plays the same game), without waiting for
    players' seeds unless a test asks to."""
    return Settings(
        **{"durable": False, "seed": 12, "deal_seed_wait_ms": 0, "hand_pause_seconds": 0, **overrides}
    )


class Player:
    """A session's live connection: decodes every frame, checks ``seq``."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.messages: list[ServerMessage] = []
        self._read = 0
        session.client = self

    def write(self, frame: bytes) -> None:
        message = decode_server_message(frame)
        seq = getattr(message, "seq", None)
        if self.messages:
            assert seq == self.messages[-1].seq + 1, (seq, self.messages[-1])  # type: ignore[union-attr]
        self.messages.append(message)

    def new(self) -> list[Any]:
        """The messages since the last call."""
        out, self._read = self.messages[self._read :], len(self.messages)
        return out

    def of_type(self, kind: str) -> list[Any]:
        return [m for m in self.messages if m.type == kind]

    def last(self, kind: str) -> Any:
        found = self.of_type(kind)
        assert found, f"no {kind} among {[m.type for m in self.messages]}"
        return found[-1]


class MemoryLog:
    """A table log keeping what the database would: rows, seats, the current game's actions, tokens."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}
        self.seats: dict[str, list[StoredSeat]] = {}
        self.actions: dict[str, list[tuple[int, dict[str, Any], bool]]] = {}
        self.ends: dict[str, list[Ends | None]] = {}
        self.sessions: dict[str, StoredSession] = {}
        self.writes = 0

    def table(self, table: LoggedTable, *, stored: bool = False) -> None:
        if stored:
            return
        self.writes += 1
        row = self.tables.setdefault(table.table_id, {"deadline": None, "deadline_move": None})
        row.update(
            game=table.game,
            options=json.loads(json.dumps(table.options_dict)),
            turn_seconds=table.turn_seconds,
            status=table.status,
            games=table.games,
            seed=table.seed,
            rematch=sorted(table.rematch),
            bot_delay_ms=table.bot_delay_ms,
            record_id=table.record_id,
        )
        row["deal_algorithm"], row["player_seeds"], row["dealt"] = table.deal_columns()
        row["owner"], row["invite"] = table.owner, table.invite
        row["hand_pause_ms"], row["hand_ready"] = table.hand_pause_ms, table.hand_ready
        self.seats[table.table_id] = [
            StoredSeat(s.index, s.name, s.bot, s.auto, s.token, s.timeouts) for s in table.seats
        ]

    def table_removed(self, table_id: str) -> None:
        for rows in (self.tables, self.seats, self.actions, self.ends):
            rows.pop(table_id, None)

    def action(self, table_id: str, game: int, move: int, seat: int, action: Any, auto: bool) -> None:
        if move == 0:
            self.actions[table_id] = []
        stored = self.actions.setdefault(table_id, [])
        assert len(stored) == move
        stored.append((seat, json.loads(json.dumps(wire_action(action))), auto))
        self.ends.setdefault(table_id, [])[move:] = [None]

    def action_end(
        self, table_id: str, game: int, move: int, reply_to: CommandId | None, ends: SeatEnds
    ) -> None:
        self.ends[table_id][move] = parsed_ends(ends_json(reply_to, ends))

    def deadline(self, table_id: str, move: int, when: float) -> None:
        self.tables[table_id].update(deadline=when, deadline_move=move)

    def session(self, session: LoggedSession) -> None:
        assert session.token is not None
        stored = StoredSession(session.token, session.player_id, session.name, epoch=session.epoch)
        self.sessions[session.token] = stored

    def session_gone(self, token: str) -> None:
        self.sessions.pop(token, None)

    def session_logs(self, sessions: Iterable[LoggedSession]) -> None:
        pass

    def after_commit(self, callback: Callable[[], None]) -> None:
        callback()

    def load(self) -> tuple[list[StoredTable], dict[str, StoredSession]]:
        """What ``storage.stored.load`` would read back."""
        tables = [
            StoredTable(
                table_id=table_id,
                seats=self.seats[table_id],
                actions=list(self.actions.get(table_id, [])),
                ends=list(self.ends.get(table_id, [])),
                **row,
            )
            for table_id, row in self.tables.items()
        ]
        return tables, dict(self.sessions)


class Counter:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def action(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def game_finished(self, game: str) -> None:
        self.action(f"finished {game}")

    def turn_timed_out(self) -> None:
        self.action("timeout")


class FakeHost:
    """A :class:`~boneyard.server.host.TableServer` that notes what its tables tell it."""

    def __init__(self, **overrides: Any) -> None:
        self.settings = settings(**overrides)
        self.clock = ManualClock()
        self.table_log = MemoryLog()
        self.records = MemoryRecordStore(100)
        self.metrics = Counter()
        self.stopping = False
        self.bots = None  # every bot moves inline, at once
        self.spectator_chat = SpectatorChat(self.settings.spectator_chat_per_minute)
        self.changes: list[str] = []
        self.removed: list[str] = []
        self.in_lobby: set[Session] = set()
        self._ids = 0

    def new_record_id(self) -> str:
        self._ids += 1
        return f"r{self._ids}"

    def token_for(self, session: Session) -> str:
        if session.token is None:
            session.token = f"token-of-player-{session.player_id}"
            session.start_log()
            self.table_log.session(session)
        return session.token

    def table_changed(self, table: Table) -> None:
        self.changes.append(table.table_id)

    def remove_table(self, table: Table) -> None:
        self.removed.append(table.table_id)
        table.clear()

    def spectators_changed(self, table: Table) -> None:
        self.changes.append(table.table_id)

    def at_table(self, session: Session) -> None:
        self.in_lobby.discard(session)

    def left_table(self, session: Session) -> None:
        if not session.tables:
            self.in_lobby.add(session)

    def table(self, game: str, options: dict[str, Any] | None = None, **kwargs: Any) -> Table:
        spec = game_spec(game)
        turn_seconds = kwargs.pop("turn_seconds", 30)
        return Table(self, "t1", spec, spec.options_from_dict(options or {}), turn_seconds, **kwargs)


def player(name: str, number: int = 1) -> Player:
    return Player(Session(f"p{number}", name, 32))


def act(table: Table, who: Player, wire: dict[str, Any]) -> None:
    """``act`` as a connection hands it over: the wire action as its protocol model."""
    table.act(who.session, ACTION.validate_python(wire))


def ready(table: Table, who: Player) -> None:
    """``ready`` where the seam routes it: the pauses between hands of the game in play."""
    seat = table.seat_of(who.session)
    if (pause := table.cycle.breaks) is not None:
        pause.ready(seat)


def play_turn(table: Table, who: Player) -> None:
    """The seat to move (``who``) plays its first legal action."""
    turn = who.last("turn")
    assert turn.legal_actions, turn
    act(table, who, turn.legal_actions[0].model_dump())
