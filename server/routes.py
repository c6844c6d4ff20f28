"""The seam's types: what a connection is to the table tier (:class:`Link`), what crosses it
(:data:`Command`), and a typed table of handlers (:class:`Route`), one per command type.

A handler is typed by the command model it handles, and :class:`Route` pairs the two: a handler given
a route for another model is a type error (mypy), and a command of another model reaching it is a
``TypeError`` (never a wrong attribute read half-way through a handler).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

from boneyard.protocol import ClientCommand
from boneyard.protocol.codec import HotAct
from boneyard.server.session import Session

Command: TypeAlias = ClientCommand | HotAct
"""What the socket tier hands the seam: a validated command model, or an ``act`` off the fast path."""

F = TypeVar("F", contravariant=True)
"""What a handler is given of the seam (the seam itself, or a protocol of the parts it uses)."""
C = TypeVar("C")
"""The command model a handler handles."""


@runtime_checkable
class Link(Protocol):
    """One connection as the table tier sees it. The table tier keeps ``session`` (once identified)
    and ``seq`` (the numbering before that) on it; the socket tier writes and closes."""

    session: Session | None
    seq: int

    def write(self, frame: bytes) -> None:
        """Queue one complete frame for the client."""
        ...

    def close_with(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` (after the frames queued before)."""
        ...

    def peer(self) -> str | None:
        """Who is on the other end, for logs."""
        ...

    def client_address(self) -> str:
        """The client's address (what per-address quotas count)."""
        ...

    def charge(self, reply_bytes: int) -> None:
        """Meter a big reply as commands (the one signal back to the socket tier's token bucket)."""
        ...


class Handler(Protocol[F]):
    """A handler of any command, as the dispatch calls it (a :class:`Route`)."""

    def __call__(self, front: F, link: Link, session: Session, command: Command) -> None: ...


class Route(Generic[F, C]):
    """A command type's handler ``run``, for commands of ``models`` (``act``: the model and the fast
    path's ``HotAct``; write ``Route[Front, Act | HotAct](...)`` for two)."""

    __slots__ = ("models", "run")

    def __init__(self, models: tuple[type[C], ...], run: Callable[[F, Link, Session, C], None]) -> None:
        self.models = models
        self.run = run

    def __call__(self, front: F, link: Link, session: Session, command: Command) -> None:
        if not isinstance(command, self.models):
            raise TypeError(f"{type(command).__name__} routed to a handler of {self.models}")
        self.run(front, link, session, command)
