"""How bots move at a table: paced by the journal's commits, and tie-broken from the game's seed.

>>> bot_random("seed", 3).random() == bot_random("seed", 3).random()
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from boneyard.server.host import Cancellable, Clock


def bot_random(seed: str, moves: int) -> random.Random:
    """The bot's tie-breaker for move ``moves`` of the game dealt from ``seed``: so that a restored
    table's bots choose exactly as they would have (and a fixed ``settings.seed`` replays a whole table).
    The seed only goes in through SHA-256, so the choices reveal nothing of it."""
    return LazyRandom(bot_seed(seed, moves))


def bot_seed(seed: str, moves: int) -> bytes:
    """The seed of :func:`bot_random` (what a bot worker process seeds its generator with)."""
    return hashlib.sha256(f"bots/{seed}/{moves}".encode()).digest()


class AfterCommit:
    """A bot move waiting for the commit of the table's last action, then for its turn in the loop
    (one move per table per loop pass); cancelled like a timer handle, at either stage."""

    __slots__ = ("_callback", "_clock", "_handle")

    def __init__(self, clock: Clock, callback: Callable[[], object]) -> None:
        self._clock = clock
        self._callback: Callable[[], object] | None = callback
        self._handle: Cancellable | None = None

    def cancel(self) -> None:
        self._callback = None
        if self._handle is not None:
            self._handle.cancel()

    def __call__(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            self._handle = self._clock.call_soon(callback)


class LazyRandom(random.Random):
    """A ``random.Random`` seeded on its first draw: seeding costs some 6 µs, and most bot moves draw
    nothing (the bots use randomness to break ties only). Draws the same numbers as ``Random(seed)``.

    >>> lazy, eager = LazyRandom("s"), random.Random("s")
    >>> [lazy.random(), lazy.randrange(100), lazy.choice("abc")] == [eager.random(), eager.randrange(100),
    ...                                                               eager.choice("abc")]
    True
    """

    def __init__(self, seed: str | bytes) -> None:  # no super().__init__(): that would seed now
        self._pending: str | bytes | None = seed
        self.gauss_next = None

    def _seed_now(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            super().seed(pending)

    def seed(self, a: object = None, version: int = 2) -> None:  # an explicit seed replaces the pending one
        self._pending = None
        if not (a is None or isinstance(a, int | float | str | bytes | bytearray)):
            raise TypeError("the only supported seed types are None, int, float, str, bytes and bytearray")
        super().seed(a, version)

    def random(self) -> float:
        self._seed_now()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._seed_now()
        return super().getrandbits(k)
