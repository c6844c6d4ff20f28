"""What a :class:`~.session.Client` hands its listeners besides the server's messages: :class:`Notice`
about the connection itself; and the subscriptions (:class:`Listeners`) that carry both, in order."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from typing import Any, Literal

from boneyard.clients.cli.core.transport import ABNORMAL_CLOSURE
from boneyard.protocol import CLOSE_CODES

NoticeKind = Literal["disconnected", "reconnecting", "resumed", "resume_rejected", "closed", "warning"]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something about the connection itself, delivered by :meth:`Client.listen` among the messages."""

    kind: NoticeKind
    text: str
    code: int | None = None
    """The close code, for ``disconnected`` and ``closed``."""


class Subscription:
    """An async iterator over what a :class:`Client` receives (see :meth:`Client.listen`)."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Any] = asyncio.Queue()

    def put(self, item: Any) -> None:
        self._queue.put_nowait(item)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Any:
        item = await self._queue.get()
        if item is None:
            self._queue.put_nowait(None)  # stay ended for any later call
            raise StopAsyncIteration
        return item


class Listeners:
    """Every live subscription: a subscription nobody holds any more is dropped, so an abandoned one
    costs nothing."""

    def __init__(self) -> None:
        self._subscriptions: weakref.WeakSet[Subscription] = weakref.WeakSet()
        self.ended = False

    def subscribe(self) -> Subscription:
        subscription = Subscription()
        self._subscriptions.add(subscription)
        if self.ended:
            subscription.put(None)
        return subscription

    def notify(self, item: Any) -> None:
        for subscription in list(self._subscriptions):
            subscription.put(item)

    def end(self) -> None:
        """The end of every subscription, now and to come."""
        self.ended = True
        self.notify(None)


def close_text(code: int, reason: str = "") -> str:
    """A close code in words: ``4002 resume_rejected: ...``."""
    info = CLOSE_CODES.get(code)
    words = info.meaning if info else ("the connection dropped" if code == ABNORMAL_CLOSURE else "")
    name = f"{code} {info.name}" if info else str(code)
    return f"{name}: {reason or words}".rstrip(": ")
