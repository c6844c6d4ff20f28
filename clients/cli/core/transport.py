"""The byte pipe under the client: one binary frame in, one binary frame out.

The client core talks to a :class:`Transport`, not to a websocket library, so the same
core runs over a real socket (:func:`websocket_connector`) or anything else that moves
frames (a test double, a browser bridge). A transport reports the end of the connection
by raising :class:`TransportClosed` with the close code, which decides whether to
reconnect and resume (PROTOCOL.md section 9).
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import Protocol

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Subprotocol

from boneyard.protocol import SERVER_LIMITS, SUBPROTOCOL

ABNORMAL_CLOSURE = 1006
"""What websockets (and browsers) report when the connection dropped without a close frame."""


class TransportClosed(Exception):
    """The connection ended; ``code`` is the websocket close code (1006: it just dropped)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"connection closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


class Transport(Protocol):
    """A connected frame pipe."""

    async def send(self, frame: bytes) -> None:
        """Send one binary frame; raises :class:`TransportClosed` if the connection is gone."""
        ...

    async def recv(self) -> bytes | str:
        """The next frame (``str`` for a text frame, which a Boneyard server never sends)."""
        ...

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the connection (idempotent)."""
        ...


Connector = Callable[[str], Awaitable[Transport]]
"""Opens a transport to a URL; raises ``OSError`` (or a subclass) when it cannot."""


class WebSocketTransport:
    """A :class:`Transport` over a ``websockets`` client connection."""

    def __init__(self, ws: ClientConnection) -> None:
        self._ws = ws

    @staticmethod
    def _closed(error: websockets.ConnectionClosed) -> TransportClosed:
        frame = error.rcvd
        return TransportClosed(frame.code if frame else ABNORMAL_CLOSURE, frame.reason if frame else "")

    async def send(self, frame: bytes) -> None:
        try:
            await self._ws.send(frame)
        except websockets.ConnectionClosed as error:
            raise self._closed(error) from None

    async def recv(self) -> bytes | str:
        try:
            return await self._ws.recv()
        except websockets.ConnectionClosed as error:
            raise self._closed(error) from None

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self._ws.close(code, reason)


OPEN_SECONDS = 10
"""How long opening a connection (TCP and the websocket handshake) may take."""


class CannotConnect(ConnectionError):
    """The connection could not be opened; the message says where and why, in words, whole."""


async def websocket_connector(url: str) -> Transport:
    """Open a websocket offering the ``boneyard.v1`` subprotocol (PROTOCOL.md section 1)."""
    try:
        ws = await websockets.connect(
            url,
            subprotocols=[Subprotocol(SUBPROTOCOL)],
            max_size=SERVER_LIMITS.max_frame_bytes,
            # The server pings us (hello.heartbeat_seconds) and websockets answers by itself;
            # our own pings would only add traffic.
            ping_interval=None,
            open_timeout=OPEN_SECONDS,
        )
    except (websockets.InvalidHandshake, websockets.InvalidURI, OSError) as error:
        raise CannotConnect(f"cannot connect to {url}: {_in_words(error)}") from error
    return WebSocketTransport(ws)


def _in_words(error: Exception) -> str:
    """Why a connection could not be opened, said for a person rather than as an errno."""
    if isinstance(error, ConnectionRefusedError):
        return "nothing answers there (is the server running, and on that port?)"
    if isinstance(error, socket.gaierror):
        return "no such host (check the address)"
    if isinstance(error, TimeoutError):
        return f"no answer within {OPEN_SECONDS} seconds"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
