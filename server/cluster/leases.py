"""Table ownership in a cluster: one node at a time holds a table's lease, in a NATS key-value bucket.

Why a lease and not a lock: a node that dies holds nothing for ever. Every lease lives in a JetStream
key-value bucket whose entries expire ``ttl`` seconds after they were last written (the bucket's
``max_age``), so a node that stops renewing (killed, cut off, frozen) loses its tables within ``ttl``
and any surviving node may take them over by creating the key again.

Every write is a compare-and-set on the key's revision (``Nats-Expected-Last-Subject-Sequence``):
:meth:`LeaseBook.acquire` succeeds only if nobody holds the key, :meth:`LeaseBook.renew` only if the
lease is still the one this node wrote last. A renewal that fails means the lease moved: the holder
must stop acting for the table at once (:class:`LeaseLost`). The lease alone cannot stop a node that
has not noticed yet (a partition, a pause longer than ``ttl``); the journal's own compare-and-set
(:mod:`boneyard.server.cluster.journal`) is the fence that does. The ``term`` a lease carries, the
key's revision when it was acquired, names the tenure in logs and journal entries.

Failure path: a NATS error that is not a lost compare-and-set (the connection is down, a timeout)
propagates unchanged; the caller decides (keep trying until ``ttl`` runs out, then give up the table).
"""

from __future__ import annotations

from dataclasses import dataclass

from nats.js import JetStreamContext
from nats.js.errors import APIError, BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from boneyard.server.cluster.cas import lost_compare_and_set


class LeaseLost(Exception):
    """The lease is no longer this node's: another node holds the table, or nobody does."""


@dataclass(frozen=True, slots=True)
class Lease:
    """One node's tenure of one table."""

    table_id: str
    node: str
    term: int
    """The key's revision when the lease was acquired: the same for the whole tenure."""
    revision: int
    """The key's revision as last written by this node (changes with every renewal)."""


class LeaseBook:
    """The leases of every table of a cluster, in one key-value bucket."""

    def __init__(self, bucket: KeyValue, node: str) -> None:
        self._bucket = bucket
        self.node = node

    @classmethod
    async def open(
        cls, js: JetStreamContext, node: str, *, ttl: float, name: str = "boneyard-leases"
    ) -> LeaseBook:
        """The bucket ``name``, created if missing with entries that live ``ttl`` seconds."""
        try:
            bucket = await js.key_value(name)
        except BucketNotFoundError:
            bucket = await js.create_key_value(bucket=name, ttl=ttl, history=1)
        return cls(bucket, node)

    async def acquire(self, table_id: str) -> Lease | None:
        """The table's lease for this node, or ``None`` while another node holds it."""
        try:
            revision = await self._bucket.create(_key(table_id), self.node.encode())
        except KeyWrongLastSequenceError:
            return None
        return Lease(table_id, self.node, term=revision, revision=revision)

    async def renew(self, lease: Lease) -> Lease:
        """The same tenure, written again so that it lives another ``ttl``; :class:`LeaseLost` if it moved."""
        try:
            revision = await self._bucket.update(
                _key(lease.table_id), self.node.encode(), last=lease.revision
            )
        except (KeyWrongLastSequenceError, KeyNotFoundError) as lost:
            raise LeaseLost(f"table {lease.table_id}: lease of term {lease.term} lost") from lost
        return Lease(lease.table_id, lease.node, lease.term, revision)

    async def release(self, lease: Lease) -> None:
        """Give the table up (a graceful hand-over): only if the lease is still this node's."""
        try:
            await self._bucket.delete(_key(lease.table_id), last=lease.revision)
        except APIError as refused:
            if not lost_compare_and_set(refused):
                raise  # else: already another node's, nothing of ours to release

    async def holder(self, table_id: str) -> str | None:
        """The node holding the table now, if any."""
        try:
            entry = await self._bucket.get(_key(table_id))
        except KeyNotFoundError:
            return None
        return entry.value.decode() if entry.value else None


def _key(table_id: str) -> str:
    return f"table.{table_id}"
