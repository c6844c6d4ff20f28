"""What every node of a cluster must see alike: a map of keys to opaque values in a NATS key-value bucket.

Two of them make the cluster-wide lobby: the table directory (a table's public description and its
owner, written by the owner, watched by every node so that each lists every table and pushes every
change) and the resume tokens (so that a player whose node died resumes through any other node).

A :class:`Directory` keeps a local mirror, fed by a watch on the whole bucket, so reads are
dictionary look-ups and never wait on the network; :meth:`Directory.changes` yields each change as it
arrives, removals as ``None``. Writes go to NATS and come back through the watch like anyone's; a
reader that must see a write acknowledged elsewhere a moment ago waits for :meth:`Directory.caught_up`.

A removal leaves a delete marker in the bucket (every watcher must see it: a mirror drops the key);
markers would pile up, one for every table that ever ended, so :meth:`Directory.sweep` purges the
ones older than a bound (each watcher has long seen them): only the marker, never a later value of
the key (the purge stops at the marker's own sequence).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import Callable

from nats.js import JetStreamContext
from nats.js.errors import (
    APIError,
    BucketNotFoundError,
    KeyNotFoundError,
    KeyWrongLastSequenceError,
)
from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

from boneyard.server.cluster.cas import lost_compare_and_set

Change = tuple[str, bytes | None]
"""A key and its new value, or ``None`` when it was removed."""


def key_part(text: str) -> str:
    """``text`` as a part of a key (base64url: any text, a name in any script, makes a valid key).

    >>> key_part("Ana"), from_key_part(key_part("\u0430na")) == "\u0430na"
    ('QW5h', True)
    """
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def from_key_part(part: str) -> str:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode()


async def purge_key(js: JetStreamContext, bucket: str, key: str, *, before: int | None = None) -> None:
    """Take ``key``'s messages out of the bucket's stream, leaving no marker (a delete or a KV purge
    writes one); with ``before``, only those with a lower sequence (a later value stays)."""
    await js.purge_stream(f"KV_{bucket}", seq=before, subject=f"$KV.{bucket}.{key}")


class Directory:
    """A bucket of keys every node sees, mirrored locally."""

    def __init__(self, js: JetStreamContext, name: str, bucket: KeyValue) -> None:
        self._js = js
        self._name = name
        self._bucket = bucket
        self._markers: dict[str, tuple[int, float]] = {}
        """The keys whose last change was a removal: the marker's sequence, and when it was seen."""
        self.entries: dict[str, bytes] = {}
        self._listeners: list[asyncio.Queue[Change]] = []
        self._watcher: KeyValue.KeyWatcher | None = None
        self._feed: asyncio.Task[None] | None = None
        self._seen = 0
        """The bucket's last revision the watch delivered."""
        self._catching: list[tuple[int, asyncio.Future[None]]] = []
        """Who waits for the watch to deliver a revision (:meth:`caught_up`)."""

    @classmethod
    async def open(cls, js: JetStreamContext, name: str) -> Directory:
        """The bucket ``name`` (created if missing), its mirror filled before this returns."""
        try:
            bucket = await js.key_value(name)
        except BucketNotFoundError:
            bucket = await js.create_key_value(bucket=name, history=1)
        directory = cls(js, name, bucket)
        await directory._start()
        return directory

    async def _start(self) -> None:
        self._watcher = await self._bucket.watchall()
        # The watch first replays the bucket, then yields None once caught up (nats-py leaves it untyped).
        catching_up = self._watcher.updates
        while (entry := await catching_up(timeout=10)) is not None:  # type: ignore[no-untyped-call]
            self._apply(entry)
        self._feed = asyncio.get_running_loop().create_task(self._follow(self._watcher))

    async def _follow(self, watcher: KeyValue.KeyWatcher) -> None:
        async for entry in watcher:
            if entry is not None:
                self._apply(entry)

    def _apply(self, entry: KeyValue.Entry) -> None:
        value = None if entry.operation in (KV_DEL, KV_PURGE) else (entry.value or b"")
        if value is None:
            self.entries.pop(entry.key, None)
            self._markers[entry.key] = (entry.revision or 0, time.monotonic())
        else:
            self.entries[entry.key] = value
            self._markers.pop(entry.key, None)
        for queue in self._listeners:
            queue.put_nowait((entry.key, value))
        self._seen = max(self._seen, entry.revision or 0)
        if self._catching:
            waiting = self._catching
            self._catching = [(target, f) for target, f in waiting if target > self._seen]
            for target, future in waiting:
                if target <= self._seen and not future.done():
                    future.set_result(None)

    async def caught_up(self, timeout: float) -> bool:
        """Wait until the watch has delivered every change the bucket held when asked: a write
        acknowledged anywhere before this call is in :attr:`entries` and told to the listeners once it
        returns. ``False``: not within ``timeout`` seconds (a change purged before the watch delivered
        it is never delivered; the caller goes on with what it has)."""
        status = await self._bucket.status()
        target = status.stream_info.state.last_seq
        if target <= self._seen:
            return True
        future = asyncio.get_running_loop().create_future()
        self._catching.append((target, future))
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            with contextlib.suppress(ValueError):  # not woken: no waiter left behind
                self._catching.remove((target, future))
            return False
        return True

    async def put(self, key: str, value: bytes) -> int:
        """Write ``key``; its new revision."""
        return await self._bucket.put(key, value)

    async def create(self, key: str, value: bytes) -> int | None:
        """Write ``key`` if it has no value; its revision, or ``None``: it has one (someone's, maybe
        written a moment ago on another node: compare-and-set)."""
        try:
            return await self._bucket.create(key, value)
        except KeyWrongLastSequenceError:
            return None

    async def update(self, key: str, value: bytes, last: int) -> int | None:
        """Write ``key`` if its revision is still ``last``; its new revision, or ``None``: another
        writer came between (what this one meant to write is not the key's any more)."""
        try:
            return await self._bucket.update(key, value, last=last)
        except KeyWrongLastSequenceError:
            return None

    async def remove(self, key: str, last: int | None = None) -> bool:
        """Remove ``key`` (if its revision is still ``last``, when given); ``False``: another writer
        came between."""
        try:
            await self._bucket.delete(key, last=last)
        except APIError as refused:
            if not lost_compare_and_set(refused):
                raise
            return False
        return True

    async def sweep(self, older_than: float) -> int:
        """Purge the delete markers this mirror saw more than ``older_than`` seconds ago; how many.

        Each purge names the marker's sequence as its bound, so a value written to the key since
        (whatever the mirror has not seen yet) stays."""
        now = time.monotonic()
        old = [(key, seq) for key, (seq, seen) in self._markers.items() if now - seen > older_than]
        for key, seq in old:
            await purge_key(self._js, self._name, key, before=seq + 1)
            if self._markers.get(key, (0, 0.0))[0] == seq:
                del self._markers[key]
        return len(old)

    async def lookup(self, key: str) -> bytes | None:
        """The key's value in the bucket itself, not the mirror (``None``: no such key): what a node
        asks when its mirror has not caught up yet (a write acknowledged by NATS is read back here)."""
        try:
            entry = await self._bucket.get(key)
        except KeyNotFoundError:
            return None
        return None if entry.value is None else entry.value

    async def revision(self, key: str) -> tuple[bytes, int] | None:
        """The key's value in the bucket and its revision (``None``: no such key)."""
        try:
            entry = await self._bucket.get(key)
        except KeyNotFoundError:
            return None
        return entry.value or b"", entry.revision or 0

    async def stored_keys(self, pattern: str) -> list[str]:
        """The keys in the bucket itself matching ``pattern`` (NATS's wildcards: ``a.>``), sorted.
        (nats-py's ``keys(filters=...)`` matches substrings, hence a watch of the pattern's own.)"""
        watcher = await self._bucket.watch(pattern, ignore_deletes=True, meta_only=True)
        keys = []
        try:
            async for entry in watcher:  # the keys' last values, then None once caught up
                if entry is None:
                    break
                keys.append(entry.key)
        finally:
            await watcher.stop()  # type: ignore[no-untyped-call]
        return sorted(keys)

    def follow(self, apply: Callable[[str, bytes | None], None]) -> asyncio.Task[None]:
        """Call ``apply`` with every entry now, in key order, then with each change as it arrives
        (``None``: removed); the task that does (cancel it to stop)."""
        changes = self.changes()
        for key, value in sorted(self.entries.items()):
            apply(key, value)

        async def feed() -> None:
            try:
                async for key, value in changes:
                    apply(key, value)
            finally:
                changes.close()

        return asyncio.get_running_loop().create_task(feed())

    def changes(self) -> Changes:
        """Every change from this call on, in the order NATS applied them (``close()`` it when done).

        A value overwritten before the watch delivered it may be skipped (the bucket keeps one value a
        key), never a key's last one: what a mirror and the lobby's pushes need."""
        return Changes(self._listeners)

    async def close(self) -> None:
        if self._feed is not None:
            self._feed.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._feed
        if self._watcher is not None:
            await self._watcher.stop()  # type: ignore[no-untyped-call]


class Changes:
    """A directory's changes from the moment it was made: registered at once, so none is missed."""

    def __init__(self, listeners: list[asyncio.Queue[Change]]) -> None:
        self._queue: asyncio.Queue[Change] = asyncio.Queue()
        self._listeners = listeners
        listeners.append(self._queue)

    def __aiter__(self) -> Changes:
        return self

    async def __anext__(self) -> Change:
        return await self._queue.get()

    def taken(self) -> list[Change]:
        """The changes arrived but not taken yet, taken now (in order: the iteration goes on after them)."""
        changes = []
        while not self._queue.empty():
            changes.append(self._queue.get_nowait())
        return changes

    def close(self) -> None:
        if self._queue in self._listeners:
            self._listeners.remove(self._queue)
