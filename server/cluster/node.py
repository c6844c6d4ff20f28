"""One node of a Boneyard cluster: its NATS connection, the cluster-wide lobby, routing and records.

Placement: a table lives on the node that created it (the creator's node: nothing to route for the
creator). The owner holds it exactly as a single node does; every other node knows it from the table
directory (:class:`~boneyard.server.cluster.directory.Directory`, bucket ``boneyard-tables``: the
table's public description, the bytes ``table_info`` encodes, and its owner), lists it and pushes
its changes to its own lobby like a local table's. A command naming a table owned elsewhere is
forwarded to the owner, which handles it for a relay session (:mod:`boneyard.server.cluster.relay`).

Finished records go to the key-value bucket ``boneyard-records`` before ``game_over`` reaches anyone
(through :class:`~boneyard.server.cluster.writes.Writes`), so ``get_record`` answers on every node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import msgpack
import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError, KeyNotFoundError
from nats.js.kv import KeyValue

from boneyard.protocol import Identify, ProtocolError, encode
from boneyard.protocol.codec import HotAct, decode_hot
from boneyard.protocol.values import CommandId
from boneyard.server.cluster.directory import Directory
from boneyard.server.cluster.journal import ensure_stream
from boneyard.server.cluster.leases import LeaseBook
from boneyard.server.cluster.relay import (
    BODY,
    COMMAND,
    CONTROL,
    PLACES,
    RELAYED,
    Bus,
    Item,
    RelayLink,
    RelaySession,
    RemotePlace,
    inbox,
    outbox,
)
from boneyard.server.cluster.tablelog import JournalLog
from boneyard.server.cluster.takeover import Ownership
from boneyard.server.cluster.writes import Writes
from boneyard.server.pushes import Listed
from boneyard.server.records import GameRecord, MemoryRecordStore, validated
from boneyard.server.seats import Listener
from boneyard.server.session import Session
from boneyard.server.storage.stored import StoredSession
from boneyard.server.wire import error_body

if TYPE_CHECKING:
    from boneyard.server.commands import Commands, Link
    from boneyard.server.lobby import Lobby
    from boneyard.server.metrics import ClusterMetrics
    from boneyard.server.table import Table

log = logging.getLogger("boneyard.cluster")

TABLES_BUCKET = "boneyard-tables"
RECORDS_BUCKET = "boneyard-records"
TOKENS_BUCKET = "boneyard-tokens"
NODES_BUCKET = "boneyard-nodes"
REHOME = "boneyard.rehome"
"""A player resumed through another node: ``[player_id, new home]`` to every node."""
DIRECTORY_SECONDS = 0.05
"""A table's changes reach the directory within this (several changes in between: one write)."""


async def _nats_error(error: Exception) -> None:
    log.warning("NATS: %s", error or type(error).__name__)


async def _disconnected() -> None:
    log.warning("disconnected from NATS: reconnecting")


async def _reconnected() -> None:
    log.warning("reconnected to NATS")


async def _bucket(js: JetStreamContext, name: str) -> KeyValue:
    try:
        return await js.key_value(name)
    except BucketNotFoundError:
        return await js.create_key_value(bucket=name, history=1)


@dataclass(frozen=True, slots=True)
class RemoteTable:
    """Another node's table as the directory lists it (a :class:`~boneyard.server.pushes.Listed`)."""

    table_id: str
    owner: str
    status: str
    packed: bytes

    def info_packed(self) -> bytes:
        return self.packed

    def listeners(self) -> list[Listener]:
        return []  # its members are the owner's to tell


