"""Commands in flight: each gets an ``id``, and the reply carrying it as ``reply_to`` settles it.

PROTOCOL.md section 3: a command with an ``id`` gets exactly one reply, its result message
(``REPLIES``), ``ok`` or ``error``. Ids are a counter that never restarts, not even after a
reconnect, so a reply replayed on a new connection still finds its command.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any

from boneyard.clients.cli.core.rules import in_our_notation
from boneyard.protocol import ERROR_CODES, REPLIES, Error


class CommandError(Exception):
    """The server refused a command (``code`` from PROTOCOL.md section 8), or it was lost."""

    def __init__(self, code: str, message: str, command: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.command = command

    def explain(self) -> str:
        """The error in words, once: the server's message (its tiles as the client shows them), or what the
        code means in general when the server said nothing more; then the code."""
        meaning = ERROR_CODES.get(self.code, "")  # type: ignore[call-overload]
        text = in_our_notation(self.message) or meaning or self.code
        return f"{text} ({self.code})"


class ConnectionLost(CommandError):
    """The connection dropped before the reply came; the command may or may not have happened."""

    def __init__(self, command: str = "") -> None:
        super().__init__("connection_lost", "the connection dropped before the server answered", command)


class NotConnected(CommandError):
    """There is no open session to send on (connecting, reconnecting, or closed)."""

    def __init__(self, command: str = "") -> None:
        super().__init__("not_connected", "not connected to the server right now", command)


@dataclass
class _Pending:
    command: str
    expect: str
    future: asyncio.Future[Any]
    generation: int
    """Which connection the command went out on (see :meth:`PendingCommands.fail_before`)."""


class PendingCommands:
    """Futures for commands awaiting their replies, keyed by id."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}

    def next_id(self) -> int:
        """An id for a command that is awaited some other way (``identify`` during the handshake)."""
        return next(self._ids)

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, command: str, generation: int) -> tuple[int, asyncio.Future[Any]]:
        """A fresh id for a ``command`` (its ``type``) and the future its reply will settle."""
        cid = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[cid] = _Pending(command, REPLIES.get(command, "ok"), future, generation)
        return cid, future

    def discard(self, cid: int) -> None:
        self._pending.pop(cid, None)

    def settle(self, message: Any) -> bool:
        """Settle the command ``message`` answers, if it is one of ours; True if it was."""
        cid = getattr(message, "reply_to", None)
        if not isinstance(cid, int) or cid not in self._pending:
            return False
        entry = self._pending[cid]
        # A snapshot after `join` may carry the same reply_to as `seated`: only the declared
        # reply (or ok/error) settles the command.
        if message.type not in (entry.expect, "ok", "error"):
            return False
        del self._pending[cid]
        if not entry.future.done():
            if isinstance(message, Error):
                entry.future.set_exception(CommandError(message.code, message.message, entry.command))
            else:
                entry.future.set_result(message)
        return True

    def fail_before(self, generation: int) -> None:
        """Fail every command sent on a connection older than ``generation``: its reply is lost."""
        for cid, entry in list(self._pending.items()):
            if entry.generation < generation:
                del self._pending[cid]
                if not entry.future.done():
                    entry.future.set_exception(ConnectionLost(entry.command))

    def fail_all(self, error: Exception) -> None:
        for entry in self._pending.values():
            if not entry.future.done():
                entry.future.set_exception(error)
        self._pending.clear()
