"""One websocket connection: the socket tier's half of the protocol.

A :class:`SocketLink` sends ``hello`` (through the table tier, which numbers it), enforces the handshake
time, meters every frame with a token bucket, decodes it (bounded msgpack, strict pydantic; an
``act`` on a fast path as strict: :func:`~boneyard.protocol.codec.decode_hot`), and hands the
typed command, or its refusal, to :class:`~boneyard.server.commands.CommandSeam`: the seam to the
table tier. What comes back are frames (written through the batching outbox) and closes.
The connection is the table tier's :class:`~boneyard.server.commands.Link` itself: in one process
the seam costs no copy and no extra object.

Close codes decided here (PROTOCOL.md sections 2 and 7): 4000 (no subprotocol), 4006 (no identify
within the handshake time, or unanswered pings), 1008 (text frames, too many undecodable frames),
4005 (flooding), 4004 (too slow a reader); the table tier's (4001, 4002, 4003, 1012) come through
:meth:`SocketLink.close_with`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import get_args

from websockets.exceptions import ConnectionClosed

from boneyard.protocol import SUBPROTOCOL, DecodeLimits, ProtocolError, RefusalCode
from boneyard.protocol.codec import decode_hot
from boneyard.server.commands import Command, CommandSeam
from boneyard.server.logs import ids
from boneyard.server.meter import TokenBucket
from boneyard.server.metrics import Metrics
from boneyard.server.outbox import FrameWriter, Outbox
from boneyard.server.proxies import TrustedProxies
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.wsconnection import BoneyardConnection

log = logging.getLogger("boneyard.connection")

REFUSALS: frozenset[str] = frozenset(get_args(RefusalCode))
"""Decode errors of well-formed commands (``invalid_options``, ``no_such_seat``)."""

BAD_FRAMES = 10
"""Undecodable frames tolerated (leaking one a second) before closing with 1008."""


@dataclass(slots=True)
class ServerContext:
    """What every connection shares: one object, so a connection costs one reference for all of it."""

    commands: CommandSeam
    settings: Settings
    metrics: Metrics
    outbox: Outbox
    limits: DecodeLimits
    proxies: TrustedProxies


class SocketLink(FrameWriter):
    """A connection: its meters (socket tier), and its session and ``seq`` (kept by the table tier)."""

    __slots__ = ("_address", "_bad", "_bucket", "_stamp", "_strikes", "ctx", "seq", "session")

    def __init__(self, ws: BoneyardConnection, ctx: ServerContext) -> None:
        settings = ctx.settings
        super().__init__(ws, ctx.outbox, settings.send_queue_frames)
        self.ctx = ctx
        self.session: Session | None = None
        self.seq = 0
        now = time.monotonic()
        self._bucket = TokenBucket(settings.command_burst, settings.commands_per_second, now)
        self._strikes = 0.0
        self._bad = 0.0
        self._stamp = now
        peer = self._peer_host()
        self._address = ctx.proxies.client(peer, ws.request.headers) if ctx.proxies and ws.request else peer
        """The client's address: the peer's, or whom a trusted proxy forwards for (server.proxies)."""

    def close_with(self, code: int, reason: str) -> None:
        if not self.closing:
            self.ctx.metrics.closed(code)
            log.info("closing: %s", reason, extra=ids(peer=self.peer(), code=code))
            self.close(code, reason, self.ctx.settings.close_seconds)

    def too_slow(self) -> None:
        self.close_with(4004, "too slow: the send queue is full")

    def client_address(self) -> str:
        """The client's IP address, which per-address quotas count (behind a trusted proxy: as it says)."""
        return self._address

    def _peer_host(self) -> str:
        address = self.ws.remote_address
        return str(address[0]) if isinstance(address, tuple) and address else str(address)

    def peer(self) -> str | None:
        player = self.session.player_id if self.session is not None else None
        return player or self.address()

    def address(self) -> str:
        """The peer as ``host:port`` (``[host]:port`` for IPv6), after the client's address when a trusted
        proxy named it: ``198.51.100.7 via 10.0.0.2:41000``."""
        address = self.ws.remote_address
        if not isinstance(address, tuple) or len(address) < 2:
            return str(address)
        host = str(address[0])
        peer = f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
        return peer if self._address == host else f"{self._address} via {peer}"

    def charge(self, reply_bytes: int) -> None:
        """A reply of ``reply_bytes`` costs one more command per ``reply_bytes_per_command`` bytes (issue
        #15: fetching big replies in a loop must not be cheaper than sending commands). The bucket may go
        below zero: the commands after wait until it refills."""
        self._bucket.charge(reply_bytes // self.ctx.settings.reply_bytes_per_command)

    # -- the connection's life ------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it closes; a dropped seated session waits for a resume."""
        ws = self.ws
        ctx = self.ctx
        if ws.subprotocol != SUBPROTOCOL:
            self.close_with(4000, f"offer the websocket subprotocol {SUBPROTOCOL}")
            return
        ctx.commands.connected(self)
        ctx.outbox.flush()
        handshake = ws.loop.call_later(ctx.settings.handshake_seconds, self._handshake_over)
        ws.direct = self._direct  # frames are handled as they are parsed (server.wsconnection)
        try:
            while not self.closing:
                self.handle(await ws.recv_queued(), time.perf_counter())
        except ConnectionClosed:
            pass
        finally:
            handshake.cancel()
            ws.direct = None
            code = ws.close_code if ws.close_code is not None else 1006
            player = self.session.player_id if self.session is not None else None
            log.info("disconnected", extra=ids(peer=self.address(), player_id=player, code=code))
            self.gone()

    def _direct(self, frame: bytes) -> None:
        if self.closing:
            return  # what a closing connection still sends is not read
        try:
            self.handle(frame, time.perf_counter())
        except Exception:  # never into websockets' parser: it would drop the connection's events
            log.exception("a frame failed", extra=ids(peer=self.peer()))
            self.close_with(1011, "the server failed")

    def _handshake_over(self) -> None:
        if self.session is None and not self.closing:
            self.close_with(4006, "no identify within the handshake time")

    def gone(self) -> None:
        """The socket is closed: the table tier hears of it (a session keeps its seats for a while)."""
        self.closing = True
        self.ctx.commands.disconnected(self)

    def handle(self, frame: str | bytes, started: float) -> None:
        """One frame: meter, decode, hand over, then write everything it caused."""
        ctx = self.ctx
        if isinstance(frame, str):
            self.close_with(1008, "text frames are not accepted: send msgpack in binary frames")
            return
        command: Command | ProtocolError
        try:
            command = decode_hot(frame, ctx.limits)
            reply_to = command.id
        except ProtocolError as error:
            command, reply_to = error, error.reply_to
        if not self._admit():
            ctx.commands.refuse(self, "rate_limited", "too many commands: slow down", reply_to)
            if self._strikes > ctx.settings.command_burst:
                self.close_with(4005, "commands kept exceeding the rate limit")
        elif isinstance(command, ProtocolError):
            identified = ctx.commands.refuse(self, command.code, command.message, reply_to)
            if identified and command.code not in REFUSALS:  # a well-formed command refused is no bad frame
                self._bad_frame()
        else:
            ctx.commands.handle(self, command)
        ctx.outbox.flush()
        ctx.metrics.latency.observe(time.perf_counter() - started)

    def _admit(self) -> bool:
        """The token bucket: ``command_burst`` tokens refilled at ``commands_per_second``.

        Refused commands are strikes, leaking ``command_burst`` per 10 s: a client that keeps
        exceeding the rate piles them up and is closed.
        """
        now = time.monotonic()
        elapsed, self._stamp = now - self._stamp, now
        self._strikes = max(0.0, self._strikes - elapsed * self.ctx.settings.command_burst / 10)
        self._bad = max(0.0, self._bad - elapsed)
        if self._bucket.take(now):
            return True
        self._strikes += 1
        return False

    def _bad_frame(self) -> None:
        self._bad += 1
        if self._bad > BAD_FRAMES:
            self.close_with(1008, "too many undecodable frames")
