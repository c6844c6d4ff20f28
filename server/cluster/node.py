"""One node of a Boneyard cluster: its NATS connection and buckets, and the parts it composes.

Placement: a table lives on the node that created it (the creator's node: nothing to route for the
creator). The owner holds it exactly as a single node does; every other node knows it from the table
directory and lists it (:mod:`boneyard.server.cluster.mirror`). A command naming a table owned
elsewhere is forwarded by the player's home (:mod:`boneyard.server.cluster.home`) to the owner, which
handles it for a relay session (:mod:`boneyard.server.cluster.owner`, :mod:`boneyard.server.cluster.relay`).
Leases (one per node) and takeovers: :mod:`boneyard.server.cluster.leases`,
:mod:`boneyard.server.cluster.takeover`.

Finished records go to the key-value bucket ``boneyard-records`` before ``game_over`` reaches anyone
(:mod:`boneyard.server.cluster.record_bucket`), so ``get_record`` answers on every node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import nats
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError
from nats.js.kv import KeyValue

from boneyard.server.accounts.book import AccountBook
from boneyard.server.cluster import ClusterError
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET, ClusterAccounts
from boneyard.server.cluster.directory import Directory
from boneyard.server.cluster.home import HomeSide
from boneyard.server.cluster.journal import ensure_stream
from boneyard.server.cluster.leases import OWNERS_BUCKET, LeaseBook
from boneyard.server.cluster.mirror import LobbyMirror
from boneyard.server.cluster.owner import OwnerSide
from boneyard.server.cluster.ratings import RATINGS_BUCKET, ClusterRatings
from boneyard.server.cluster.record_bucket import ClusterRecords
from boneyard.server.cluster.relay import REHOME, Bus, RelaySession, inbox, outbox
from boneyard.server.cluster.reports import ClusterReports, ensure_reports
from boneyard.server.cluster.tablelog import TOKENS_BUCKET, JournalLog
from boneyard.server.cluster.takeover import Ownership
from boneyard.server.cluster.writes import Writes
from boneyard.server.session import Session

if TYPE_CHECKING:
    from boneyard.server.commands import CommandSeam
    from boneyard.server.lobby import Lobby
    from boneyard.server.metrics import ClusterMetrics, Metrics
    from boneyard.server.settings import Settings

log = logging.getLogger("boneyard.cluster")

TABLES_BUCKET = "boneyard-tables"
RECORDS_BUCKET = "boneyard-records"


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


def signed_out(lobby: Lobby, key: str, new_name: str) -> None:
    """The account of ``key`` was renamed to ``new_name``: a session still signed in to it under that key
    (one with no seat: a rename waits for its player's seats) plays on as a guest, so that nothing is
    written under the old key again (a rating, mutes), and its rated seek ends, said to it; signing in
    again, under the new name, makes it the account's."""
    session = lobby.presence.by_account.pop(key, None)
    if session is not None:
        session.account = None
        why = f"your account was renamed to {new_name!r}: your rated seek ended; sign in as {new_name!r}"
        lobby.matchmaker.signed_out(session, why)


class ClusterNode:
    """This node's part in the cluster (``connect``, then ``attach`` the lobby and commands), and the
    server's :class:`~boneyard.server.backend.Backend` on a cluster (``join``, then ``load``)."""

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
        owners: Directory,
        markers: float,
        players: tuple[ClusterAccounts, ClusterRatings],
    ) -> None:
        self.name = name
        self.nc = nc
        self.js = nc.jetstream()
        self.directory = tables
        self.records = records
        self.writes = writes
        self.tokens = tokens
        self.owners = owners
        """Every table's ownership record, mirrored (the takeovers' scan reads it)."""
        self.accounts, self.ratings = players
        """The cluster's accounts and ratings (this node's copies of their buckets)."""
        self.tablelog = JournalLog(self.js, writes, leases, tokens, name, self.lost)
        """The lobby's :class:`~boneyard.server.storage.store.TableLog` on this node."""
        self.ownership = Ownership(self, ttl)
        loop = asyncio.get_running_loop()
        self.bus = Bus(loop, self._publish, writes.settling, name)
        writes.on_refused = self._refused
        self.mirror = LobbyMirror(name, tables, writes)
        """The cluster-wide lobby: the directory followed, this node's tables published."""
        self.owner = OwnerSide(name, self.bus, leases.nodes, ttl)
        """Other nodes' players at this node's tables."""
        self.home = HomeSide(
            name,
            self.bus,
            self._publish,
            self.mirror,
            tokens,
            self.tablelog,
            writes,
            records,
            self.owner.relays,
        )
        """This node's players at other nodes' tables (the commands' router)."""
        self.mirror.on_moved = self.home.table_moved
        self.lobby: Lobby | None = None
        self.metrics: ClusterMetrics | None = None
        self._subscriptions: list[Any] = []
        self._markers = markers
        self._sweeping: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls, url: str, name: str, *, records_in_memory: int, ttl: float, markers: float
    ) -> ClusterNode:
        """Join the cluster at ``url`` (raises what ``nats.connect`` raises when it cannot); ``ttl``: how
        long a table's lease outlives its owner's last renewal; ``markers``: how old a removed key's
        delete marker gets before it is purged (the settings' ``cluster_marker_seconds``, which holds
        the default)."""
        nc = await nats.connect(
            [server.strip() for server in url.split(",")],  # a NATS cluster: any of its servers
            name=f"boneyard {name}",
            connect_timeout=5,
            max_reconnect_attempts=1,  # at start: fail with one line rather than retry for ever
            reconnect_time_wait=0.5,
            drain_timeout=5,  # a stop waits this long at most for what is still queued
            error_cb=_nats_error,
            disconnected_cb=_disconnected,
            reconnected_cb=_reconnected,
        )
        nc.options["max_reconnect_attempts"] = -1  # once joined: reconnect for as long as it takes
        js = nc.jetstream()
        writes = Writes(asyncio.get_running_loop())
        await ensure_stream(js)
        await ensure_reports(js)
        tables = await Directory.open(js, TABLES_BUCKET)
        records = await _bucket(js, RECORDS_BUCKET)
        tokens = await _bucket(js, TOKENS_BUCKET)
        leases = await LeaseBook.open(js, name, ttl=ttl)
        owners = await Directory.open(js, OWNERS_BUCKET)
        accounts = ClusterAccounts(await Directory.open(js, ACCOUNTS_BUCKET), writes, time.time)
        ratings = ClusterRatings(await Directory.open(js, RATINGS_BUCKET), writes)
        stored = ClusterRecords(records, writes, records_in_memory)
        players = accounts, ratings
        return cls(name, nc, tables, stored, writes, leases, tokens, ttl, owners, markers, players)

    @classmethod
    async def join(cls, url: str, name: str, settings: Settings) -> ClusterNode:
        """:meth:`connect` with the settings' values; :class:`ClusterError` in one line if it cannot."""
        try:
            return await cls.connect(
                url,
                name,
                records_in_memory=settings.records_in_memory,
                ttl=settings.cluster_lease_seconds,
                markers=settings.cluster_marker_seconds,
            )
        except Exception as error:  # nats-py's: no servers, timeouts, JetStream not enabled
            why = error or type(error).__name__
            raise ClusterError(f"cannot join the cluster at {url}: {why}") from error

    # -- the server's backend (boneyard.server.backend.Backend) ----------------------------------------------

    @property
    def table_log(self) -> JournalLog:
        return self.tablelog

    @property
    def gate(self) -> Writes:
        return self.writes

    def account_book(self) -> AccountBook:
        return self.accounts.book

    async def load(self, lobby: Lobby, commands: CommandSeam, metrics: Metrics) -> None:
        commands.accounts.store = self.accounts
        self.accounts.renamed = lambda key, new_name: signed_out(lobby, key, new_name)
        self.accounts.changed, self.ratings.listed = self.ratings.account_changed, self.accounts.lists
        self.ratings.stored = self.accounts.keeps_ratings
        lobby.ratings = self.ratings.book
        lobby.reports.kept = ClusterReports(self.js, self.writes)
        self.accounts.start()
        self.ratings.start()
        await self.attach(lobby, commands, metrics.watch_cluster(lambda: len(lobby.tables)))

    def unhealthy(self) -> str | None:
        return None if self.connected else "not connected to the cluster"

    async def attach(self, lobby: Lobby, commands: CommandSeam, metrics: ClusterMetrics) -> None:
        """Serve the lobby's tables to the cluster and the cluster's tables to the lobby."""
        self.lobby, self.metrics = lobby, metrics
        self.tablelog.append_seconds = metrics.journal_seconds
        self.home.attach(lobby, commands, metrics)
        self.owner.attach(lobby, commands)
        commands.cluster = self.home
        self.mirror.attach(lobby)
        self._subscriptions = [
            await self.nc.subscribe(inbox(self.name), cb=self.owner.on_inbox),
            await self.nc.subscribe(outbox(self.name), cb=self.home.on_outbox),
            await self.nc.subscribe(REHOME, cb=self.owner.on_rehome),
        ]
        await self.ownership.start()
        self._sweeping = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        """The delete markers of removed tables, and of a renamed account's old entries (its account,
        claims, link codes, ratings), purged once old: else one would stay in a bucket for every table
        that ever ended and every key a rename moved. Every node sees a removal before it is purged
        (it must: a mirror drops the key, the book forgets the account or its ratings), so not a KV
        purge in place of the delete (that too leaves a marker) but a sweep of markers this old."""
        buckets = (self.directory, self.owners, self.accounts.directory, self.ratings.directory)
        while True:
            await asyncio.sleep(self._markers)
            for bucket in buckets:
                try:
                    await bucket.sweep(self._markers)
                except Exception as error:
                    log.warning("cannot purge old delete markers: %s", error)

    @property
    def connected(self) -> bool:
        return bool(self.nc.is_connected)

    async def close(self, lobby: Lobby | None = None) -> None:
        """Leave the cluster: this node's tables are handed over (the lobby is stopped: no timer runs);
        queued messages go first. (``lobby``: the backend's signature; the node holds its own.)"""
        if self._sweeping is not None:
            self._sweeping.cancel()
        await self.ownership.stop()
        self.owner.close()
        await self.mirror.flush()
        await self.ownership.hand_over()
        with contextlib.suppress(Exception):
            await self.tablelog.leases.leave()  # gone: the owners of its players' tables know at once
        await self.bus.close()
        for subscription in self._subscriptions:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()
        await self.mirror.close()
        await self.accounts.close()
        await self.ratings.close()
        for directory in (self.owners, self.accounts.directory, self.ratings.directory):
            with contextlib.suppress(Exception):
                await directory.close()
        with contextlib.suppress(Exception):
            await self.nc.drain()

    async def _publish(self, subject: str, payload: bytes) -> None:
        await self.nc.publish(subject, payload)

    # -- fencing: a table lost, appends refused -----------------------------------------------------------

    def lost(self, table_id: str, why: str) -> None:
        """The table is no longer this node's: dropped at once, its timers stopped, nothing more sent."""
        self.tablelog.forget(table_id, lost=True)
        self.mirror.forget(table_id)
        lobby = self.lobby
        table = lobby.tables.pop(table_id, None) if lobby is not None else None
        if table is None or lobby is None:
            return  # dropped already: what waits now (its players' 1012 included) is not about it
        self.writes.cut()
        lobby.quota.removed(table_id)
        for session in table.clear():
            if isinstance(session, RelaySession):
                self.owner.settle(session)
            elif session.client is not None:  # this node's own player: resume through the new owner
                if not session.tables and session.token is not None:
                    # Its token lives on in the cluster (the seat is the new owner's): not forgotten here.
                    lobby.by_token.pop(session.token, None)
                    session.token = None
                if session.log is not None:
                    session.log.clear()  # it may tell of refused actions: the resume sends snapshots
                _close(session, "this node no longer holds the table: resume")
        log.warning("table %s dropped: %s", table_id, why)

    def _refused(self) -> None:
        """A journal append was refused (a table is lost): what waited for it was dropped.

        By design every client of this node resumes (1012), not only the lost table's: the node's
        writes are one ordered queue and a flush holds the frames of many connections at once, so the
        frames dropped were any connection's, about any table; a frame is numbered when it is made, so
        each of those connections may have a gap in its ``seq``. Its resume replays the session's log,
        which holds exactly what was dropped (the lost table's players' logs were cleared: they get
        snapshots). Every relay session at this node's other tables gets a snapshot of each, through
        its home: the relayed batches that waited were dropped too, and a home numbers what arrives,
        so its players would see no gap, only a game that skipped some moves."""
        lobby = self.lobby
        if lobby is None:
            return
        sessions = {*lobby.by_token.values(), *lobby.presence.idle}
        sessions.update(session for table in lobby.tables.values() for session, _ in table.listeners())
        for session in sessions:
            if session.client is not None and not session.relayed:
                _close(session, "this node was cut off from the cluster: resume")
        for relay in list(self.owner.relays.values()):
            for place, seat in list(relay.tables.items()):
                place.resync(relay, seat)

    # -- what ownership (takeover.Node) asks of the node's parts ------------------------------------------

    def others(self) -> list[tuple[str, str]]:
        """Every other node's table, and its owner as the directory says."""
        return self.mirror.others()

    def announce(self, table_id: str) -> None:
        """This node owns the table now: into the directory soon."""
        self.mirror.noted(table_id)

    def relay(self, player_id: str, name: str, home: str) -> RelaySession:
        return self.owner.relay(player_id, name, home)

    def forget_place(self, session: Session, table_id: str) -> None:
        self.home.forget_place(session, table_id)

    def rehome(self, player_id: str, home: str) -> None:
        self.owner.rehome(player_id, home)

    def homes(self) -> set[str]:
        return self.owner.homes()

    def home_gone(self, home: str) -> None:
        self.owner.home_gone(home)


def _close(session: Session, reason: str) -> None:
    link: Any = session.client  # a session's client is its connection (a Link)
    link.close_with(1012, reason)
