"""A lean RFC 6455 websocket client on ``asyncio.Protocol``, for the load generator.

Real websocket over TCP (HTTP/1.1 upgrade, ``Sec-WebSocket-Accept`` checked, masked client frames,
ping answered with pong, close handshake), no extensions offered, so compression is off. It does
no more than a load generator needs, with one callback per message and no queue or task per
connection: the ``websockets`` library's asyncio client costs several times more CPU per frame (a
future and a queue hop per ``recv``), and on 2 cores the load generator shares the machine with the
server under test, so every microsecond it spends is one the server does not get.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
from collections.abc import Callable

try:
    from websockets.speedups import apply_mask  # C, shipped with websockets
except ImportError:  # pragma: no cover - pure-Python fallback

    def apply_mask(data: bytes | bytearray | memoryview, mask: bytes | bytearray) -> bytes:
        key = int.from_bytes((bytes(mask) * (len(data) // 4 + 1))[: len(data)], "little")
        return (int.from_bytes(data, "little") ^ key).to_bytes(len(data), "little")


GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
LOOPBACK = "127.0.0.1"


class HandshakeError(Exception):
    """The server did not answer the upgrade with a valid 101."""


class WsClient(asyncio.Protocol):
    """One client connection. ``on_message(payload)`` gets each data message; ``on_close(code)`` once."""

    def __init__(
        self,
        port: int,
        on_message: Callable[[bytes], None],
        on_close: Callable[[int | None], None],
        subprotocol: str | None = "boneyard.v1",
        path: str = "/",
    ) -> None:
        self.port = port
        self.on_message = on_message
        self.on_close = on_close
        self.subprotocol = subprotocol
        self.path = path
        self.key = base64.b64encode(os.urandom(16))
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.is_open = False
        self.close_code: int | None = None
        self.rest = b""
        self.fragments: list[bytes] = []
        self.frames_in = 0

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        lines = [
            f"GET {self.path} HTTP/1.1",
            f"Host: {LOOPBACK}:{self.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {self.key.decode()}",
            "Sec-WebSocket-Version: 13",
        ]
        if self.subprotocol:
            lines.append(f"Sec-WebSocket-Protocol: {self.subprotocol}")
        transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        if self.rest:
            data = self.rest + data
            self.rest = b""
        if not self.is_open:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.rest = data
                return
            self._check_handshake(data[:end])
            if not self.is_open:
                return
            data = data[end + 4 :]
        self._frames(data)

    def connection_lost(self, exc: Exception | None) -> None:
        was_open = self.is_open
        self.is_open = False
        if not self.opened.done():
            self.opened.set_exception(HandshakeError(f"connection lost during handshake: {exc!r}"))
        if was_open or self.close_code is not None:
            self.on_close(self.close_code)

    # -- sending

    def send(self, payload: bytes) -> None:
        """Send one binary message (masked, as a client must)."""
        if self.is_open and self.transport is not None:
            self.transport.write(_frame(0x2, payload))

    def close(self, code: int = 1000) -> None:
        """Start the closing handshake; the transport closes when the server answers (or on abort)."""
        if self.is_open and self.transport is not None:
            self.transport.write(_frame(0x8, code.to_bytes(2, "big")))

    def abort(self) -> None:
        self.is_open = False
        if self.transport is not None:
            self.transport.abort()

    # -- internals

    def _check_handshake(self, head: bytes) -> None:
        if self.opened.done():  # the answer came after the opener gave up waiting (its timeout)
            assert self.transport is not None
            self.transport.abort()
            return
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
        if not lines[0].startswith("HTTP/1.1 101") or headers.get("sec-websocket-accept") != accept:
            self.opened.set_exception(HandshakeError(f"bad upgrade answer: {lines[0]!r}"))
            assert self.transport is not None
            self.transport.abort()
            return
        self.is_open = True
        self.opened.set_result(None)

    def _frames(self, data: bytes) -> None:
        size = len(data)
        i = 0
        while size - i >= 2:
            b0 = data[i]
            length = data[i + 1]
            if length & 0x80:  # a server must not mask
                self.abort()
                return
            head = 2
            if length == 126:
                if size - i < 4:
                    break
                length = int.from_bytes(data[i + 2 : i + 4], "big")
                head = 4
            elif length == 127:
                if size - i < 10:
                    break
                length = int.from_bytes(data[i + 2 : i + 10], "big")
                head = 10
            end = i + head + length
            if end > size:
                break
            payload = data[i + head : end]
            i = end
            self.frames_in += 1
            opcode = b0 & 0x0F
            if opcode in (0x1, 0x2, 0x0):
                if not b0 & 0x80:  # a fragment: keep it until the final one
                    self.fragments.append(payload)
                    continue
                if self.fragments:
                    payload = b"".join([*self.fragments, payload])
                    self.fragments.clear()
                self.on_message(payload)
            elif opcode == 0x9 and self.transport is not None:
                self.transport.write(_frame(0xA, payload))
            elif opcode == 0x8:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                if self.transport is not None:
                    self.transport.write(_frame(0x8, payload[:2]))
                    self.transport.close()
                self.is_open = False
                return
        if i < size:
            self.rest = data[i:]


def _frame(opcode: int, payload: bytes) -> bytes:
    size = len(payload)
    mask = random.randbytes(4)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 65536:
        head = bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")
    return head + mask + apply_mask(payload, mask)


async def connect(
    port: int,
    on_message: Callable[[bytes], None],
    on_close: Callable[[int | None], None],
    bind: Callable[[WsClient], None] | None = None,
    timeout: float = 30.0,
) -> WsClient:
    """Open a websocket to ``ws://127.0.0.1:port/`` (loopback only) and wait for the upgrade.

    ``bind(client)`` runs before any byte is received: a server that speaks first (Boneyard's
    ``hello``) may be answered from ``on_message`` before this coroutine returns.
    """

    def factory() -> WsClient:
        client = WsClient(port, on_message, on_close)
        if bind is not None:
            bind(client)
        return client

    loop = asyncio.get_running_loop()
    _, client = await asyncio.wait_for(loop.create_connection(factory, LOOPBACK, port), timeout)
    await asyncio.wait_for(client.opened, timeout)
    return client
