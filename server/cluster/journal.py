"""A table's journal in a cluster: one subject per table in one JetStream stream, appended by its owner only.

Every accepted action is appended, and acknowledged by JetStream, before anyone hears of it (the same
write-ahead rule as the single node's SQLite journal), so a node that takes a table over replays exactly
what its players saw, no more and no less.

The fence: every append says which entry it follows (``Nats-Expected-Last-Subject-Sequence``), and
JetStream refuses an append that does not follow the subject's last entry. A new owner first replays
the journal, then appends a claim (:meth:`TableJournal.claim`); from then on every append of the old
owner names an entry that is no longer the last one and is refused (:class:`Fenced`), however long
that node was paused or cut off and whatever it believes about its lease. So two nodes can never both
apply actions to one table: whoever appends second learns it is not the owner and must stop.

Entries are opaque bytes to this module (the table tier's own encoding) with a ``kind``: ``action``
for what rebuilds the table, ``claim`` for a change of owner (carrying the new owner's node and term).

Compaction: an append may be a *rollup* (:meth:`TableJournal.append` with ``rollup``): JetStream
stores it and drops every earlier entry of the subject in the same step (``Nats-Rollup: sub``), still
fenced like any append. The table tier appends one at each new game, holding all that a new owner
needs of what went before (:func:`boneyard.server.cluster.tablelog.compacted`), so a table's journal
holds one game at most, however many it plays; a removed table's journal is purged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from nats.aio.msg import Msg
from nats.js import JetStreamContext, api
from nats.js.errors import APIError, NotFoundError

from boneyard.server.cluster.cas import lost_compare_and_set

STREAM = "BONEYARD_JOURNAL"
SUBJECTS = "boneyard.journal.>"
_KIND = "Boneyard-Kind"

Kind = Literal["action", "claim"]


class Fenced(Exception):
    """Another node appended to the table's journal: this node is no longer its owner."""


@dataclass(frozen=True, slots=True)
class Entry:
    sequence: int
    """The entry's sequence in the stream (increasing, not contiguous per table)."""
    kind: Kind
    data: bytes


async def ensure_stream(js: JetStreamContext, *, memory: bool = False) -> None:
    """Create the journal stream if it does not exist (file storage unless ``memory``)."""
    storage = api.StorageType.MEMORY if memory else api.StorageType.FILE
    try:
        await js.stream_info(STREAM)
    except NotFoundError:
        await js.add_stream(name=STREAM, subjects=[SUBJECTS], storage=storage, allow_rollup_hdrs=True)


class TableJournal:
    """The journal of one table, as its owner appends to it."""

    def __init__(self, js: JetStreamContext, table_id: str, entries: Sequence[Entry]) -> None:
        self._js = js
        self.table_id = table_id
        self.subject = f"boneyard.journal.{table_id}"
        self.entries: list[Entry] = list(entries)
        self._last = entries[-1].sequence if entries else 0

    @classmethod
    async def open(cls, js: JetStreamContext, table_id: str) -> TableJournal:
        """The table's journal with every entry it holds, in order (none for a new table)."""
        return cls(js, table_id, await _read_all(js, f"boneyard.journal.{table_id}"))

    @property
    def last_sequence(self) -> int:
        return self._last

    async def append(self, data: bytes, kind: Kind = "action", *, rollup: bool = False) -> Entry:
        """Append after the last entry this node knows of; :class:`Fenced` if someone else appended since.
        A ``rollup`` replaces every earlier entry of the table."""
        headers = {api.Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(self._last), _KIND: kind}
        if rollup:
            headers[api.Header.ROLLUP] = "sub"
        try:
            ack = await self._js.publish(self.subject, data, headers=headers)
        except APIError as refused:
            if lost_compare_and_set(refused):
                raise Fenced(
                    f"table {self.table_id}: another node appended after entry {self._last}"
                ) from refused
            raise
        entry = Entry(ack.seq, kind, data)
        self._last = ack.seq
        if rollup:
            self.entries = [entry]
        else:
            self.entries.append(entry)
        return entry

    async def claim(self, data: bytes) -> Entry:
        """Become the only writer: a claim after the entries replayed (``data``: who, which term)."""
        return await self.append(data, "claim")

    async def remove(self) -> None:
        """The table is gone: drop its journal (every entry of its subject)."""
        await self._js.purge_stream(STREAM, subject=self.subject)


async def _read_all(js: JetStreamContext, subject: str) -> list[Entry]:
    try:
        last_message = await js.get_last_msg(STREAM, subject)
    except NotFoundError:
        return []
    last = last_message.seq or 0
    entries: list[Entry] = []
    done = asyncio.get_running_loop().create_future()

    async def take(msg: Msg) -> None:
        sequence = msg.metadata.sequence.stream
        kind = (msg.headers or {}).get(_KIND, "action")
        entries.append(Entry(sequence, "claim" if kind == "claim" else "action", msg.data))
        if sequence >= last and not done.done():
            done.set_result(None)

    subscription = await js.subscribe(
        subject, cb=take, ordered_consumer=True, deliver_policy=api.DeliverPolicy.ALL
    )
    try:
        await done
    finally:
        await subscription.unsubscribe()
    return [entry for entry in entries if entry.sequence <= last]