class ClusterRecords:
    """The records of a cluster node: kept in memory here, and written to the records bucket."""

    def __init__(self, bucket: KeyValue, writes: Writes, limit: int) -> None:
        self._bucket = bucket
        self._writes = writes
        self.local = MemoryRecordStore(limit)

    def put(self, record_id: str, record: GameRecord) -> None:
        self.local.put(record_id, record)
        data: bytes = msgpack.packb(record.model_dump())

        async def write() -> None:
            await self._bucket.put(record_id, data)

        self._writes.write(write)

    def get(self, record_id: str) -> GameRecord | None:
        return self.local.get(record_id)

    async def fetch(self, record_id: str) -> GameRecord | None:
        """A record finished on another node, from the bucket (then kept here too)."""
        try:
            entry = await self._bucket.get(record_id)
        except KeyNotFoundError:
            return None
        if entry.value is None:
            return None
        record = validated(msgpack.unpackb(entry.value))
        self.local.put(record_id, record)
        return record


class ClusterNode:
    """This node's part in the cluster (``connect``, then ``attach`` the lobby and commands)."""

    def __init__(
        self,
        name: str,
        nc: NATS,
        tables: Directory,
        records: ClusterRecords,
        writes: Writes,
        leases: LeaseBook,
        tokens: KeyValue,
        ttl: float,
        nodes: KeyValue,
    ) -> None:
        self.name = name
        self.nc = nc
        self.js = nc.jetstream()
        self.directory = tables
        self.records = records
        self.writes = writes
        self.tokens = tokens
        self.nodes = nodes
        """Every live node's key, written every ttl/3, expiring after ttl (the heartbeat)."""
        self.tablelog = JournalLog(self.js, writes, leases, tokens, name, self.lost)
        """The lobby's :class:`~boneyard.server.storage.store.TableLog` on this node."""
        self.ownership = Ownership(self, ttl)
        loop = asyncio.get_running_loop()
        self.bus = Bus(loop, self._publish, writes.settled, name)
        writes.on_refused = self._refused
        self.lobby: Lobby | None = None
        self.commands: Commands | None = None
        self.metrics: ClusterMetrics | None = None
        self.relays: dict[str, RelaySession] = {}
        """Players of other nodes at this node's tables, by player id."""
        self.homed: dict[str, Session] = {}
        """This node's sessions at other nodes' tables, by player id."""
        self._places: dict[tuple[str, str], RemotePlace] = {}
        self._former: dict[str, set[str]] = {}
        """The nodes that owned one of a player's tables before it moved, by player id."""
        self._listed: dict[str, RemoteTable] = {}
        """Other nodes' tables, by table id."""
        self._dirty: set[str] = set()
        self._publishing: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._subscriptions: list[Any] = []
        self._feed: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, url: str, name: str, *, records_in_memory: int, ttl: float) -> ClusterNode:
        """Join the cluster at ``url`` (raises what ``nats.connect`` raises when it cannot); ``ttl``: how
        long a table's lease outlives its owner's last renewal."""
        nc = await nats.connect(
            [server.strip() for server in url.split(",")],  # a NATS cluster: any of its servers
            name=f"boneyard {name}",
            connect_timeout=5,
            max_reconnect_attempts=1,  # at start: fail with one line rather than retry for ever
            reconnect_time_wait=0.5,
            error_cb=_nats_error,
            disconnected_cb=_disconnected,
            reconnected_cb=_reconnected,
        )
        nc.options["max_reconnect_attempts"] = -1  # once joined: reconnect for as long as it takes
        js = nc.jetstream()
        writes = Writes(asyncio.get_running_loop())
        await ensure_stream(js)
        tables = await Directory.open(js, TABLES_BUCKET)
        records = await _bucket(js, RECORDS_BUCKET)
        tokens = await _bucket(js, TOKENS_BUCKET)
        leases = await LeaseBook.open(js, name, ttl=ttl)
        try:
            nodes = await js.key_value(NODES_BUCKET)
        except BucketNotFoundError:
            nodes = await js.create_key_value(bucket=NODES_BUCKET, ttl=ttl, history=1)
        stored = ClusterRecords(records, writes, records_in_memory)
        return cls(name, nc, tables, stored, writes, leases, tokens, ttl, nodes)

    async def attach(self, lobby: Lobby, commands: Commands, metrics: ClusterMetrics) -> None:
        """Serve the lobby's tables to the cluster and the cluster's tables to the lobby."""
        self.lobby, self.commands, self.metrics = lobby, commands, metrics
        self.tablelog.append_seconds = metrics.journal_seconds
        lobby.pushes.remote = self
        lobby.pushes.on_note = self._noted
        commands.cluster = self
        changes = self.directory.changes()
        for key, value in self.directory.entries.items():
            self._listing(key, value)
        self._feed = asyncio.get_running_loop().create_task(self._follow(changes))
        self._subscriptions = [
            await self.nc.subscribe(inbox(self.name), cb=self._on_inbox),
            await self.nc.subscribe(outbox(self.name), cb=self._on_outbox),
            await self.nc.subscribe(REHOME, cb=self._on_rehome),
        ]
        await self.ownership.start()

    @property
    def connected(self) -> bool:
        return bool(self.nc.is_connected)

    async def close(self) -> None:
        """Leave the cluster: this node's tables are handed over (the lobby is stopped: no timer runs);
        queued messages go first."""
        await self.ownership.stop()
        if self._publishing is not None:
            await self._publishing
        await self.ownership.hand_over()
        with contextlib.suppress(Exception):
            await self.nodes.delete(self.name)  # gone: the owners of its players' tables know at once
        await self.bus.close()
        for subscription in self._subscriptions:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()
        if self._feed is not None:
            self._feed.cancel()
        await self.directory.close()
        with contextlib.suppress(Exception):
            await self.nc.drain()

    async def _publish(self, subject: str, payload: bytes) -> None:
        await self.nc.publish(subject, payload)

    # -- the cluster-wide lobby ----------------------------------------------------------------------------

    def get(self, table_id: str) -> RemoteTable | None:
        """Another node's table, as the directory lists it (``None``: no such table elsewhere)."""
        return self._listed.get(table_id)

    def listed(self) -> list[Listed]:
        """Every other node's table."""
        return list(self._listed.values())

    def owner_of(self, table_id: str) -> str | None:
        listed = self._listed.get(table_id)
        return None if listed is None else listed.owner

    async def _follow(self, changes: Any) -> None:
        async for key, value in changes:
            self._listing(key, value)

    def _listing(self, table_id: str, value: bytes | None) -> None:
        lobby = self.lobby
        assert lobby is not None
        if value is None:
            if self._listed.pop(table_id, None) is not None:
                lobby.pushes.note_remote(table_id, "removed")
            return
        owner, status, packed = msgpack.unpackb(value)
        if owner == self.name:
            self._listed.pop(table_id, None)  # this node's own table (taken over?): the lobby knows it
            return
        self._listed[table_id] = RemoteTable(table_id, owner, status, packed)
        lobby.pushes.note_remote(table_id, "updated")

    def others(self) -> list[tuple[str, str]]:
        """Every other node's table, and its owner as the directory says."""
        return [(table_id, listed.owner) for table_id, listed in self._listed.items()]

    def announce(self, table_id: str) -> None:
        """This node owns the table now: into the directory soon."""
        self._noted(table_id)

    def lost(self, table_id: str, why: str) -> None:
        """The table is no longer this node's: dropped at once, its timers stopped, nothing more sent."""
        self.tablelog.forget(table_id, lost=True)
        lobby = self.lobby
        table = lobby.tables.pop(table_id, None) if lobby is not None else None
        if table is None or lobby is None:
            return  # dropped already: what waits now (its players' 1012 included) is not about it
        self.writes.cut()
        lobby.quota.removed(table_id)
        for session in table.clear():
            if isinstance(session, RelaySession):
                self._settle(session)
            elif session.client is not None:  # this node's own player: resume through the new owner
                if not session.tables and session.token is not None:
                    # Its token lives on in the cluster (the seat is the new owner's): not forgotten here.
                    lobby.by_token.pop(session.token, None)
                    session.token = None
                _close(session, "this node no longer holds the table: resume")
        log.warning("table %s dropped: %s", table_id, why)

    def _refused(self) -> None:
        """A journal append was refused: the frames that waited for it were dropped, so the connections
        they were for may have a gap in their ``seq``. Every client of this node resumes (1012)."""
        lobby = self.lobby
        if lobby is None:
            return
        for session in [*lobby.by_token.values(), *lobby.presence.idle]:
            if session.client is not None and not session.relayed:
                _close(session, "this node was cut off from the cluster: resume")

    def _noted(self, table_id: str) -> None:
        """A table of this node changed (or went): into the directory soon."""
        self._dirty.add(table_id)
        if self._publishing is None:
            self._publishing = asyncio.get_running_loop().create_task(self._publish_soon())

    async def _publish_soon(self) -> None:
        try:
            await asyncio.sleep(DIRECTORY_SECONDS)
            await self._publish_directory()
        finally:
            self._publishing = None

    async def _publish_directory(self) -> None:
        lobby = self.lobby
        assert lobby is not None
        while self._dirty:
            dirty, self._dirty = self._dirty, set()
            for table_id in dirty:
                table = lobby.tables.get(table_id)
                try:
                    if table is None:
                        await self.directory.remove(table_id)
                    else:
                        value = msgpack.packb([self.name, table.status, table.info_packed()])
                        await self.directory.put(table_id, value)
                except Exception as error:
                    log.warning("table %s: cannot update the directory: %s", table_id, error)

    # -- the home side: forwarding this node's players' commands ------------------------------------------

    def forwards(self, session: Session, command: Any) -> bool:
        """Forward ``command`` to the owner if it names a table another node owns; whether it did."""
        table_id = getattr(command, "table_id", None)
        if table_id is None or self.lobby is None:
            return False
        place = self._places.get((session.player_id, table_id))
        # The player's place knows a takeover first (the new owner's places come before its snapshot);
        # a place at a table this node took over while the player was relayed stays relayed.
        owner = place.owner if place is not None else None
        if owner is None and table_id not in self.lobby.tables:
            owner = self.owner_of(table_id)
        if owner is None:
            return False
        token = session.token
        if command.type in ("join", "take_seat"):
            token = self.lobby.token_for(session)  # the home holds the token: the player resumes here
        self.homed[session.player_id] = session
        self.bus.send(
            inbox(owner), [COMMAND, session.player_id, session.name, self.name, token, _frame(command)]
        )
        if self.metrics is not None:
            self.metrics.routed.inc()
        return True

    def _control(self, player_id: str, table_id: str, what: str, seat: int | None) -> None:
        place = self._places.get((player_id, table_id))
        if place is not None:
            self.bus.send(inbox(place.owner), [CONTROL, player_id, table_id, what, seat])

    async def _on_outbox(self, msg: Msg) -> None:
        sender, items = msgpack.unpackb(msg.data)
        for item in items:
            session = self.homed.get(item[1])
            if session is None:
                continue  # the session is gone here: nobody to deliver to
            if self._stale(session, sender):
                continue  # from a node the table moved away from (it was cut off): not the game any more
            if item[0] == BODY:
                session.deliver(item[2])
            elif item[0] == PLACES:
                self._set_places(session, item[2], item[3])
            if session.client is None and not session.tables:
                del self.homed[item[1]]  # gone from here, at no remote table: nothing more for it

    def _stale(self, session: Session, sender: str) -> bool:
        """Whether ``sender`` is a node one of the player's tables moved away from, and no longer the
        owner of any: what it still sends (it was cut off or paused) is not the game any more."""
        former = self._former.get(session.player_id)
        if former is None or sender not in former:
            return False
        return not any(isinstance(p, RemotePlace) and p.owner == sender for p in session.tables)

    def _moved(self, player_id: str, former: str, owner: str) -> None:
        if former != owner:
            self._former.setdefault(player_id, set()).add(former)

    def _set_places(self, session: Session, owner: str, places: dict[str, int | None]) -> None:
        """The tables ``owner`` says the player is at there now: the home session's remote places."""
        lobby = self.lobby
        assert lobby is not None
        player_id = session.player_id
        for old in [p for p in session.tables if isinstance(p, RemotePlace) and p.owner == owner]:
            if old.table_id not in places:
                del session.tables[old]
                self._places.pop((player_id, old.table_id), None)
        for table_id, seat in places.items():
            known = self._places.get((player_id, table_id))
            place = known or RemotePlace(table_id, owner, player_id, self._control)
            self._moved(player_id, place.owner, owner)
            place.owner = owner  # another node took the table over
            self._places[(player_id, table_id)] = place
            session.tables[place] = seat
        if session.tables:
            lobby.at_table(session)
        else:
            lobby.enter_lobby(session)

    def forget_place(self, session: Session, table_id: str) -> None:
        """The session's remote place at ``table_id`` is gone (this node owns the table now)."""
        place = self._places.pop((session.player_id, table_id), None)
        if place is not None:
            session.tables.pop(place, None)
            self._moved(session.player_id, place.owner, self.name)

    def resume(self, link: Link, command: Identify) -> None:
        """A token this node does not know: its player's home was another node (which died, or closed
        the connection at a stop). The session is made from the tokens bucket, and every owner of the
        player's tables told to relay here now; they send snapshots (``replayed: 0``, as after a crash)."""
        self._spawn(self._resume(link, command))

    async def _resume(self, link: Link, command: Identify) -> None:
        lobby, commands = self.lobby, self.commands
        assert lobby is not None and commands is not None and command.resume is not None
        token = command.resume.token
        try:
            entry = await self.tokens.get(token)
        except KeyNotFoundError:
            entry = None
        except Exception as error:
            log.warning("cannot read the tokens bucket: %s", error)
            entry = None
        if entry is None or entry.value is None:
            link.close_with(4002, "unknown or expired resume token")
            return
        player_id, name, _ = msgpack.unpackb(entry.value)
        session = lobby.by_token.get(token) or lobby.restore_session(StoredSession(token, player_id, name))
        self.homed[player_id] = session
        self.tablelog.session(session)  # its home is this node now (a takeover relays here)
        await self.writes.committed()
        commands.resumed(link, session, command)
        await self.nc.publish(REHOME, msgpack.packb([player_id, self.name]))

    async def _on_rehome(self, msg: Msg) -> None:
        player_id, home = msgpack.unpackb(msg.data)
        self.rehome(player_id, home)

    def rehome(self, player_id: str, home: str) -> None:
        """The player resumed through ``home``: relay there, with a snapshot of each table."""
        relay = self.relays.get(player_id)
        lobby = self.lobby
        if relay is None or lobby is None or (home == relay.home and relay.client is not None):
            return
        relay.cancel_timer()
        relay.client = RELAYED
        relay.rehome(home)
        for table, seat in list(relay.tables.items()):
            relay.deliver(table.snapshot_body(seat))
            if seat is not None:
                table.seat_connected(seat)

    def home_gone(self, home: str) -> None:
        """``home``'s heartbeat expired: its players are disconnected, as after a dropped connection
        (grace, then the server plays for them), until they resume through another node."""
        lobby = self.lobby
        if lobby is None:
            return
        for relay in self.relays.values():
            if relay.home != home or relay.client is None:
                continue
            relay.client = None
            for table, seat in relay.seats():
                table.seat_disconnected(seat)
            relay.timer = lobby.clock.call_later(lobby.settings.grace_seconds, partial(self._away, relay))
            log.info("node %s is gone: player %s disconnected", home, relay.player_id)

    @staticmethod
    def _away(relay: RelaySession) -> None:
        relay.timer = None
        for table, seat in relay.seats():
            table.seat_away(seat)

    def homes(self) -> set[str]:
        """The other nodes this node's tables relay to."""
        return {relay.home for relay in self.relays.values() if relay.home != self.name}

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def fetch_record(self, session: Session, record_id: str, reply_to: CommandId | None) -> None:
        """``get_record`` for a record this node does not hold: from the bucket, replied when it comes."""
        self._spawn(self._fetch_record(session, record_id, reply_to))

    async def _fetch_record(self, session: Session, record_id: str, reply_to: CommandId | None) -> None:
        lobby = self.lobby
        assert lobby is not None
        try:
            found = await self.records.fetch(record_id)
        except Exception as error:
            log.warning("record %s: cannot read the records bucket: %s", record_id, error)
            found = None
        body = lobby.record_bodies.reply(record_id, reply_to) if found is not None else None
        if body is None:
            lobby.metrics.error("no_such_record")
            body = error_body("no_such_record", f"no finished game has the record {record_id}", reply_to)
        session.deliver(body)

    # -- the owner side: relay sessions -------------------------------------------------------------------

    async def _on_inbox(self, msg: Msg) -> None:
        for item in msgpack.unpackb(msg.data)[1]:
            try:
                if item[0] == COMMAND:
                    self._command(item)
                elif item[0] == CONTROL:
                    self._control_in(item)
            except Exception:
                log.exception("a relayed message failed: %r", item[:4])

    def relay(self, player_id: str, name: str, home: str) -> RelaySession:
        """The relay session of a player of ``home`` (made, or re-pointed there)."""
        relay = self.relays.get(player_id)
        if relay is None:
            relay = self.relays[player_id] = RelaySession(player_id, name, home, self.name, self.bus)
        elif relay.home != home:
            relay.rehome(home)
        return relay

    def _command(self, item: Item) -> None:
        _, player_id, name, home, token, frame = item
        commands = self.commands
        assert commands is not None and self.lobby is not None
        if self.lobby.stopping:
            return  # handing its tables over: the next owner gives the player their turn again
        relay = self.relay(player_id, name, home)
        if token is not None:
            relay.token = token
        try:
            command = decode_hot(frame)
        except ProtocolError as error:  # decoded once on the home already: a version mismatch
            log.warning("a forwarded command does not decode: %s", error)
            return
        commands.dispatch(RelayLink(relay), relay, command)
        self._settle(relay)

    def _control_in(self, item: Item) -> None:
        _, player_id, table_id, what, seat = item
        relay = self.relays.get(player_id)
        lobby = self.lobby
        assert lobby is not None
        table: Table | None = lobby.tables.get(table_id)
        if relay is None or table is None:
            return
        if what == "snapshot":
            relay.deliver(table.snapshot_body(seat))
        elif what == "abandon":
            table.abandon(relay)
        elif seat is not None and table.seats[seat].session is relay:
            if what == "connected":
                relay.client = RELAYED
                table.seat_connected(seat)
            elif what == "disconnected":
                relay.client = None
                table.seat_disconnected(seat)
            elif what == "away":
                table.seat_away(seat)
        self._settle(relay)

    def _settle(self, relay: RelaySession) -> None:
        if not relay.sync_places() and self.relays.get(relay.player_id) is relay:
            del self.relays[relay.player_id]


def _close(session: Session, reason: str) -> None:
    link: Any = session.client  # a session's client is its connection (a Link)
    link.close_with(1012, reason)


def _frame(command: Any) -> bytes:
    """The command as its client sent it, encoded again (an ``act`` off the hot path has no model)."""
    if isinstance(command, HotAct):
        act = {
            "type": "act",
            "id": command.id,
            "table_id": command.table_id,
            "action": command.action.model_dump(),
        }
        packed: bytes = msgpack.packb(act)
        return packed
    return encode(command)
