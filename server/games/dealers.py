"""Dealers that are both unpredictable and reproducible: :class:`FairDealer` and :class:`KeyedDealer`.

Tables deal with :class:`FairDealer` (``boneyard-deal/1``, which anyone can recompute from the seeds
revealed after the game); :class:`KeyedDealer` stays for games stored before fair deals, which a
restart must go on dealing exactly as they began.

A table's games must be unpredictable to the players (a seeded Mersenne Twister's future output can
be computed from enough of its past output) and yet reproducible by the server, which restores a
table after a restart by dealing again from the stored seed and replaying the stored actions. A
:class:`KeyedDealer` draws every number from ``BLAKE2b(key=seed, counter)``, a pseudorandom
function: without the seed its deals cannot be predicted, and with it they come out the same on
every run, machine and Python version (unlike ``random.shuffle``, whose algorithm is not promised).

>>> tiles = [(h, low) for h in range(7) for low in range(h + 1)]
>>> KeyedDealer("s1").shuffled(tiles) == KeyedDealer("s1").shuffled(tiles)
True
>>> KeyedDealer("s1").shuffled(tiles) == KeyedDealer("s2").shuffled(tiles)
False
>>> sorted(KeyedDealer("s1").shuffled(tiles)) == sorted(tiles), 0 <= KeyedDealer("s1").pick(3) < 3
(True, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from boneyard.protocol import fairness
from boneyard.server.games.tiles import ALL_TILES, Tile

_BLOCK = 64
"""Bytes per BLAKE2b block: 16 draws of 32 bits."""


class KeyedDealer:
    """Deals from ``BLAKE2b(key=seed)`` over a block counter; the same seed always deals the same."""

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, seed: str) -> None:
        key = seed.encode()
        self._key = key if len(key) <= 64 else hashlib.blake2b(key).digest()
        self._counter = 0
        self._buffer = b""

    def _draw32(self) -> int:
        if not self._buffer:
            block = self._counter.to_bytes(8, "big")
            self._buffer = hashlib.blake2b(block, key=self._key, digest_size=_BLOCK).digest()
            self._counter += 1
        value, self._buffer = int.from_bytes(self._buffer[:4], "big"), self._buffer[4:]
        return value

    def _below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling on the fewest bits that cover it)."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}")
        shift = 32 - (n - 1).bit_length()
        while True:
            value = self._draw32() >> shift
            if value < n:
                return value

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        """Fisher-Yates over the tiles, in the order given."""
        out = list(tiles)
        for i in range(len(out) - 1, 0, -1):
            j = self._below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def pick(self, n: int) -> int:
        return self._below(n)


class FairDealer:
    """The :class:`~server.games.base.Dealer` of provably fair games: ``boneyard-deal/1``.

    Each hand's tiles come in the order of the permutation that :mod:`boneyard.protocol.fairness`
    draws from the server seed, the players' seeds and the hand number (hand 0 at the first
    ``shuffled``), so that anyone holding the seeds recomputes every deal; ``pick`` draws from the same
    hand's stream, after the permutation.

    >>> from boneyard.protocol import fairness
    >>> dealer, server = FairDealer(bytes(32), [None, None]), bytes(32)
    >>> dealt = dealer.shuffled(ALL_TILES)
    >>> tuple(dealt[:7]) == fairness.deal("straight", 2, server, [None, None], 0).hands[0]
    True
    >>> dealer.pick(2) == fairness.deal("straight", 2, server, [None, None], 0).chance_first
    True
    """

    __slots__ = ("_hand", "_players", "_server", "_stream")

    def __init__(self, server_seed: bytes, player_seeds: Sequence[bytes | None]) -> None:
        self._server = server_seed
        self._players = tuple(player_seeds)
        self._hand = -1
        self._stream: fairness.HandStream | None = None

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        self._hand += 1
        self._stream = stream = fairness.HandStream(self._server, self._players, self._hand)
        in_play = set(tiles)
        return [t for t in (ALL_TILES[i] for i in fairness.shuffle(stream)) if t in in_play]

    def pick(self, n: int) -> int:
        if self._stream is None:
            raise RuntimeError("pick() before the first shuffled(): no hand is being dealt")
        return self._stream.below(n)
