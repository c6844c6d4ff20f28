"""Tiles of a double-six set as small integer ids, with precomputed tables.

A tile is a ``(high, low)`` tuple on every public surface (``Tile``); inside the
engines it is an id in ``range(28)`` so that hands fit in an int bitmask.

>>> tile_id((6, 4)), ALL_TILES[tile_id((6, 4))]
(25, (6, 4))
>>> fmt((6, 4))
'[6-4]'
>>> normalize((2, 5))
(5, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

Tile = tuple[int, int]
"""A tile as ``(high, low)`` with ``6 >= high >= low >= 0``."""

MAX_PIP = 6


def tile_id(tile: Tile) -> int:
    """The id of a normalized tile: ``high * (high + 1) // 2 + low``."""
    high, low = tile
    return high * (high + 1) // 2 + low


ALL_TILES: tuple[Tile, ...] = tuple(
    sorted(((h, lo) for h in range(MAX_PIP + 1) for lo in range(h + 1)), key=tile_id)
)
"""All 28 tiles, indexed by id."""

TILE_IDS: dict[Tile, int] = {t: i for i, t in enumerate(ALL_TILES)}
PIPS: tuple[int, ...] = tuple(h + lo for h, lo in ALL_TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(h == lo for h, lo in ALL_TILES)


def normalize(tile: Iterable[int]) -> Tile:
    """``(a, b)`` in any order as ``(high, low)``; raises ValueError if it is not a tile."""
    a, b = tile
    if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
        raise ValueError(f"not a double-six tile: {a}-{b}")
    return (a, b) if a >= b else (b, a)


def tile_from_record(value: object) -> Tile:
    """A tile as a record or a client writes it, ``[a, b]`` (two ints, any order); ValueError otherwise.

    >>> tile_from_record([4, 6])
    (6, 4)
    """
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(type(v) is int for v in value):
        raise ValueError(f"not a tile: {value!r}")
    return normalize(value)


def fmt(tile: Tile) -> str:
    """A tile as people write it: ``[6-4]``."""
    return f"[{tile[0]}-{tile[1]}]"


def mask_of(tiles: Iterable[Tile]) -> int:
    """A bitmask with bit ``tile_id(t)`` set for each tile."""
    mask = 0
    for t in tiles:
        mask |= 1 << TILE_IDS[t]
    return mask


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a bitmask, in id order."""
    out: list[Tile] = []
    while mask:
        low_bit = mask & -mask
        out.append(ALL_TILES[low_bit.bit_length() - 1])
        mask ^= low_bit
    return out
