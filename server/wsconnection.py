"""websockets' server connection, adapted: frames go straight to their handler, pongs are noted.

**Direct dispatch.** websockets hands every message through an assembler queue to a coroutine
awaiting ``recv()``: per command, a queued frame, a future, a new ``recv`` coroutine and a task
step, and objects that live until the next command (at 10,000 connections, tens of thousands of
them, which every garbage collection walks). Our commands are single binary frames handled
synchronously, so :meth:`BoneyardConnection.process_event` calls ``direct(data)`` as each one is
parsed, and the connection's coroutine only waits for the rest: text frames and fragmented
messages (which take websockets' ordinary path) and the close.

Order is kept: a frame goes direct only while no message waits in the assembler (``queued``
counts those not yet taken by ``recv()``), so a direct frame never overtakes an earlier one.

**The one module that touches websockets' internals.** ``process_event``, ``acknowledge_pings``,
``send_data``, the sans-I/O ``protocol`` and the ``transport`` are websockets' implementation, not
its documented API, so they are used here only, behind the small methods below (the outbox writes
frames, closes and aborts through them; the heartbeat pings through them). ``pyproject.toml`` pins
websockets to the major version this was tested with (17.x): a new major version is checked here.
"""

from __future__ import annotations

from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, Frame, Opcode
from websockets.protocol import Event, State


class BoneyardConnection(ServerConnection):
    """A server connection with direct dispatch of binary frames and a flag for the heartbeat."""

    ponged = True
    """A pong arrived since the last heartbeat ping (or none was sent yet)."""
    direct: Callable[[bytes], None] | None = None
    """Handles each complete binary frame as it is parsed; ``None``: everything goes to ``recv()``."""
    queued = 0
    """Complete messages handed to the assembler and not yet returned by ``recv()``."""

    def process_event(self, event: Event) -> None:
        if isinstance(event, Frame) and event.opcode in DATA_OPCODES:
            handler = self.direct
            if handler is not None and event.fin and event.opcode is Opcode.BINARY and not self.queued:
                handler(bytes(event.data))
                return
            if event.fin:
                self.queued += 1
        super().process_event(event)

    async def recv_queued(self) -> bytes | str:
        """The next message that took the ordinary path (raises ``ConnectionClosed`` at the close)."""
        message = await self.recv()
        self.queued -= 1
        return message

    def acknowledge_pings(self, data: bytes) -> None:
        self.ponged = True
        super().acknowledge_pings(data)

    # -- what the rest of the server uses instead of websockets' internals -------------------------

    def is_open(self) -> bool:
        """The websocket is open (its closing handshake has not started)."""
        return self.protocol.state is State.OPEN

    def writable(self) -> bool:
        """The websocket is open and its transport takes writes."""
        return self.protocol.state is State.OPEN and not self.transport.is_closing()

    def write_raw(self, data: bytes) -> tuple[int, int]:
        """Write already framed bytes straight to the transport; the transport's write buffer size
        before and after (what the outbox counts to bound a slow reader's queue)."""
        transport = self.transport
        before = transport.get_write_buffer_size()
        transport.write(data)
        return before, transport.get_write_buffer_size()

    def close_now(self, code: int, reason: str) -> None:
        """Send a close frame at once, without awaiting the closing handshake (if still open)."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code, reason)
            self.send_data()

    def ping_now(self) -> bool:
        """Send a heartbeat ping at once and clear ``ponged``; ``False`` if the connection is not open."""
        if self.protocol.state is not State.OPEN:
            return False
        self.ponged = False
        self.protocol.send_ping(b"hb")
        self.send_data()
        return True

    def abort(self) -> None:
        """Drop the TCP connection at once."""
        self.transport.abort()

    def abort_unless_closed(self) -> None:
        """Drop the TCP connection unless the closing handshake already finished."""
        if self.protocol.state is not State.CLOSED:
            self.transport.abort()

    def socket_option(self, level: int, option: int, value: int) -> None:
        """Set an option on the connection's socket (if it has one)."""
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(level, option, value)
