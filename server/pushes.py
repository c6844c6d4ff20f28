"""The lobby's messages about tables: batched pushes to the lobby, ``table_updated``, ``table_list``.

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

from collections.abc import Callable, Iterable, Mapping, Set
from typing import Protocol

import msgpack

from boneyard.protocol import SERVER_LIMITS
from boneyard.protocol.values import CommandId
from boneyard.server.host import Cancellable, Clock
from boneyard.server.seats import Listener
from boneyard.server.session import Session
from boneyard.server.wire import array_header, body_of_dict

# Pushes are a fixed head followed by the table's cached encoding (the head ends where "table" starts).
_TABLE_UPDATED = body_of_dict({"type": "table_updated", "seq": 1, "table": None})[:-1]
_LOBBY_CHANGED = body_of_dict({"type": "lobby_changed", "seq": 1, "tables": None, "removed": None})[:-10]
"""The head of ``lobby_changed``, up to where ``tables`` goes (the ``None`` of ``tables``, ``"removed"``
and its ``None`` are the last 10 bytes)."""

_LIST_BYTES = SERVER_LIMITS.max_frame_bytes - 1024
"""A ``table_list`` stays within what clients decode; beyond it the newest running tables are left out."""
_MAX_ITEMS = SERVER_LIMITS.max_array_len
"""A ``lobby_changed`` holds at most this many tables, and as many removed ids."""


class Listed(Protocol):
    """A table as the lobby's messages see it (``boneyard.server.table.Table``)."""

    @property
    def table_id(self) -> str: ...
    @property
    def status(self) -> str: ...

    def info_packed(self) -> bytes:
        """The table's ``TableInfo``, encoded (cached until it changes)."""
        ...

    def listeners(self) -> list[Listener]: ...


class RemoteTables(Protocol):
    """The other nodes' tables, on a cluster node (``boneyard.server.cluster.mirror.LobbyMirror``)."""

    def get(self, table_id: str) -> Listed | None:
        """Another node's table (``None``: not another node's)."""
        ...

    def listed(self) -> list[Listed]:
        """Every other node's table."""
        ...


class LobbyPushes:
    """Table changes, pushed coalesced: to the lobby's sessions (``idle``) every ``seconds`` at most,
    and spectator counts to the table's members; a table's other changes to its members at once."""

    __slots__ = (
        "_pending",
        "_push_timer",
        "_spectated",
        "_spectated_timer",
        "clock",
        "idle",
        "on_note",
        "remote",
        "seconds",
        "tables",
    )

    def __init__(
        self, clock: Clock, seconds: float, tables: Mapping[str, Listed], idle: Set[Session]
    ) -> None:
        self.clock = clock
        self.seconds = seconds
        self.tables = tables
        self.idle = idle
        self._pending: dict[str, str] = {}
        """Table changes not yet pushed to the lobby, by table id: ``updated`` or ``removed``."""
        self._push_timer: Cancellable | None = None
        self._spectated: set[str] = set()
        """Tables whose spectator count changed since the last coalesced push."""
        self._spectated_timer: Cancellable | None = None
        self.remote: RemoteTables | None = None
        """On a cluster node: the other nodes' tables, pushed like this node's own."""
        self.on_note: Callable[[str], None] | None = None
        """On a cluster node: told of each change of one of this node's tables (for the directory)."""

    def table_changed(self, table: Listed) -> None:
        """Push ``table_updated`` to everyone at the table now, and to the lobby soon."""
        if table.table_id not in self.tables:
            return
        self.tell_table(table)
        self.note(table.table_id, "updated")

    @staticmethod
    def tell_table(table: Listed) -> None:
        body = _TABLE_UPDATED + table.info_packed()
        for session, _ in table.listeners():
            session.deliver(body)

    def spectators_changed(self, table: Listed) -> None:
        """A spectator came or went: everyone at the table hears the new count within
        ``lobby_push_seconds``, once for all the joins and leaves in between (each one pushed at once
        to everyone cost spectators x spectators frames)."""
        self.note(table.table_id, "updated")  # the lobby's pushes are coalesced already
        self._spectated.add(table.table_id)
        if self._spectated_timer is None:
            self._spectated_timer = self.clock.call_later(self.seconds, self._push_counts)

    def _push_counts(self) -> None:
        self._spectated_timer = None
        changed, self._spectated = self._spectated, set()
        for table_id in changed:
            table = self.tables.get(table_id)
            if table is not None:
                self.tell_table(table)

    def note(self, table_id: str, change: str) -> None:
        """Remember a change of this node's table for the next lobby push; changes to one table in
        between merge into one."""
        if self.on_note is not None:
            self.on_note(table_id)
        self.note_remote(table_id, change)

    def note_remote(self, table_id: str, change: str) -> None:
        """Remember a change of any table (another node's too) for the next lobby push."""
        self._pending[table_id] = change  # "removed" overrides "updated"; "updated" cannot follow it
        if self._push_timer is None:
            self._push_timer = self.clock.call_later(self.seconds, self._push)

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
        remote = self.remote
        for table_id, change in pending.items():
            table = self.tables.get(table_id)
            if table is None and remote is not None:
                table = remote.get(table_id)
            if change == "removed" or table is None:
                removed.append(table_id)
                size += len(table_id) + 2
            else:
                packed = table.info_packed()
                tables.append(packed)
                size += len(packed)
            if size > _LIST_BYTES or len(tables) >= _MAX_ITEMS or len(removed) >= _MAX_ITEMS:
                bodies.append(lobby_changed_body(tables, removed))
                tables, removed, size = [], [], 0
        if tables or removed:
            bodies.append(lobby_changed_body(tables, removed))
        for session in self.idle:
            for body in bodies:
                session.deliver(body)


def table_list_body(tables: Iterable[Listed], reply_to: CommandId | None) -> bytes:
    """``table_list``, assembled from each table's cached encoding (waiting tables first)."""
    ordered = sorted(tables, key=lambda t: t.status != "waiting")
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


def lobby_changed_body(tables: list[bytes], removed: list[str]) -> bytes:
    """A ``lobby_changed`` body from tables' cached encodings and removed ids.

    >>> from boneyard.protocol import decode_server_message
    >>> from boneyard.server.wire import stamp
    >>> info = {"table_id": "t1", "game": "moon", "options": {"all_pass": "redeal", "target": 21},
    ...         "seats": [{"seat": s, "name": None, "bot": False, "connected": False, "auto": False}
    ...                   for s in range(3)],
    ...         "status": "waiting", "turn_seconds": 30, "spectators": 0, "rematch": []}
    >>> message = decode_server_message(stamp(lobby_changed_body([msgpack.packb(info)], ["t0"]), 5))
    >>> message.seq, [t.table_id for t in message.tables], message.removed
    (5, ['t1'], ('t0',))
    """
    packed_ids: bytes = msgpack.packb(removed)
    return b"".join((_LOBBY_CHANGED, array_header(len(tables)), *tables, b"\xa7removed", packed_ids))


def removed_body(table_id: str) -> bytes:
    return body_of_dict({"type": "table_removed", "seq": 1, "table_id": table_id})
