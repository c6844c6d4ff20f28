"""The one exception a command handler raises to refuse a command: it becomes an ``error`` reply."""

from __future__ import annotations

from typing import TypeGuard, get_args

from boneyard.protocol import ErrorCode

_ERROR_CODES = frozenset(get_args(ErrorCode))


def is_error_code(code: str) -> TypeGuard[ErrorCode]:
    """Whether ``code`` is one the spec documents (an engine's refusal carries its own, as a string).

    >>> is_error_code("not_your_turn"), is_error_code("no_such_code")
    (True, False)
    """
    return code in _ERROR_CODES


class CommandError(Exception):
    """Refuse the command being handled: nothing changed; the client gets ``error`` with ``code``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
