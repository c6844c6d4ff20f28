"""The finished records of a cluster node: in memory, and in the key-value bucket ``boneyard-records``.

Each record is written through :class:`~boneyard.server.cluster.writes.Writes` before ``game_over``
reaches anyone, so ``get_record`` answers on every node (another node's record is fetched from the
bucket: :meth:`ClusterRecords.fetch`).
"""

from __future__ import annotations

import msgpack
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from boneyard.server.cluster.writes import RECORDS, Writes
from boneyard.server.record_store import GameRecord, MemoryRecordStore, validated


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

        self._writes.write(write, f"record {record_id}", group=RECORDS)

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
