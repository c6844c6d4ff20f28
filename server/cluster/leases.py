"""Ownership in a cluster: one lease per node, and per table a record of the node that owns it.

Why leases and not locks: a node that dies holds nothing for ever. Each node holds one key in the
bucket ``boneyard-nodes``, whose entries expire ``ttl`` seconds after they were last written (the
bucket's ``max_age``): the node's lease. It is created when the node joins (the key's revision then
is the node's *epoch*) and renewed every ``ttl/3`` by a compare-and-set on the revision this node
wrote last. A table's ownership record, in the bucket ``boneyard-owners`` (no expiry), names its
owner node and that node's epoch; it is written only when the table changes hands: at placement
(:meth:`LeaseBook.place`, created), at a takeover (:meth:`LeaseBook.take`, compare-and-set on the
record's revision) and at a hand-over or removal (:meth:`LeaseBook.release`), never per renewal. So
staying alive costs one write per node every ``ttl/3``, however many tables the node holds.

A table is free when its record names a node whose lease is not that epoch's any more (the key
expired: the node was killed, cut off or frozen past ``ttl``; or the node joined again since, with
its tables lost): any surviving node may take it, and the first compare-and-set wins. A renewal
refused (:class:`LeaseLost`) means the node's lease lapsed: it must drop every table at once and
join again. The lease alone cannot stop a node that has not noticed yet (a partition, a pause longer
than ``ttl``); the journal's own compare-and-set (:mod:`boneyard.server.cluster.journal`) is the fence
that does. A table's ``term``, the record's revision when its owner wrote it, names the tenure in
logs and journal claims.

Failure path: a NATS error that is not a lost compare-and-set (the connection is down, a timeout)
propagates unchanged; the caller decides (keep trying until ``ttl`` runs out, then give up the tables).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass

import msgpack
from nats.js import JetStreamContext
from nats.js.errors import APIError, BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from boneyard.server.cluster.cas import lost_compare_and_set

NODES_BUCKET = "boneyard-nodes"
OWNERS_BUCKET = "boneyard-owners"


class LeaseLost(Exception):
    """The node's lease lapsed: its tables are no longer its own."""


@dataclass(frozen=True, slots=True)
class NodeLease:
    """One node's lease on its liveness key."""

    node: str
    epoch: int
    """The key's revision when the node joined: the same until the lease lapses."""
    revision: int
    """The key's revision as last written by this node (changes with every renewal)."""


@dataclass(frozen=True, slots=True)
class Lease:
    """One node's tenure of one table, as its ownership record says."""

    table_id: str
    node: str
    term: int
    """The record's revision when this node wrote it: the same for the whole tenure."""


@dataclass(frozen=True, slots=True)
class Holder:
    """Who a table's ownership record names, and the record's revision (what a takeover names)."""

    node: str
    epoch: int
    revision: int


