"""The cluster's :class:`~boneyard.server.storage.store.TableLog`: each table's durable changes in its
JetStream journal, resume tokens in a key-value bucket.

What a single node writes to SQLite (the table's row and seats, each accepted action, the turn's
deadline, the removal) a cluster node appends to the table's
:class:`~boneyard.server.cluster.journal.TableJournal`, through the node's
:class:`~boneyard.server.cluster.writes.Writes`: a table's appends one after another (each names the
entry it follows: the fence), different tables' at once, and frames wait for JetStream's
acknowledgement, so nobody hears of an action before it is in the journal. A new table's first write
is its ownership record (:meth:`~boneyard.server.cluster.leases.LeaseBook.place`: nobody else may
write its journal). :func:`fold` turns a journal back into the
:class:`~boneyard.server.storage.store.StoredTable` the restore path takes, exactly what a restart
reads from SQLite. An append refused (:class:`~boneyard.server.cluster.journal.Fenced`: another node
took the table over) or failing makes the node drop the table at once (``lost``).

Entries are msgpack lists: ``["table", row, seats]`` (as :func:`~boneyard.server.storage.store.table_rows`),
``["action", game, move, seat, action JSON, auto]``, ``["deadline", move, wall time]``, ``["removed"]``,
``["batch", [entry, ...]]`` (entries appended at once: an action and its turn's deadline) and
``["rollup", [entry, ...]]``: the compaction a new game starts with (the row that counts the new
game is appended as a rollup: :func:`compacted`), which replaces every earlier entry of the table by
those it folds to, once the records written before it are stored (the finished game's among them).
A removed table's journal is purged, after the same wait.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import msgpack
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from boneyard.protocol.values import CommandId
from boneyard.server.cluster.directory import purge_key
from boneyard.server.cluster.journal import Entry, Fenced, TableJournal
from boneyard.server.cluster.leases import Lease, LeaseBook
from boneyard.server.cluster.writes import RECORDS, Writes
from boneyard.server.storage.crashlog import SeatEnds
from boneyard.server.storage.logged import LoggedSession, LoggedTable
from boneyard.server.storage.store import TableRows, parsed_left, table_rows
from boneyard.server.storage.stored import StoredSeat, StoredSession, StoredTable
from boneyard.server.wire import action_json

log = logging.getLogger("boneyard.cluster")

TOKENS_BUCKET = "boneyard-tokens"


class Observe(Protocol):
    def observe(self, amount: float) -> None: ...


class JournalLog:
    """Tables' changes to their journals, tokens to the tokens bucket (one per node)."""

    def __init__(
        self,
        js: JetStreamContext,
        writes: Writes,
        leases: LeaseBook,
        tokens: KeyValue,
        node: str,
        lost: Callable[[str, str], None],
    ) -> None:
        self._js = js
        self._writes = writes
        self.leases = leases
        self._tokens = tokens
        self._node = node
        self._lost = lost
        self.journals: dict[str, TableJournal] = {}
        self.held: dict[str, Lease] = {}
        """The tenures of the tables this node owns, by table id (their ownership records)."""
        self._rows: dict[str, TableRows] = {}
        self._dropped: set[str] = set()
        """Tables lost to another node: their appends still queued are refused here."""
        self._batches: dict[str, list[bytes]] = {}
        """Per table, the entries of its append queued and not yet on its way (more may join it)."""
        self.append_seconds: Observe | None = None

    def adopt(self, journal: TableJournal, lease: Lease) -> None:
        """A table taken over: its journal (replayed and claimed) and lease are this node's now."""
        self.journals[journal.table_id] = journal
        self.held[journal.table_id] = lease

    def forget(self, table_id: str, *, lost: bool = False) -> None:
        """The table is no longer this node's (``lost``, or handed over): nothing more is appended for it
        (what is still queued for a lost table is refused: nobody may hear of it)."""
        if lost:
            self._dropped.add(table_id)
        self.journals.pop(table_id, None)
        self.held.pop(table_id, None)
        self._rows.pop(table_id, None)
        self._batches.pop(table_id, None)

    # -- TableLog ------------------------------------------------------------------------------------------

    def table(self, table: LoggedTable, *, stored: bool = False) -> None:
        table_id = table.table_id
        rows = table_rows(table)
        before = self._rows.get(table_id)
        self._rows[table_id] = rows
        if stored or before == rows:
            return
        if table_id not in self.journals:
            self._open(table_id)
        new_game = before is not None and before[0][_GAMES] != rows[0][_GAMES]
        self._append(table_id, ["table", list(rows[0]), [list(seat) for seat in rows[1]]], rollup=new_game)

    def _open(self, table_id: str) -> None:
        """A new table: its journal, and first of all its lease."""
        self.journals[table_id] = TableJournal(self._js, table_id, [])

        async def place() -> None:
            try:
                lease = await self.leases.place(table_id)
            except Exception as error:  # no record: another node would take the table over
                self._lost(table_id, f"its ownership record could not be written: {error}")
                return
            if lease is None:
                self._lost(table_id, "another node owns it")
            else:
                self.held[table_id] = lease

        self._writes.write(place, table_id)

    def table_removed(self, table_id: str) -> None:
        if table_id not in self.journals:
            return
        self._append(table_id, ["removed"])
        journal, lease = self.journals.pop(table_id), self.held.pop(table_id, None)
        self._rows.pop(table_id, None)
        self._batches.pop(table_id, None)

        async def release() -> None:
            await journal.remove()
            if lease is not None:
                await self.leases.release(lease)

        self._writes.write(release, table_id, after=RECORDS)  # after its last record is stored

    def action(self, table_id: str, game: int, move: int, seat: int, action: Any, auto: bool) -> None:
        self._append(table_id, ["action", game, move, seat, action_json(action), auto])

    def action_end(
        self, table_id: str, game: int, move: int, reply_to: CommandId | None, ends: SeatEnds
    ) -> None:
        pass  # a player resumes through a node by snapshot (the home keeps the seq), never by replay

    def deadline(self, table_id: str, move: int, when: float) -> None:
        self._append(table_id, ["deadline", move, when])

    def session(self, session: LoggedSession) -> None:
        # The account too: whoever resumes the token through another node, or that node taking the table
        # over, is still signed in (a rated table rates the account, and seats no guest).
        data = msgpack.packb([session.player_id, session.name, self._node, session.account])
        token = session.token
        if token is None:
            return

        async def put() -> None:
            await self._tokens.put(token, data)

        self._writes.write(put, f"token {token}")

    def session_gone(self, token: str) -> None:
        async def delete() -> None:
            # Purged, not deleted: nobody watches the tokens, and a delete marker would stay for ever.
            await purge_key(self._js, TOKENS_BUCKET, token)

        self._writes.write(delete, f"token {token}")

    def session_logs(self, sessions: Iterable[LoggedSession]) -> None:
        pass  # a stopping node's players resume through another node, with snapshots

    def after_commit(self, callback: Callable[[], None]) -> None:
        self._writes.after_commit(callback)

    def _append(self, table_id: str, entry: list[Any], *, rollup: bool = False) -> None:
        """Append ``entry`` to the table's journal; a ``rollup`` replaces what went before by what it
        folds to, once the records written before it are stored.

        Entries made while the table's last append is still queued go with it, in one append (an
        action and its turn's deadline: one JetStream round trip, not two); the frames that wait
        for any of them wait for that append."""
        journal = self.journals.get(table_id)
        if journal is None:
            return  # the table is no longer this node's
        data: bytes = msgpack.packb(entry)
        if rollup:
            self._batches.pop(table_id, None)  # what comes after it goes after it
            batch = [data]
        else:
            queued = self._batches.get(table_id)
            if queued is not None:
                queued.append(data)
                return
            batch = self._batches[table_id] = [data]

        async def append() -> bool:
            if self._batches.get(table_id) is batch:
                del self._batches[table_id]  # on its way: later entries go in another append
            if table_id in self._dropped:
                return False  # lost meanwhile: nothing more for it, nor what follows
            started = time.perf_counter()
            try:
                if rollup:
                    await journal.append(compacted(journal.entries, data), rollup=True)
                else:
                    await journal.append(batch[0] if len(batch) == 1 else msgpack.packb(["batch", batch]))
            except Fenced:
                self._lost(table_id, "another node appended to its journal (fenced)")
                return False
            except Exception as error:
                self._lost(table_id, f"its journal append failed: {error or type(error).__name__}")
                return False
            if self.append_seconds is not None:
                self.append_seconds.observe(time.perf_counter() - started)
            return True

        self._writes.write(append, table_id, after=RECORDS if rollup else None)


