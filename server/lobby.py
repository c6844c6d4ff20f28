"""The lobby: every table and session on the server, and the pushes that keep clients' table lists current.

"In the lobby" means identified, connected, and neither seated nor watching anywhere: those
sessions get ``lobby_changed`` every ``lobby_push_seconds`` while tables change: every table
created or changed since the last push, in its latest state, and the ids of those removed, in one
message (more only when they would not fit one frame), encoded once for all of them. A session at a
table gets ``table_updated``/``table_removed`` for its own tables only, at once (and may
``list_tables`` any time).

Why batches: a message per table per lobby session costs tables x sessions frames. While
thousands of players join (300 tables a second, hundreds of players waiting to sit), that was
most of the server's work, and the slower it went the longer players waited in the lobby, getting
still more pushes; a batch costs one frame per session per push.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import msgpack

from boneyard.protocol import SERVER_LIMITS, CreateMoonTable, CreateStraightTable, TableCreated
from boneyard.protocol.values import CommandId, cleaned_name
from boneyard.server.botrunner import BotRunner
from boneyard.server.errors import CommandError
from boneyard.server.games.registry import GAMES, GameSpec
from boneyard.server.host import Cancellable, Clock
from boneyard.server.logs import ids
from boneyard.server.metrics import Metrics
from boneyard.server.quota import TableQuota
from boneyard.server.record_bodies import RecordBodies
from boneyard.server.records import RecordStore
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.spectators import SpectatorChat
from boneyard.server.storage.store import NO_LOG, StoredSession, TableLog, id_number
from boneyard.server.table import Table
from boneyard.server.wire import array_header, body_of, body_of_dict

log = logging.getLogger("boneyard.lobby")

# Pushes are a fixed head followed by the table's cached encoding (the head ends where "table" starts).
_TABLE_UPDATED = body_of_dict({"type": "table_updated", "seq": 1, "table": None})[:-1]
_LOBBY_CHANGED = body_of_dict({"type": "lobby_changed", "seq": 1, "tables": None, "removed": None})[:-10]
"""The head of ``lobby_changed``, up to where ``tables`` goes (the ``None`` of ``tables``, ``"removed"``
and its ``None`` are the last 10 bytes)."""

_LIST_BYTES = SERVER_LIMITS.max_frame_bytes - 1024
"""A ``table_list`` stays within what clients decode; beyond it the newest running tables are left out."""
_MAX_ITEMS = SERVER_LIMITS.max_array_len
"""A ``lobby_changed`` holds at most this many tables, and as many removed ids."""


class Lobby:
    """Tables by id, sessions by token, and the sessions in the lobby: the tables'
    :class:`~boneyard.server.host.TableHost`."""

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        records: RecordStore,
        clock: Clock,
        table_log: TableLog = NO_LOG,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.records = records
        self.clock = clock
        self.bots: BotRunner | None = None
        """Where searching bots think, off the loop (set by the server; ``None``: inline)."""
        self.table_log = table_log
        """Where tables, seats, tokens and actions are written ahead (``boneyard.server.storage``)."""
        self.tables: dict[str, Table] = {}
        self.idle: set[Session] = set()
        """Connected sessions at no table: they get every table's changes."""
        self.by_token: dict[str, Session] = {}
        self.stopping = False
        self._pending: dict[str, str] = {}
        """Table changes not yet pushed to the lobby, by table id: ``updated`` or ``removed``."""
        self._push_timer: Cancellable | None = None
        self._table_ids = itertools.count(1)
        self._player_ids = itertools.count(1)
        self._run = run_tag()
        """This run's tag in every table and player id: a restarted server numbers from 1 again, and
        a client holding an old id must not land on a different table (issue #15, item 8)."""
        self.spectator_chat = SpectatorChat(settings.spectator_chat_per_minute)
        self._spectated: set[str] = set()
        """Tables whose spectator count changed since the last coalesced push."""
        self._spectated_timer: Cancellable | None = None
        self.record_bodies = RecordBodies(records.get, on_encode=metrics.records_encoded.inc)
        """``get_record`` replies, each record encoded once."""
        self.quota = TableQuota(
            per_session=settings.tables_per_session,
            per_address=settings.tables_per_address,
            bots_per_session=settings.bot_tables_per_session,
            bots_max=settings.max_bot_tables,
        )

    # -- sessions -------------------------------------------------------------------------------------

    def new_session(self, name: str) -> Session:
        return Session(f"p{next(self._player_ids)}-{self._run}", name, self.settings.resume_buffer_frames)

    def restore_session(self, stored: StoredSession) -> Session:
        """A stored session holding seats and a token, with its message log if the server stopped
        gracefully (without one, its first resume gets snapshots)."""
        session = Session(stored.player_id, cleaned_name(stored.name), self.settings.resume_buffer_frames)
        session.token = stored.token
        if stored.log is not None:
            session.start_log()
            assert session.log is not None
            session.log.extend(stored.log)
            session.seq = stored.seq
        self.by_token[stored.token] = session
        return session

    def token_for(self, session: Session) -> str:
        """The session's secret resume token, made when it first sits down (``secrets``: unguessable)."""
        if session.token is None:
            session.token = secrets.token_urlsafe(24)
            self.by_token[session.token] = session
            session.start_log()
            self.table_log.session(session)
        return session.token

    def forget(self, session: Session) -> None:
        """The session is over: its token no longer resumes anything."""
        session.cancel_timer()
        if session.token is not None:
            self.by_token.pop(session.token, None)
            self.table_log.session_gone(session.token)
        self.idle.discard(session)

    def session_dropped(self, session: Session) -> None:
        """A session's connection closed: it stops watching; its seats wait ``grace_seconds`` for a resume."""
        session.client = None
        self.idle.discard(session)
        for place, seat in list(session.tables.items()):
            if seat is None:
                place.abandon(session)
        seats = session.seats()
        if not seats:
            self.forget(session)
            return
        for table, seat in seats:
            table.seat_disconnected(seat)
        session.timer = self.clock.call_later(self.settings.grace_seconds, partial(self._grace_over, session))

    def _grace_over(self, session: Session) -> None:
        # Away past the grace period: the server plays for them until they come back or expire.
        for table, seat in session.seats():
            table.seat_away(seat)
        session.timer = self.clock.call_later(self.settings.session_seconds, partial(self._expired, session))

    def _expired(self, session: Session) -> None:
        session.timer = None
        log.info("session expired", extra=ids(player_id=session.player_id))
        for table in list(session.tables):
            table.abandon(session)
        self.forget(session)

    def enter_lobby(self, session: Session) -> None:
        """A connected session at no table is in the lobby (it gets the lobby's pushes)."""
        if session.client is not None and not session.tables:
            self.idle.add(session)

    def at_table(self, session: Session) -> None:
        self.idle.discard(session)

    def left_table(self, session: Session) -> None:
        self.enter_lobby(session)

    # -- tables ---------------------------------------------------------------------------------------

    def new_record_id(self) -> str:
        return "r" + secrets.token_urlsafe(12)

    def continue_ids(self, table_ids: Sequence[str], player_ids: Sequence[str]) -> None:
        """After a restore: new table and player ids start past the restored ones (of this run's tag;
        other runs' ids cannot collide with this one's anyway)."""
        mine = f"-{self._run}"
        tables = (id_number(i) for i in table_ids if i.endswith(mine))
        players = (id_number(i) for i in player_ids if i.endswith(mine))
        self._table_ids = itertools.count(1 + max(tables, default=0))
        self._player_ids = itertools.count(1 + max(players, default=0))

    def create_table(
        self,
        session: Session,
        command: CreateMoonTable | CreateStraightTable,
        reply_to: CommandId | None,
        host: str = "",
    ) -> Table:
        """``create_table``: the table, its bots, and the creator's seat if asked (``host``: the creator's
        address, for the per-address quota)."""
        settings = self.settings
        if self.stopping:
            raise CommandError("unavailable", "the server is shutting down")
        if len(self.tables) >= settings.max_tables:
            raise CommandError("unavailable", f"the server is full ({settings.max_tables} tables)")
        spec = GAMES[command.game]
        bots_only = command.seat is None and len(command.bots) == command.players
        self.quota.check(session.player_id, host, bots_only=bots_only)
        try:
            options = spec.options_from_dict(command.options.model_dump())
        except (TypeError, ValueError) as error:
            raise CommandError("invalid_options", str(error)) from None
        turn_seconds = command.turn_seconds
        if "turn_seconds" not in command.model_fields_set:
            turn_seconds = settings.turn_seconds
        if turn_seconds is None and not settings.allow_untimed_tables:
            raise CommandError("invalid_options", "this server requires a turn timer")
        invite = secrets.token_urlsafe(18) if command.private else None
        table = self.open_table(
            spec,
            options,
            turn_seconds,
            command.bots,
            bot_levels=command.bot_levels,
            bot_delay_ms=command.bot_delay_ms,
            hand_pause_ms=command.hand_pause_ms,
            owner=session.player_id,
            invite=invite,
        )
        self.quota.add(table.table_id, session.player_id, host, bots_only=bots_only)
        reply = TableCreated(
            type="table_created", seq=1, reply_to=reply_to, table=table.info(), invite=table.invite
        )
        session.deliver(body_of(reply))
        log.info("table created", extra=ids(table_id=table.table_id, player_id=session.player_id))
        if command.seat is not None:
            table.join(session, command.seat, None)
        elif not table.maybe_start():
            self.remove_if_left_empty(table)
        return table

    def remove_if_left_empty(self, table: Table) -> None:
        """In ``empty_table_seconds``, remove the table if nobody sits at it or watches it by then."""
        remove = partial(self._remove_if_empty, table.table_id)
        self.clock.call_later(self.settings.empty_table_seconds, remove)

    def _remove_if_empty(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and not self.stopping and table.removed_if_empty():
            log.info("empty table removed", extra=ids(table_id=table_id))

    def open_table(
        self,
        spec: GameSpec,
        options: Any,
        turn_seconds: int | None,
        bots: Sequence[int] = (),
        table_id: str | None = None,
        bot_delay_ms: int | None = None,
        owner: str | None = None,
        invite: str | None = None,
        bot_levels: Sequence[str] = (),
        hand_pause_ms: int | None = None,
    ) -> Table:
        """A new table in the lobby, written down; ``table_id``: a restored table, already stored (it is
        noted once it is whole, by :meth:`Table.restored`)."""
        restoring = table_id is not None
        table_id = table_id or f"t{next(self._table_ids)}-{self._run}"
        table = Table(self, table_id, spec, options, turn_seconds, bots, bot_levels)
        table.bot_delay_ms, table.owner, table.invite = bot_delay_ms, owner, invite
        table.hand_pause_ms = hand_pause_ms
        self.tables[table.table_id] = table
        if not restoring:
            self.table_log.table(table)
        self._note(table.table_id, "updated")
        return table

    def table_changed(self, table: Table) -> None:
        """Push ``table_updated`` to everyone at the table now, and to the lobby soon."""
        if table.table_id not in self.tables:
            return
        self._tell_table(table)
        self._note(table.table_id, "updated")

    @staticmethod
    def _tell_table(table: Table) -> None:
        body = _TABLE_UPDATED + table.info_packed()
        for session, _ in table.listeners():
            session.deliver(body)

    def spectators_changed(self, table: Table) -> None:
        """A spectator came or went: everyone at the table hears the new count within
        ``lobby_push_seconds``, once for all the joins and leaves in between (each one pushed at once
        to everyone cost spectators x spectators frames)."""
        self._note(table.table_id, "updated")  # the lobby's pushes are coalesced already
        self._spectated.add(table.table_id)
        if self._spectated_timer is None:
            self._spectated_timer = self.clock.call_later(self.settings.lobby_push_seconds, self._push_counts)

    def _push_counts(self) -> None:
        self._spectated_timer = None
        changed, self._spectated = self._spectated, set()
        for table_id in changed:
            table = self.tables.get(table_id)
            if table is not None:
                self._tell_table(table)

    def remove_table(self, table: Table) -> None:
        if self.tables.pop(table.table_id, None) is None:
            return
        self.quota.removed(table.table_id)
        self.spectator_chat.forget(table.table_id)
        members = table.clear()
        self.table_log.table_removed(table.table_id)
        body = _removed_body(table.table_id)
        self._note(table.table_id, "removed")
        for session in members:
            session.deliver(body)
            self.enter_lobby(session)
        log.info("table removed", extra=ids(table_id=table.table_id))

    def _note(self, table_id: str, change: str) -> None:
        """Remember a change for the next lobby push; changes to one table in between merge into one."""
        self._pending[table_id] = change  # "removed" overrides "updated"; "updated" cannot follow it
        if self._push_timer is None:
            self._push_timer = self.clock.call_later(self.settings.lobby_push_seconds, self._push)

    def _push(self) -> None:
        """Send the lobby the pending changes: each changed table once, in its latest state, in as few
        ``lobby_changed`` messages as fit the frame size (one, unless thousands changed)."""
        self._push_timer = None
        pending, self._pending = self._pending, {}
        if not self.idle:
            return
        tables: list[bytes] = []
        removed: list[str] = []
        bodies: list[bytes] = []
        size = 0
        for table_id, change in pending.items():
            table = self.tables.get(table_id)
            if change == "removed" or table is None:
                removed.append(table_id)
                size += len(table_id) + 2
            else:
                packed = table.info_packed()
                tables.append(packed)
                size += len(packed)
            if size > _LIST_BYTES or len(tables) >= _MAX_ITEMS or len(removed) >= _MAX_ITEMS:
                bodies.append(_lobby_changed(tables, removed))
                tables, removed, size = [], [], 0
        if tables or removed:
            bodies.append(_lobby_changed(tables, removed))
        for session in self.idle:
            for body in bodies:
                session.deliver(body)

    def table_list_body(self, reply_to: CommandId | None) -> bytes:
        """``table_list``, assembled from each table's cached encoding (waiting tables first)."""
        ordered = sorted(self.tables.values(), key=lambda t: t.status != "waiting")
        parts: list[bytes] = []
        size = 0
        for table in ordered[: SERVER_LIMITS.max_array_len]:
            packed = table.info_packed()
            size += len(packed)
            if size > _LIST_BYTES:
                break
            parts.append(packed)
        head = body_of_dict({"type": "table_list", "seq": 1, "reply_to": reply_to, "tables": []})
        return head[:-1] + array_header(len(parts)) + b"".join(parts)

    def table_counts(self) -> Iterable[tuple[str, str, int]]:
        counts = Counter((t.spec.name, t.status) for t in self.tables.values())
        for game in GAMES:
            for status in ("waiting", "playing", "finished"):
                yield game, status, counts.get((game, status), 0)

    def stop(self) -> None:
        """No new tables or seats; every table's timer stops (no bot moves during shutdown)."""
        self.stopping = True
        for table in self.tables.values():
            table.stop()
        if self.bots is not None:
            self.bots.close()


def run_tag() -> str:
    """A random tag for one run of the server: 8 characters of ``a-z0-9`` (41 bits).

    >>> tag = run_tag(); len(tag), tag.isalnum(), tag == tag.lower()
    (8, True, True)
    """
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def _lobby_changed(tables: list[bytes], removed: list[str]) -> bytes:
    """A ``lobby_changed`` body from tables' cached encodings and removed ids.

    >>> from boneyard.protocol import decode_server_message
    >>> from boneyard.server.wire import stamp
    >>> info = {"table_id": "t1", "game": "moon", "options": {"all_pass": "redeal", "target": 21},
    ...         "seats": [{"seat": s, "name": None, "bot": False, "connected": False, "auto": False}
    ...                   for s in range(3)],
    ...         "status": "waiting", "turn_seconds": 30, "spectators": 0, "rematch": []}
    >>> message = decode_server_message(stamp(_lobby_changed([msgpack.packb(info)], ["t0"]), 5))
    >>> message.seq, [t.table_id for t in message.tables], message.removed
    (5, ['t1'], ('t0',))
    """
    packed_ids: bytes = msgpack.packb(removed)
    return b"".join((_LOBBY_CHANGED, array_header(len(tables)), *tables, b"\xa7removed", packed_ids))


def _removed_body(table_id: str) -> bytes:
    return body_of_dict({"type": "table_removed", "seq": 1, "table_id": table_id})
