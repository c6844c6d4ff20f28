"""Writing frames to sockets without awaiting, with a bounded send queue per connection.

Why not ``await websocket.send()``: a table sends to every connection at it from one synchronous
step, and awaiting each send would let one slow reader stall the table. Why not a queue and a
writer task per connection: a task per connection costs memory (the aim is under 30 KiB a
connection) and a task switch per message. So frames are written like websockets' ``broadcast()``
does, straight into the transport, and the backpressure ``broadcast()`` lacks is added here: the
frames still waiting in a connection's transport buffer are counted, and a connection with more
than ``send_queue_frames`` waiting is closed with 4004. Memory per connection is thereby bounded
by that many frames.

Frames are also batched: a connection's frames of one event-loop step go out in one
``transport.write`` (one system call), flushed by :meth:`Outbox.flush` at the end of each command
and, for timers, on the next loop iteration.

On a durable server the outbox has a :class:`Gate` (the database journal): while writes are not
yet committed, a flush holds the frames and writes them once everything written before them is
committed (write-ahead), in order; a close frame waits behind the frames queued before it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Protocol

from boneyard.server.wsconnection import BoneyardConnection


def ws_header(size: int) -> bytes:
    """The header of an unmasked, final, binary websocket frame of ``size`` bytes (RFC 6455 5.2).

    >>> ws_header(5), ws_header(300)
    (b'\\x82\\x05', b'\\x82~\\x01,')
    """
    if size < 126:
        return _SHORT_HEADERS[size]
    if size < 65536:
        return b"\x82\x7e" + size.to_bytes(2, "big")
    return b"\x82\x7f" + size.to_bytes(8, "big")


_SHORT_HEADERS = [bytes((0x82, size)) for size in range(126)]
"""The headers of short frames (most of them), made once: a header is made for every frame sent."""


class Gate(Protocol):
    """What frames wait for: the commit of every database write made before them."""

    def pending(self) -> bool:
        """Some write is not committed yet."""
        ...

    def broken(self) -> bool:
        """A commit failed: what waits for it is never sent."""
        ...

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once every write made so far is committed."""
        ...

    async def committed(self) -> None:
        """Wait until every write made so far is committed."""
        ...


class Outbox:
    """The connections with frames waiting to be written in this loop step."""

    __slots__ = ("_dirty", "_loop", "_scheduled", "gate")

    def __init__(self, loop: asyncio.AbstractEventLoop, gate: Gate | None = None) -> None:
        self._loop = loop
        self._dirty: list[FrameWriter] = []
        self._scheduled = False
        self.gate = gate
        """Durability: frames wait for the commit of every write made before them."""

    def mark(self, writer: FrameWriter) -> None:
        self._dirty.append(writer)
        if not self._scheduled:
            # One pending flush per loop pass at most, however many commands flush meanwhile: frames
            # queued outside a command (by a timer) are written on the next pass.
            self._scheduled = True
            self._loop.call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        self._scheduled = False
        self.flush()

    def flush(self) -> None:
        """Write every waiting connection's frames (one write each), or hold them for the commit of
        the writes made before them."""
        gate = self.gate
        if gate is not None and gate.pending():
            held = [(writer, out) for writer in self._dirty if (out := writer.take()) is not None]
            self._dirty = []
            if held and not gate.broken():
                gate.after_commit(partial(_write_held, held))
            return
        while self._dirty:
            dirty, self._dirty = self._dirty, []
            for writer in dirty:
                writer.flush()

    def then(self, writer: FrameWriter, callback: Callable[[], None]) -> None:
        """Write ``writer``'s queued frames, then call ``callback`` (a close frame follows them)."""
        gate = self.gate
        if gate is None or not gate.pending():
            writer.flush()
            callback()
            return
        out = writer.take()
        if gate.broken():
            callback()  # the frames are dropped, the close frame goes
            return
        gate.after_commit(partial(_write_held, [(writer, out)] if out is not None else [], callback))

    async def written(self) -> None:
        """Wait until every frame queued so far is written (held ones once their commit is done)."""
        if self.gate is not None:
            await self.gate.committed()


Held = list[tuple["FrameWriter", list[bytes]]]


def _write_held(held: Held, then: Callable[[], None] | None = None) -> None:
    for writer, out in held:
        writer.write_frames(out)
    if then is not None:
        then()


class FrameWriter:
    """The sending half of a connection: batches frames, writes them, counts what is still queued."""

    __slots__ = ("_appended", "_out", "_queued", "closing", "outbox", "queue_limit", "ws")

    def __init__(self, ws: BoneyardConnection, outbox: Outbox, queue_limit: int) -> None:
        self.ws = ws
        self.outbox = outbox
        self.queue_limit = queue_limit
        self.closing = False
        self._out: list[bytes] | None = None
        self._queued: deque[int] | None = None
        """End offsets (in bytes passed to the transport) of our frames possibly still in its buffer."""
        self._appended = 0

    def write(self, frame: bytes) -> None:
        """Queue one encoded message; it is written at the end of this loop step."""
        if self.closing:
            return
        out = self._out
        if out is None:
            self._out = [ws_header(len(frame)), frame]
            self.outbox.mark(self)
        else:
            out.append(ws_header(len(frame)))
            out.append(frame)

    def take(self) -> list[bytes] | None:
        """The queued frames (websocket header, frame, header, ...), now no longer queued."""
        out, self._out = self._out, None
        return out

    def flush(self) -> None:
        out = self.take()
        if out is not None:
            self.write_frames(out)

    def write_frames(self, out: list[bytes]) -> None:
        """Write frames taken from the queue, in one ``transport.write``."""
        ws = self.ws
        if not ws.writable():
            return
        before, after = ws.write_raw(b"".join(out))
        if after == 0 and self._queued is None:
            return  # the common case: everything reached the socket
        self._count_queued(out, before, after)

    def _count_queued(self, out: list[bytes], before: int, after: int) -> None:
        # Bytes passed to the transport = bytes sent + bytes still buffered, so the bytes sent so far
        # are ``appended - buffered``; a frame ending at or before that offset has left the server.
        queued = self._queued
        if queued is None or before == 0:
            queued = self._queued = deque()
            self._appended = before  # whatever was buffered before (pings) is not ours
        end = self._appended
        for i in range(0, len(out), 2):
            end += len(out[i]) + len(out[i + 1])
            queued.append(end)
        self._appended = end
        sent = end - after
        while queued and queued[0] <= sent:
            queued.popleft()
        if not queued:
            self._queued = None
        elif len(queued) > self.queue_limit:
            self.too_slow()

    def too_slow(self) -> None:
        """The client reads too slowly: close it (overridden to log and count)."""
        self.close(4004, "too slow: the send queue is full")

    def close(self, code: int, reason: str, timeout: float = 2.0) -> None:
        """Send what is queued, then a close frame; drop the TCP connection if the client does not answer.

        Synchronous, so a table or a flood never waits on a client's close handshake.
        """
        if self.closing:
            return
        self.closing = True  # no more frames; those queued go first (after their commit, if durable)
        self.outbox.then(self, partial(self._send_close, code, reason, timeout))

    def _send_close(self, code: int, reason: str, timeout: float) -> None:
        self._queued = None
        ws = self.ws
        ws.close_now(code, reason)
        ws.loop.call_later(timeout, ws.abort_unless_closed)