def token_entry(value: bytes) -> tuple[str, str, str, str | None]:
    """A resume token's entry in the tokens bucket: the player's id, name, home node and account
    (``None``: a guest, or an entry written before accounts were kept there).

    >>> token_entry(msgpack.packb(["p1-x", "ana", "n0"]))
    ('p1-x', 'ana', 'n0', None)
    """
    player_id, name, home, *rest = msgpack.unpackb(value)
    return player_id, name, home, rest[0] if rest else None


async def stored_sessions(
    tokens: KeyValue, table: StoredTable
) -> tuple[dict[str, StoredSession], dict[str, str]]:
    """The sessions holding the table's seats, from the tokens bucket, and each player's home node."""
    sessions: dict[str, StoredSession] = {}
    homes: dict[str, str] = {}
    for seat in table.seats:
        if seat.token is None:
            continue
        try:
            entry = await tokens.get(seat.token)
        except Exception:  # the token is gone (given up): the seat is restored as given up
            continue
        if entry.value is None:
            continue
        player_id, name, home, account = token_entry(entry.value)
        # An empty log, not none: a takeover is no crash of the player's node, whose session numbering
        # goes on (a crash's renumbering would restart a live connection's seq).
        sessions[seat.token] = StoredSession(seat.token, player_id, name, 0, (), account=account)
        homes[player_id] = home
    return sessions, homes


