"""Table ownership over time: the node's lease renewed, dead nodes' tables taken over, tables handed over.

Every node renews its one lease (:class:`~boneyard.server.cluster.leases.LeaseBook`) every
``ttl/3``; a renewal refused (the lease lapsed) or impossible for a whole ``ttl`` (cut off from NATS)
makes it drop every table it holds at once (and join again, with a new epoch, once it can). Every
node also looks, every ``ttl/3``, for tables whose ownership record names a node whose lease is not
that epoch's any more (killed, cut off, frozen past ``ttl``), or that the directory lists on a node
that is gone without a record (handed over): one read per node, not per table. Of the tables a dead
node held, each survivor first takes those that fall to it (rendezvous hashing over the live nodes:
the tables spread), the others if they are still there a scan later. Taking one over is a
compare-and-set on its record (the first node wins), then the journal read and the table rebuilt
through the restore path a restart uses (deadlines from the stored wall time, dealers and bots from
the stored seeds), its claim appended (from then on the old owner's appends are refused: the fence)
and this node published as the owner in the directory. The players at the table get a fresh
snapshot through their home nodes, as after a crash, and whoever is to move their turn again.

A stopping node (SIGTERM) hands its tables over: its timers are stopped, its last appends
acknowledged, its records released, and ``boneyard.handover`` tells the others to take them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import msgpack
from nats.aio.msg import Msg

from boneyard.server.cluster.journal import Fenced, TableJournal
from boneyard.server.cluster.leases import Lease, LeaseLost, holder_of
from boneyard.server.cluster.relay import RelaySession
from boneyard.server.cluster.tablelog import fold, stored_sessions
from boneyard.server.games.registry import GameSpec
from boneyard.server.session import Session
from boneyard.server.storage.logged import TableLog
from boneyard.server.storage.restore import restore
from boneyard.server.storage.stored import StoredSession, StoredTable

if TYPE_CHECKING:
    from nats.aio.client import Client as NATS
    from nats.js import JetStreamContext
    from nats.js.kv import KeyValue

    from boneyard.server.cluster.directory import Directory
    from boneyard.server.cluster.leases import LeaseBook
    from boneyard.server.cluster.tablelog import JournalLog
    from boneyard.server.cluster.writes import Writes
    from boneyard.server.lobby import Lobby
    from boneyard.server.metrics import ClusterMetrics

log = logging.getLogger("boneyard.cluster")

HANDOVER = "boneyard.handover"

TAKEOVERS_AT_ONCE = 16
"""Takeovers a node runs at once."""

HANDOVER_SECONDS = 5.0
"""How long a stopping node waits for its last writes before it hands its tables over anyway."""


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
    owners: Directory
    """Every table's ownership record, mirrored (``boneyard-owners``)."""

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
        self._orphans: set[str] = set()
        """The orphans the last scan saw (another node's to take first)."""
        self._subscription: Any = None

    @property
    def book(self) -> LeaseBook:
        return self.node.tablelog.leases

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        # Alive before any table is placed here or relays here; not at connect: a node's start takes
        # seconds (its bot workers), longer than a lease may live before its first renewal.
        await self.book.join()
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

    # -- the node's lease ------------------------------------------------------------------------------

    async def _renew_forever(self) -> None:
        last_ok = time.monotonic()
        while True:
            await asyncio.sleep(self.ttl / 3)
            if await self._renew():
                last_ok = time.monotonic()
            elif time.monotonic() - last_ok > self.ttl and self.node.tablelog.journals:
                self._drop_all(f"its lease could not be renewed for {self.ttl:g} s")
            await self._heartbeat()

    async def _renew(self) -> bool:
        """Renew this node's lease; ``False`` if that did not reach NATS. A lease that lapsed meanwhile
        (``LeaseLost``): every table dropped, and a new lease (epoch) taken."""
        metrics = self.node.metrics
        try:
            await self.book.renew()
        except LeaseLost as lost:
            self._drop_all(f"this node's lease lapsed ({lost})")
            try:
                lease = await self.book.join()
            except Exception as error:
                log.warning("cannot join the cluster again: %s", error)
                return False
            log.warning("joined the cluster again (epoch %d)", lease.epoch)
            return True
        except Exception as error:  # cut off: keep trying until the ttl runs out
            if metrics is not None:
                metrics.lease_failures.inc()
            log.debug("lease renewal failed: %s", error)
            return False
        if metrics is not None:
            metrics.lease_renewals.inc()
        return True

    def _drop_all(self, why: str) -> None:
        """Every table this node writes for, placed or still being placed."""
        tablelog = self.node.tablelog
        for table_id in {*tablelog.held, *tablelog.journals}:
            self.node.lost(table_id, why)

    async def _heartbeat(self) -> None:
        """The homes whose lease expired lose their players' connections."""
        node = self.node
        try:
            homes = node.homes()
            alive = await self.book.epochs(homes)
            for home in homes - alive.keys():
                node.home_gone(home)
        except Exception as error:
            log.debug("heartbeat failed: %s", error)

    # -- takeovers --------------------------------------------------------------------------------------

    async def _look_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3 * random.uniform(0.8, 1.2))
            try:
                await self._look()
            except Exception as error:
                log.warning("the scan for tables to take over failed: %s", error)

    async def _look(self) -> None:
        """Take over the tables whose owner is gone: those that fall to this node first."""
        node = self.node
        lobby = node.lobby
        if lobby is None or self.book.lease is None:
            return
        records = {table_id: holder_of(value) for table_id, value in node.owners.entries.items()}
        listed = node.others()
        alive = await self.book.epochs({h.node for h in records.values()} | {owner for _, owner in listed})
        orphans = {t for t, h in records.items() if alive.get(h.node) != h.epoch}
        orphans |= {t for t, owner in listed if t not in records and owner not in alive}
        orphans -= lobby.tables.keys() | self._taking
        alive[node.name] = self.book.lease.epoch
        seen, self._orphans = self._orphans, orphans
        await self._take_all(t for t in orphans if t in seen or _falls_to(t, alive) == node.name)

    async def _handed_over(self, msg: Msg) -> None:
        await self._take_all(msgpack.unpackb(msg.data))

    async def _take_all(self, table_ids: Iterable[str]) -> None:
        """Take these tables over, :data:`TAKEOVERS_AT_ONCE` at a time (each is a few NATS round trips:
        one after another, the last of a dead node's hundreds of tables waited for all the others)."""
        limit = asyncio.Semaphore(TAKEOVERS_AT_ONCE)

        async def take(table_id: str) -> None:
            async with limit:
                try:
                    await self.take_over(table_id)
                except Exception as error:
                    log.warning("table %s: takeover failed: %s", table_id, error)

        await asyncio.gather(*(take(table_id) for table_id in sorted(table_ids)))

    async def take_over(self, table_id: str) -> bool:
        """Take the table's record, rebuild the table from its journal, claim the journal; whether it did."""
        node = self.node
        lobby = node.lobby
        if lobby is None or lobby.stopping or table_id in lobby.tables or table_id in self._taking:
            return False
        self._taking.add(table_id)
        try:
            started = time.perf_counter()
            book = self.book
            holder = await book.holder(table_id)
            if holder is not None and (await book.epochs([holder.node])).get(holder.node) == holder.epoch:
                return False  # its owner is alive (this node's view was behind)
            lease = await book.take(table_id, holder)
            if lease is None:
                return False
            try:
                replayed = await self._replay(table_id, lease)
            except Exception:
                with contextlib.suppress(Exception):
                    await book.release(lease)
                raise
            if replayed is None:
                await book.release(lease)
                await node.directory.remove(table_id)
                return False
            journal, stored = replayed
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
                    table.resync(session, seat.index)
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

    async def _replay(self, table_id: str, lease: Lease) -> tuple[TableJournal, StoredTable] | None:
        """The table's journal, read and claimed, and what it folds to (``None``: the table is gone).

        An append of the old owner between the read and the claim (a node that has not noticed yet
        that its lease lapsed: it will within ``ttl/3``) refuses the claim: read again and retry."""
        for _ in range(int(self.ttl * 10) + 1):
            journal = await TableJournal.open(self.node.js, table_id)
            stored = fold(journal.entries)
            if stored is None:  # removed (or never written): nothing to take over
                return None
            try:
                await journal.claim(msgpack.packb([self.node.name, lease.term]))
            except Fenced:
                await asyncio.sleep(0.1)
                continue
            return journal, stored
        raise Fenced(f"table {table_id}: its old owner keeps appending")

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

    async def hand_over(self, seconds: float = HANDOVER_SECONDS) -> None:
        """A graceful stop: every table's last appends acknowledged, its lease released, the others told.

        Bounded: a write that never comes back (NATS gone, a lost reply) cannot keep the node from
        stopping. What it did not wait for is safe: no frame told of it, and a taker either replays it
        or fences it (its claim comes first). The leases are released all at once (one after another,
        a node's hundreds of tables took seconds)."""
        node = self.node
        try:
            await asyncio.wait_for(node.writes.committed(), seconds)
        except TimeoutError:
            log.warning(
                "stopping: writes still unacknowledged after %g s; handing the tables over anyway", seconds
            )
        held = list(node.tablelog.held.items())
        for table_id, _ in held:
            node.tablelog.forget(table_id)

        async def release(table_id: str, lease: Lease) -> str | None:
            try:
                await node.tablelog.leases.release(lease)
            except Exception as error:
                log.warning("table %s: cannot release its lease: %s", table_id, error)
                return None
            return table_id

        try:
            released = await asyncio.wait_for(asyncio.gather(*(release(*h) for h in held)), seconds)
        except TimeoutError:
            log.warning(
                "stopping: the leases not released after %g s are taken over when they expire", seconds
            )
            return
        handed = [table_id for table_id in released if table_id is not None]
        if handed:
            with contextlib.suppress(Exception):
                await node.nc.publish(HANDOVER, msgpack.packb(handed))
                await asyncio.wait_for(node.nc.flush(), seconds)
            log.info("handed %d tables over", len(handed))


def _falls_to(table_id: str, alive: dict[str, int]) -> str:
    """The live node a dead node's table falls to first (rendezvous hashing: the tables spread, and a
    node that dies moves only the tables that fell to it).

    >>> three, two = {"n1": 1, "n2": 5, "n3": 2}, {"n1": 1, "n2": 5}
    >>> picks = [_falls_to(f"t{i}", three) for i in range(600)]
    >>> all(150 < picks.count(node) < 250 for node in three)
    True
    >>> all(_falls_to(f"t{i}", two) == pick for i, pick in enumerate(picks) if pick != "n3")
    True
    """

    def weight(node: str) -> bytes:
        return hashlib.blake2b(f"{table_id}/{node}".encode(), digest_size=8).digest()

    return max(alive, key=weight)


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
            relay.token, relay.account = stored.token, stored.account
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
