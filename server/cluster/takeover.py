"""Table ownership over time: leases renewed, tables taken over from dead nodes, handed over at a stop.

Every node renews the leases of its tables every ``ttl/3``; a renewal refused (the lease moved) or
impossible for a whole ``ttl`` (cut off from NATS) makes it drop the table at once. Every node also
looks, every ``ttl/3``, for tables in the directory whose lease nobody holds (their owner was killed,
or handed them over): the first to acquire the lease reads the table's journal, rebuilds the table
through the restore path a restart uses (deadlines from the stored wall time, dealers and bots from
the stored seeds), appends its claim (from then on the old owner's appends are refused: the fence)
and publishes itself as the owner in the directory. The players at the table get a fresh snapshot
through their home nodes, as after a crash, and whoever is to move their turn again.

A stopping node (SIGTERM) hands its tables over: its timers are stopped, its last appends
acknowledged, its leases released, and ``boneyard.handover`` tells the others to take them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, Any, Protocol

import msgpack
from nats.aio.msg import Msg
from nats.js.errors import KeyNotFoundError

from boneyard.server.cluster.journal import Fenced, TableJournal
from boneyard.server.cluster.leases import LeaseLost
from boneyard.server.cluster.relay import RelaySession
from boneyard.server.cluster.tablelog import fold, stored_sessions
from boneyard.server.games.registry import GameSpec
from boneyard.server.session import Session
from boneyard.server.storage.restore import restore
from boneyard.server.storage.store import TableLog
from boneyard.server.storage.stored import StoredSession

if TYPE_CHECKING:
    from nats.aio.client import Client as NATS
    from nats.js import JetStreamContext
    from nats.js.kv import KeyValue

    from boneyard.server.cluster.directory import Directory
    from boneyard.server.cluster.tablelog import JournalLog
    from boneyard.server.cluster.writes import Writes
    from boneyard.server.lobby import Lobby
    from boneyard.server.metrics import ClusterMetrics

log = logging.getLogger("boneyard.cluster")

HANDOVER = "boneyard.handover"


class Node(Protocol):
    """What ownership needs of its node (``boneyard.server.cluster.node.ClusterNode``)."""

    name: str
    nc: NATS
    js: JetStreamContext
    lobby: Lobby | None
    metrics: ClusterMetrics | None
    tablelog: JournalLog
    writes: Writes
    directory: Directory
    tokens: KeyValue
    nodes: KeyValue

    def others(self) -> list[tuple[str, str]]: ...
    def lost(self, table_id: str, why: str) -> None: ...
    def announce(self, table_id: str) -> None: ...
    def relay(self, player_id: str, name: str, home: str) -> RelaySession: ...
    def forget_place(self, session: Session, table_id: str) -> None: ...
    def rehome(self, player_id: str, home: str) -> None: ...
    def homes(self) -> set[str]: ...
    def home_gone(self, home: str) -> None: ...


class Ownership:
    """The node's leases and takeovers (started by the node once its lobby is attached)."""

    def __init__(self, node: Node, ttl: float) -> None:
        self.node = node
        self.ttl = ttl
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[str] = set()
        self._subscription: Any = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        await self.node.nodes.put(self.node.name, b"1")  # alive before any table relays here
        self._subscription = await self.node.nc.subscribe(HANDOVER, cb=self._handed_over)
        self._tasks = [loop.create_task(self._renew_forever()), loop.create_task(self._look_forever())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._subscription is not None:
            with contextlib.suppress(Exception):
                await self._subscription.unsubscribe()

    # -- leases -----------------------------------------------------------------------------------------

    async def _renew_forever(self) -> None:
        node = self.node
        last_ok = time.monotonic()
        while True:
            await asyncio.sleep(self.ttl / 3)
            reached = await self._renew_all()
            await self._heartbeat()
            if reached:
                last_ok = time.monotonic()
            elif time.monotonic() - last_ok > self.ttl:
                for table_id in list(node.tablelog.held):
                    node.lost(table_id, f"its lease could not be renewed for {self.ttl:g} s")

    async def _renew_all(self) -> bool:
        """Renew every lease this node holds, all at once; ``False`` if some renewal did not reach NATS.

        All at once, not one after another: a node with hundreds of tables on a busy machine took longer
        than a lease lives to renew them one by one, and another node took over the tables whose
        leases lapsed meanwhile (found by bench/bench_cluster_load.py at 1,000 tables on two nodes)."""
        node = self.node
        metrics = node.metrics
        held = list(node.tablelog.held.items())
        results = await asyncio.gather(
            *(node.tablelog.leases.renew(lease) for _, lease in held), return_exceptions=True
        )
        reached = True
        for (table_id, lease), renewed in zip(held, results, strict=True):
            if isinstance(renewed, LeaseLost):
                node.lost(table_id, "its lease moved to another node")
            elif isinstance(renewed, BaseException):  # cut off: keep trying until the ttl runs out
                reached = False
                if metrics is not None:
                    metrics.lease_failures.inc()
                log.debug("table %s: lease renewal failed: %s", table_id, renewed)
            else:
                if node.tablelog.held.get(table_id) is lease:
                    node.tablelog.held[table_id] = renewed
                if metrics is not None:
                    metrics.lease_renewals.inc()
        return reached

    async def _heartbeat(self) -> None:
        """This node's key lives on; the homes whose key expired lose their players' connections."""
        node = self.node
        try:
            await node.nodes.put(node.name, b"1")
            for home in node.homes():
                try:
                    await node.nodes.get(home)
                except KeyNotFoundError:
                    node.home_gone(home)
        except Exception as error:
            log.debug("heartbeat failed: %s", error)

    # -- takeovers --------------------------------------------------------------------------------------

    async def _look_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3 * random.uniform(0.8, 1.2))
            for table_id, owner in self.node.others():
                if owner == self.node.name or table_id in self._taking:
                    continue
                try:
                    if await self.node.tablelog.leases.holder(table_id) is None:
                        await self.take_over(table_id)
                except Exception as error:
                    log.warning("table %s: takeover failed: %s", table_id, error)

    async def _handed_over(self, msg: Msg) -> None:
        for table_id in msgpack.unpackb(msg.data):
            if table_id not in self._taking:
                try:
                    await self.take_over(table_id)
                except Exception as error:
                    log.warning("table %s: takeover failed: %s", table_id, error)

    async def take_over(self, table_id: str) -> bool:
        """Acquire the table's lease, rebuild it from its journal, claim the journal; whether it did."""
        node = self.node
        lobby = node.lobby
        if lobby is None or lobby.stopping or table_id in lobby.tables:
            return False
        self._taking.add(table_id)
        try:
            started = time.perf_counter()
            book = node.tablelog.leases
            lease = await book.acquire(table_id)
            if lease is None:
                return False
            journal = await TableJournal.open(node.js, table_id)
            stored = fold(journal.entries)
            if stored is None:  # removed (or never written): nothing to take over
                await book.release(lease)
                await node.directory.remove(table_id)
                return False
            try:
                await journal.claim(msgpack.packb([node.name, lease.term]))
            except Fenced:
                await book.release(lease)
                return False
            sessions, homes = await stored_sessions(node.tokens, stored)
            node.tablelog.adopt(journal, lease)
            restore(_Target(node, homes), [stored], sessions, time.time(), 0.0)
            table = lobby.tables[table_id]
            node.announce(table_id)
            for seat in table.seats:
                session = seat.session
                if session is None:
                    continue
                if isinstance(session, RelaySession):
                    session.sync_places()  # the home node re-points its place to this node
                else:
                    node.forget_place(session, table_id)  # this node's own player: the table is here now
                if session.client is not None:
                    session.deliver(table.snapshot_body(seat.index))
                    table.seat_connected(seat.index)  # their turn again, if they are to move
            await self._recheck_homes(table.seats)
            log.info(
                "took table %s over (term %d, %d actions) in %.0f ms",
                table_id,
                lease.term,
                len(stored.actions),
                (time.perf_counter() - started) * 1e3,
            )
            return True
        finally:
            self._taking.discard(table_id)

    async def _recheck_homes(self, seats: Any) -> None:
        """A player who resumed through another node while the table was being taken over: the
        resume's token write came after this takeover read it, and its ``rehome`` before the relay
        session existed. Reading the token again after the restore closes that window."""
        for seat in seats:
            relay = seat.session
            if not isinstance(relay, RelaySession) or relay.token is None:
                continue
            with contextlib.suppress(Exception):
                entry = await self.node.tokens.get(relay.token)
                home = msgpack.unpackb(entry.value)[2] if entry.value else relay.home
                if home != relay.home:
                    self.node.rehome(relay.player_id, home)

    async def hand_over(self) -> None:
        """A graceful stop: every table's last appends acknowledged, its lease released, the others told."""
        node = self.node
        await node.writes.committed()
        handed = []
        for table_id, lease in list(node.tablelog.held.items()):
            node.tablelog.forget(table_id)
            try:
                await node.tablelog.leases.release(lease)
            except Exception as error:
                log.warning("table %s: cannot release its lease: %s", table_id, error)
                continue
            handed.append(table_id)
        if handed:
            with contextlib.suppress(Exception):
                await node.nc.publish(HANDOVER, msgpack.packb(handed))
                await node.nc.flush()
            log.info("handed %d tables over", len(handed))


class _Target:
    """The restore's target on a takeover: the lobby, with each remote player as a relay session."""

    def __init__(self, node: Node, homes: dict[str, str]) -> None:
        self._node = node
        self._homes = homes
        assert node.lobby is not None
        self._lobby = node.lobby

    def open_table(self, spec: GameSpec, options: Any, seconds: int | None, /, *, table_id: str) -> Any:
        return self._lobby.open_table(spec, options, seconds, table_id=table_id)

    def restore_session(self, stored: StoredSession) -> Session:
        home = self._homes.get(stored.player_id, "")
        if home != self._node.name:
            relay = self._node.relay(stored.player_id, stored.name, home)
            relay.token = stored.token
            return relay
        return self._lobby.by_token.get(stored.token) or self._lobby.restore_session(stored)

    @property
    def table_log(self) -> TableLog:
        return self._node.tablelog

    def continue_ids(self, table_ids: Any, player_ids: Any) -> None:
        pass  # this node's own ids carry its own run tag

    def session_dropped(self, session: Session) -> None:
        if not session.relayed and session.client is None and session.timer is None:
            self._lobby.session_dropped(session)  # a player of this node, not connected: grace first