_GAMES = 5
"""The games played, in a table's row (:func:`~boneyard.server.storage.store.table_rows`)."""


class _Folded:
    """What a journal's entries come to so far: the latest row and deadline, the current game's actions
    (each as the bytes it was appended as), or removed."""

    def __init__(self) -> None:
        self.table: bytes | None = None
        self.deadline: bytes | None = None
        self.actions: list[tuple[int, bytes]] = []
        self.removed = False

    def step(self, raw: bytes) -> None:
        data = msgpack.unpackb(raw)
        kind = data[0]
        if kind == "table":
            self.table = raw
        elif kind == "action":
            if data[2] == 0:  # move 0: a new game; the previous one's actions are in its record
                self.actions = []
            self.actions.append((data[1], raw))
        elif kind == "deadline":
            self.deadline = raw
        elif kind == "removed":
            self.removed = True
        elif kind == "rollup":
            self.__init__()  # type: ignore[misc]  # everything before it is in it
            for part in data[1]:
                self.step(part)
        elif kind == "batch":  # entries made while the one before was on its way
            for part in data[1]:
                self.step(part)

    def games(self) -> int | None:
        return None if self.table is None else int(msgpack.unpackb(self.table)[1][_GAMES])

    def game_actions(self) -> list[bytes]:
        """The actions of the game the row counts (a restore replays them)."""
        games = self.games()
        return [raw for game, raw in self.actions if game == games]

    def current(self) -> list[bytes]:
        """The entries that fold to the same table."""
        return [raw for raw in (self.table, self.deadline) if raw is not None] + self.game_actions()


def _folded(entries: Iterable[Entry]) -> _Folded:
    folded = _Folded()
    for entry in entries:
        if entry.kind == "action":  # else a claim: a change of owner
            folded.step(entry.data)
    return folded


def compacted(entries: Sequence[Entry], last: bytes) -> bytes:
    """One entry that folds as ``entries`` and then ``last`` do: a rollup of the latest row and seats,
    the latest deadline and the current game's actions.

    >>> entry = lambda *data: Entry(0, "action", msgpack.packb(list(data)))
    >>> row = lambda games: ["t1", "moon", "{}", 60, "playing", games, *[None] * 15]
    >>> journal = [entry("table", row(1), []), entry("action", 1, 0, 0, "{}", False)]
    >>> journal.append(entry("deadline", 1, 9.5))
    >>> rollup = compacted(journal, msgpack.packb(["table", row(2), []]))
    >>> [msgpack.unpackb(part)[0] for part in msgpack.unpackb(rollup)[1]]
    ['table', 'deadline']
    """
    folded = _folded(entries)
    folded.step(last)
    return msgpack.packb(["rollup", folded.current()])  # type: ignore[no-any-return]


def fold(entries: Sequence[Entry]) -> StoredTable | None:
    """The table a journal describes, as a restart would read it (``None``: removed, or never written)."""
    folded = _folded(entries)
    if folded.removed or folded.table is None:
        return None
    _, row, seats = msgpack.unpackb(folded.table)
    deadline = None if folded.deadline is None else tuple(msgpack.unpackb(folded.deadline)[1:])
    actions = [msgpack.unpackb(raw) for raw in folded.game_actions()]
    (table_id, game, options, turn_seconds, status, games, seed, rematch, bot_delay_ms, record_id) = row[:10]
    deal_algorithm, player_seeds, dealt, owner, invite, hand_pause_ms, hand_ready = row[10:17]
    open_bot_seats = bool(row[17]) if len(row) > 17 else False  # written before feature bot_seats: none
    rated = row[18] if len(row) > 18 else None
    rated_left = parsed_left(row[19] if len(row) > 19 else None)  # written before it was stored: nobody
    return StoredTable(
        table_id=table_id,
        game=game,
        options=json.loads(options),
        turn_seconds=turn_seconds,
        status=status,
        games=games,
        seed=seed,
        rematch=json.loads(rematch),
        deadline=deadline[1] if deadline else None,
        deadline_move=deadline[0] if deadline else None,
        seats=[StoredSeat(s[1], s[2], bool(s[3]), bool(s[4]), s[5], s[6], s[7]) for s in seats],
        actions=[(seat, json.loads(action), auto) for _, _, _, seat, action, auto in actions],
        bot_delay_ms=bot_delay_ms,
        record_id=record_id,
        deal_algorithm=deal_algorithm,
        player_seeds=player_seeds,
        dealt=bool(dealt),
        owner=owner,
        invite=invite,
        hand_pause_ms=hand_pause_ms,
        hand_ready=None if hand_ready is None else json.loads(hand_ready),
        open_bot_seats=open_bot_seats,
        rated=rated,
        rated_left=rated_left,
    )
