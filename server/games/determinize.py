"""Sampling the tiles a seat cannot see: one *determinization* of its information set.

A searching bot knows its own tiles and the public table; every other tile is
*unknown*, held by one of several *holders* (another player's hand, Moon's
widow or discard, Straight's boneyard) whose sizes are public. Play may have
shown that a holder lacks some tiles (a Moon player who failed to follow a suit,
a Straight player who drew or passed): those are the holder's *forbidden* tiles.
:func:`sample_holdings` deals the unknown tiles to the holders at random,
respecting sizes and forbidden tiles; it draws only from the ``rng`` given, so the
same view and the same seed always give the same worlds.

>>> import random
>>> holders = [Holder(2, forbidden=0b0011), Holder(2)]
>>> masks = sample_holdings(random.Random(1), 0b1111, holders)
>>> masks[0] & 0b0011, sorted(m.bit_count() for m in masks), masks[0] | masks[1]
(0, [2, 2], 15)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

_ATTEMPTS = 20


@dataclass(frozen=True, slots=True)
class Holder:
    """Someone holding ``size`` unknown tiles, none of them in the bitmask ``forbidden``."""

    size: int
    forbidden: int = 0


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sample_holdings(rng: random.Random, unknown: int, holders: Sequence[Holder]) -> list[int]:
    """One random deal of the ``unknown`` tiles (a bitmask) to ``holders``, as one bitmask each.

    The most constrained holders are served first, each taking a uniform sample of the
    tiles still allowed to it; after a few failed attempts the constraints are dropped
    (they are inferences; sizes are always respected). ValueError if the sizes do not
    add up to the number of unknown tiles.
    """
    tiles = _bits(unknown)
    if sum(h.size for h in holders) != len(tiles):
        raise ValueError(f"{len(tiles)} unknown tiles for holders of {sum(h.size for h in holders)}")
    constrained = any(h.forbidden & unknown for h in holders)
    for _ in range(_ATTEMPTS if constrained else 1):
        dealt = _try_deal(rng, tiles, holders)
        if dealt is not None:
            return dealt
    relaxed = [Holder(h.size) for h in holders]
    dealt = _try_deal(rng, tiles, relaxed)
    assert dealt is not None  # unconstrained sizes always fit
    return dealt


def _try_deal(rng: random.Random, tiles: list[int], holders: Sequence[Holder]) -> list[int] | None:
    free = set(tiles)
    masks = [0] * len(holders)
    # Tightest first: the holder allowed the fewest tiles (an unconstrained one takes what is left).
    order = sorted(
        range(len(holders)), key=lambda i: (sum(1 for t in tiles if not holders[i].forbidden >> t & 1), i)
    )
    for i in order:
        holder = holders[i]
        allowed = [t for t in sorted(free) if not holder.forbidden >> t & 1]
        if len(allowed) < holder.size:
            return None
        chosen = rng.sample(allowed, holder.size)
        for t in chosen:
            masks[i] |= 1 << t
        free.difference_update(chosen)
    return masks
