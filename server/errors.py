"""The one exception a command handler raises to refuse a command: it becomes an ``error`` reply."""

from __future__ import annotations

from boneyard.protocol import ErrorCode


class CommandError(Exception):
    """Refuse the command being handled: nothing changed; the client gets ``error`` with ``code``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