class LeaseBook:
    """The node leases and table ownership records of a cluster, seen by one node (``join`` first)."""

    def __init__(self, nodes: KeyValue, owners: KeyValue, node: str) -> None:
        self.nodes = nodes
        self._owners = owners
        self.node = node
        self.lease: NodeLease | None = None
        """This node's lease, once joined."""

    @classmethod
    async def open(cls, js: JetStreamContext, node: str, *, ttl: float) -> LeaseBook:
        """The two buckets, created if missing (the nodes' entries living ``ttl`` seconds)."""
        try:
            nodes = await js.key_value(NODES_BUCKET)
        except BucketNotFoundError:
            nodes = await js.create_key_value(bucket=NODES_BUCKET, ttl=ttl, history=1)
        try:
            owners = await js.key_value(OWNERS_BUCKET)
        except BucketNotFoundError:
            owners = await js.create_key_value(bucket=OWNERS_BUCKET, history=1)
        return cls(nodes, owners, node)

    # -- the node's lease ---------------------------------------------------------------------------------

    async def join(self) -> NodeLease:
        """A new lease, with a new epoch (a key an earlier run of this node left is written over)."""
        for _ in range(3):  # an earlier run's key may expire between the two reads
            try:
                epoch = await self.nodes.create(self.node, b"")
            except KeyWrongLastSequenceError:
                try:
                    entry = await self.nodes.get(self.node)  # an earlier run's, not yet expired
                    epoch = await self.nodes.update(self.node, b"", last=entry.revision)
                except (KeyNotFoundError, KeyWrongLastSequenceError):
                    continue
            # The value says the epoch: whoever reads the key knows which run of the node holds it.
            revision = await self.nodes.update(self.node, str(epoch).encode(), last=epoch)
            self.lease = NodeLease(self.node, epoch, revision)
            return self.lease
        raise LeaseLost(f"node {self.node}: another process keeps writing this node's key")

    async def renew(self) -> NodeLease:
        """The same lease, written again to live another ``ttl``; :class:`LeaseLost` if it lapsed."""
        lease = self.lease
        if lease is None:
            raise LeaseLost(f"node {self.node} has not joined")
        value = str(lease.epoch).encode()
        try:
            revision = await self.nodes.update(self.node, value, last=lease.revision)
        except (KeyWrongLastSequenceError, KeyNotFoundError) as refused:
            # A renewal that reached NATS but whose answer did not come back: the key is still ours.
            try:
                entry = await self.nodes.get(self.node)
            except KeyNotFoundError:
                raise LeaseLost(f"node {self.node}: the lease of epoch {lease.epoch} expired") from refused
            if entry.value != value:
                raise LeaseLost(f"node {self.node}: the lease of epoch {lease.epoch} lapsed") from refused
            revision = entry.revision or 0
        self.lease = NodeLease(lease.node, lease.epoch, revision)
        return self.lease

    async def leave(self) -> None:
        """A graceful stop: this node's key removed, so the others know at once."""
        lease, self.lease = self.lease, None
        if lease is not None:
            with contextlib.suppress(APIError, KeyNotFoundError):  # else: lapsed already
                await self.nodes.delete(self.node, last=lease.revision)

    async def epochs(self, nodes: Iterable[str]) -> dict[str, int]:
        """The epoch of each of ``nodes`` whose lease is alive (one read per node)."""
        alive: dict[str, int] = {}
        for node in set(nodes):
            if node == self.node and self.lease is not None:
                alive[node] = self.lease.epoch
                continue
            with contextlib.suppress(KeyNotFoundError):
                entry = await self.nodes.get(node)
                if entry.value:
                    alive[node] = int(entry.value)
        return alive

    # -- tables' ownership records --------------------------------------------------------------------

    @property
    def owners(self) -> KeyValue:
        """The bucket of the tables' ownership records (key: table id; value: node and epoch)."""
        return self._owners

    async def place(self, table_id: str) -> Lease | None:
        """A new table is this node's; ``None`` if another node holds it already."""
        return await self.take(table_id, None)

    async def take(self, table_id: str, holder: Holder | None) -> Lease | None:
        """The table for this node, if its record is still ``holder``'s (``None``: there is no record);
        else ``None``: another node was first."""
        if self.lease is None:
            raise LeaseLost(f"node {self.node} has not joined")
        value = msgpack.packb([self.node, self.lease.epoch])
        try:
            if holder is None:
                revision = await self._owners.create(table_id, value)
            else:
                revision = await self._owners.update(table_id, value, last=holder.revision)
        except KeyWrongLastSequenceError:
            return None
        return Lease(table_id, self.node, term=revision)

    async def release(self, lease: Lease) -> None:
        """Give the table up (a hand-over, a removal): only if the record is still this tenure's."""
        try:
            await self._owners.delete(lease.table_id, last=lease.term)
        except APIError as refused:
            if not lost_compare_and_set(refused):
                raise  # else: already another node's, nothing of ours to release

    async def holder(self, table_id: str) -> Holder | None:
        """Who the table's record names now, if anyone."""
        try:
            entry = await self._owners.get(table_id)
        except KeyNotFoundError:
            return None
        if not entry.value:
            return None
        return holder_of(entry.value, entry.revision or 0)


def holder_of(value: bytes, revision: int = 0) -> Holder:
    """An ownership record's value, read."""
    node, epoch = msgpack.unpackb(value)
    return Holder(node, epoch, revision)
