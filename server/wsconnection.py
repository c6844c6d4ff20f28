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
"""

from __future__ import annotations

from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, Frame, Opcode
from websockets.protocol import Event


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
