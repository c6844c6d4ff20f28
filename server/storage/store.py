"""What the server writes to the database, and reads back at start.

The write side is :class:`~boneyard.server.storage.logged.TableLog` (with what it reads of tables and
sessions, in :mod:`~boneyard.server.storage.logged`), called by the lobby and the tables at the moments their
durable state changes: a table's row and seats (:meth:`~TableLog.table`, from ``Table.changed``),
each accepted action (from ``Match.commit``, before anyone hears of it), the turn's
deadline, resume tokens, and finished games' records (:class:`SQLiteRecordStore`). Every write is
a statement queued on the :class:`~server.storage.journal.Journal`, committed in the background
before any frame that follows it is sent. :data:`NO_LOG` is the same interface doing nothing
(``durable = false``).

A table is stored as what rebuilds it: its options, seats and tokens, the current game's seeds
(the server's, the players' contributions, whether the first deal is made) and accepted actions
(an engine is a pure function of its dealer and its actions), and the turn's deadline as wall-clock
time. The read side (:mod:`~boneyard.server.storage.stored`) returns exactly that.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgpack

from boneyard.protocol.values import CommandId
from boneyard.server.record_store import GameRecord, validated
from boneyard.server.storage.crashlog import SeatEnds, ends_json
from boneyard.server.storage.journal import Journal
from boneyard.server.storage.logged import LoggedSession, LoggedTable
from boneyard.server.wire import action_json

_UPSERT_TABLE = """INSERT INTO tables (table_id, game, options, turn_seconds, status, games, seed, rematch,
        bot_delay_ms, record_id, deal_algorithm, player_seeds, dealt, owner, invite, hand_pause_ms,
        hand_ready, open_bot_seats, rated, rated_left)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, games = excluded.games,
        seed = excluded.seed, rematch = excluded.rematch, record_id = excluded.record_id,
        deal_algorithm = excluded.deal_algorithm, player_seeds = excluded.player_seeds,
        dealt = excluded.dealt, hand_ready = excluded.hand_ready, rated_left = excluded.rated_left"""
_UPSERT_SEAT = (
    "INSERT OR REPLACE INTO seats (table_id, seat, name, bot, auto, token, timeouts, level)"
    " VALUES (?,?,?,?,?,?,?,?)"
)
_INSERT_ACTION = (
    "INSERT INTO actions (table_id, game, move, seat, action, auto, ends, deadline) VALUES (?,?,?,?,?,?,?,?)"
)
_ENDS_COLUMN, _DEADLINE_COLUMN = 6, 7
"""Where the row of :data:`_INSERT_ACTION` holds the action's ends and the next move's deadline."""
_DROP_OLD_ACTIONS = "DELETE FROM actions WHERE table_id = ? AND game < ?"
_SET_DEADLINE = "UPDATE tables SET deadline = ?, deadline_move = ? WHERE table_id = ?"
_SET_NEXT_DEADLINE = (
    "UPDATE actions SET deadline = ? WHERE table_id = ? AND move = ?"
    " AND game = (SELECT games FROM tables WHERE table_id = ?)"
)
_REMOVE_TABLE = (
    "DELETE FROM actions WHERE table_id = ?",
    "DELETE FROM seats WHERE table_id = ?",
    "DELETE FROM tables WHERE table_id = ?",
)
_SET_ENDS = "UPDATE actions SET ends = ? WHERE table_id = ? AND game = ? AND move = ?"
_UPSERT_SESSION = (
    "INSERT OR REPLACE INTO sessions (token, player_id, name, epoch, account) VALUES (?, ?, ?, ?, ?)"
)
_DROP_SESSION = "DELETE FROM sessions WHERE token = ?"
_SET_SESSION_LOG = "UPDATE sessions SET seq = ?, log = ? WHERE token = ?"
_FORGET_SESSION_LOGS = "UPDATE sessions SET seq = 0, log = NULL WHERE log IS NOT NULL"
_INSERT_RECORD = "INSERT OR REPLACE INTO records (record_id, game, record, finished) VALUES (?, ?, ?, ?)"


TableRows = tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]]


def table_rows(table: LoggedTable) -> TableRows:
    """A table's row (the columns of ``tables`` but the deadline) and its seats' rows, as stored."""
    table_id = table.table_id
    row = (
        table_id,
        table.game,
        json.dumps(table.options_dict),
        table.turn_seconds,
        table.status,
        table.games,
        table.seed,
        json.dumps(sorted(table.rematch)),
        table.bot_delay_ms,
        table.record_id,
        *table.deal_columns(),
        table.owner,
        table.invite,
        table.hand_pause_ms,
        None if (ready := table.hand_ready) is None else json.dumps(ready),
        table.open_bot_seats,
        table.rated_kind,
        left_json(table.rated_left),
    )
    seats = tuple(
        (table_id, s.index, s.name, s.bot, s.auto, s.token, s.timeouts, s.level) for s in table.seats
    )
    return row, seats


def left_json(left: Mapping[int, tuple[str, str]]) -> str | None:
    """The ``rated_left`` column: ``[[seat, account, name], ...]`` by seat (``None``: nobody left).

    >>> left_json({2: ("bob", "Bob"), 0: ("ana", "Ana")}), left_json({})
    ('[[0, "ana", "Ana"], [2, "bob", "Bob"]]', None)
    """
    return json.dumps([[seat, *left[seat]] for seat in sorted(left)]) if left else None


def parsed_left(text: str | None) -> dict[int, tuple[str, str]]:
    """The ``rated_left`` column read back (:func:`left_json`'s inverse).

    >>> parsed_left('[[0, "ana", "Ana"]]'), parsed_left(None)
    ({0: ('ana', 'Ana')}, {})
    """
    return {} if text is None else {seat: (account, name) for seat, account, name in json.loads(text)}


class DurableLog:
    """A :class:`TableLog` writing through the journal; a table's unchanged rows are not rewritten."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._rows: dict[str, TableRows] = {}
        """Each table's rows as last written: ``changed()`` often changes nothing stored."""
        self._last: dict[str, tuple[int, list[Any], int]] = {}
        """Each table's last action written: its move, its row, the journal's batch count then."""

    def table(self, table: LoggedTable, *, stored: bool = False) -> None:
        table_id = table.table_id
        row, seats = table_rows(table)
        before = self._rows.get(table_id)
        self._rows[table_id] = (row, seats)
        if stored or before == (row, seats):
            return
        write = self.journal.write
        if before is None or before[0] != row:
            write(_UPSERT_TABLE, row)
        for i, seat in enumerate(seats):
            if before is None or before[1][i] != seat:
                write(_UPSERT_SEAT, seat)

    def table_removed(self, table_id: str) -> None:
        self._rows.pop(table_id, None)
        self._last.pop(table_id, None)
        for sql in _REMOVE_TABLE:
            self.journal.write(sql, (table_id,))

    def action(self, table_id: str, game: int, move: int, seat: int, action: Any, auto: bool) -> None:
        text = action_json(action)
        journal = self.journal
        if move == 0:  # a new game: the previous one's actions are in its record
            journal.write(_DROP_OLD_ACTIONS, (table_id, game))
        row = [table_id, game, move, seat, text, auto, None, None]
        journal.write(_INSERT_ACTION, row)
        self._last[table_id] = (move, row, journal.batches)

    def _queued_row(self, table_id: str, move: int) -> list[Any] | None:
        """The row of the table's action ``move`` if it is still queued (its columns can be filled in)."""
        last = self._last.get(table_id)
        if last is None or last[0] != move or last[2] != self.journal.batches:
            return None
        return last[1]

    def action_end(
        self, table_id: str, game: int, move: int, reply_to: CommandId | None, ends: SeatEnds
    ) -> None:
        text = ends_json(reply_to, ends)
        row = self._queued_row(table_id, move)
        if row is not None:
            row[_ENDS_COLUMN] = text  # the common case: in the action's own row, no second statement
        else:
            self.journal.write(_SET_ENDS, (text, table_id, game, move))

    def deadline(self, table_id: str, move: int, when: float) -> None:
        # The deadline of move ``move`` is stored with the action before it (the table's row holds a
        # game's first), so that an action and the turn it starts are one row.
        if move == 0:
            self.journal.write(_SET_DEADLINE, (when, move, table_id))
        elif (row := self._queued_row(table_id, move - 1)) is not None:
            row[_DEADLINE_COLUMN] = when
        else:
            self.journal.write(_SET_NEXT_DEADLINE, (when, table_id, move - 1, table_id))

    def session(self, session: LoggedSession) -> None:
        row = (session.token, session.player_id, session.name, session.epoch, session.account)
        self.journal.write(_UPSERT_SESSION, row)

    def session_gone(self, token: str) -> None:
        self.journal.write(_DROP_SESSION, (token,))

    def session_logs(self, sessions: Iterable[LoggedSession]) -> None:
        for session in sessions:
            if session.token is not None and session.log is not None and not session.folds:
                log = msgpack.packb(list(session.log))
                self.journal.write(_SET_SESSION_LOG, (session.seq, log, session.token))

    def logs_restored(self) -> None:
        """The stored logs are back in memory: forget them, so that a later crash cannot replay stale ones."""
        self.journal.write(_FORGET_SESSION_LOGS)

    def after_commit(self, callback: Callable[[], None]) -> None:
        self.journal.after_commit(callback)


class SQLiteRecordStore:
    """The :class:`~server.record_store.RecordStore` of a durable server: records live in the database.

    ``put`` queues the record with the game's last action, so both are committed before
    ``game_over`` (carrying the record's id) reaches anyone; ``get`` reads with the loop's own
    connection (WAL: never blocked by the writer).
    """

    def __init__(self, journal: Journal, reader: sqlite3.Connection) -> None:
        self._journal = journal
        self._reader = reader

    def put(self, record_id: str, record: GameRecord) -> None:
        params = (record_id, record.game, record.model_dump_json(), time.time())
        self._journal.write(_INSERT_RECORD, params)

    def get(self, record_id: str) -> GameRecord | None:
        row = self._reader.execute("SELECT record FROM records WHERE record_id = ?", (record_id,)).fetchone()
        return None if row is None else validated(json.loads(row[0]))
