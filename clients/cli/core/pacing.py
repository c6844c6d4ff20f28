"""Timing policies: how soon to reconnect, and how fast to send.

>>> delays = Backoff(first=1, cap=30, jitter=0).delays()
>>> [next(delays) for _ in range(7)]
[1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Backoff:
    """Reconnect delays: ``first`` seconds, doubling up to ``cap``, each scaled by ±``jitter``."""

    first: float = 1.0
    cap: float = 30.0
    jitter: float = 0.25

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            # Jitter keeps a crowd of clients dropped together from coming back together.
            yield delay * random.uniform(1 - self.jitter, 1 + self.jitter)
            delay = min(self.cap, delay * 2)


class Pacer:
    """A token bucket matching ``hello.limits``, so the server never has to refuse us ``rate_limited``.

    The server meters commands with ``command_burst`` tokens refilled at ``commands_per_second``
    (PROTOCOL.md section 2); a bot answering its turns at once would exceed that. Keeping a
    small margin below the server's numbers absorbs clock differences.
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate * 0.9
        self.burst = max(1.0, burst - 2.0)
        self._tokens = self.burst
        self._stamp = time.monotonic()

    async def acquire(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / self.rate)
            self._tokens, self._stamp = 1.0, time.monotonic()
        self._tokens -= 1
