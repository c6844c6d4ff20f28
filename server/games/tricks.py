"""Suits, following and trick winning of the trick-taking games (docs/RULES.md M2, M8-M10, T2, T7, T11).

Three-Player Moon and Texas 42 share these rules: Moon plays them with 22 tiles, 42 with all
28 (and adds nello's suits). Everything a trick needs is precomputed at import, per trump, over
all 28 tile ids, so that the engines and the searching bots only index tuples and mask ints.

A trump is kept as an index: ``0..6`` a number, :data:`DOUBLES` (7), :data:`NO_TRUMP` (8),
:data:`NELLO` (9: nothing is a trump, the doubles are a plain suit of their own, T11).
A *led suit* is an index too: ``0..6`` a number suit, :data:`LED_TRUMP` (7): the trumps, or
under nello the doubles.

>>> legal_follows(6, (4, 2), [(5, 4), (6, 4), (3, 1)])
[(5, 4)]
>>> trick_winner(6, [(4, 2), (5, 4), (6, 1)])
2
>>> trump_order(3)
[(3, 3), (6, 3), (5, 3), (4, 3), (3, 2), (3, 1), (3, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, fmt

TrumpName = int | Literal["doubles", "none"]
"""A trump as the rules and the wire name it: a number ``0..6``, ``"doubles"`` or ``"none"``."""

DOUBLES = 7
NO_TRUMP = 8
NELLO = 9
"""Not a trump but a way of playing: no trumps, the doubles a suit of their own (T11)."""
LED_TRUMP = 7
TRUMPS: tuple[TrumpName, ...] = (0, 1, 2, 3, 4, 5, 6, "doubles", "none")
"""Public trump names, indexed by trump index (nello is named by the game that offers it)."""
_KINDS = 10


def trump_index(trump: object) -> int:
    """The internal index of a public trump name; ValueError if it is not one.

    >>> trump_index(4), trump_index("doubles"), trump_index("none")
    (4, 7, 8)
    """
    # bool is an int subclass; True must not pass for trump 1.
    if type(trump) is int and 0 <= trump <= 6:
        return trump
    if trump == "doubles":
        return DOUBLES
    if trump == "none":
        return NO_TRUMP
    raise ValueError(f"trump must be a number 0-6, 'doubles' or 'none', not {trump!r}")


def _is_trump(tid: int, t: int) -> bool:
    high, low = ALL_TILES[tid]
    if t == DOUBLES:
        return high == low
    if t in (NO_TRUMP, NELLO):
        return False
    return t in (high, low)


def _in_suit(tid: int, t: int, suit: int) -> bool:
    """M9: a non-trump belongs to both its numbers' suits; a double only to its own. Under nello
    (T11) the doubles are their own suit (``LED_TRUMP``) and the number suits hold no double."""
    high, low = ALL_TILES[tid]
    if t == NELLO:
        return high == low if suit == LED_TRUMP else high != low and suit in (high, low)
    return not _is_trump(tid, t) and suit in (high, low)


def _rank(tid: int, suit: int) -> int:
    """M2/M8: within a suit the double is highest (7), the rest rank by their other number."""
    high, low = ALL_TILES[tid]
    if high == low:
        return 7
    return low if high == suit else high


def _power(tid: int, t: int, led: int) -> int:
    """How strongly ``tid`` bids for a trick led in suit ``led``: trumps above all, off-suit -1 (M10)."""
    if _is_trump(tid, t):
        high = ALL_TILES[tid][0]
        # Doubles as trump rank by their number (M8); a number trump ranks like its suit.
        return 100 + (high if t == DOUBLES else _rank(tid, t))
    if t == NELLO and led == LED_TRUMP:
        return ALL_TILES[tid][0] if _in_suit(tid, t, led) else -1  # the doubles suit, [6-6] high
    if led != LED_TRUMP and _in_suit(tid, t, led):
        return _rank(tid, led)
    return -1


def _led(tid: int, t: int) -> int:
    """M9: a trump leads trumps, else a double its number (nello: the doubles), else its higher number."""
    high, low = ALL_TILES[tid]
    if _is_trump(tid, t) or (t == NELLO and high == low):
        return LED_TRUMP
    return high


TRUMP_MASK: tuple[int, ...] = tuple(sum(1 << i for i in range(28) if _is_trump(i, t)) for t in range(_KINDS))
"""Per trump index: the mask of trump tiles."""

SUIT_MASK: tuple[int, ...] = tuple(
    TRUMP_MASK[t]
    if led == LED_TRUMP and t != NELLO
    else sum(1 << i for i in range(28) if _in_suit(i, t, led))
    for t in range(_KINDS)
    for led in range(8)
)
"""Indexed ``t * 8 + led``: the tiles that follow a lead in that suit under that trump."""

LED: tuple[tuple[int, ...], ...] = tuple(tuple(_led(i, t) for i in range(28)) for t in range(_KINDS))
"""``LED[t][tid]``: the suit a lead of ``tid`` calls for."""

POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_power(i, t, led) for i in range(28)) for t in range(_KINDS) for led in range(8)
)
"""Indexed ``[t * 8 + led][tid]``: the trick-winning strength of a tile (higher wins, -1 cannot win)."""


def _bits_table(offset: int) -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()]
    for m in range(1, 1 << 14):
        low = (m & -m).bit_length() - 1
        table.append((low + offset, *table[m & (m - 1)]))
    return tuple(table)


_IDS_LO = _bits_table(0)
_IDS_HI = _bits_table(14)


def ids_of(mask: int) -> tuple[int, ...]:
    """The tile ids in a mask, ascending (two table lookups: this is on the hot path).

    >>> ids_of(0b1000000000000000000000000101)
    (0, 2, 27)
    """
    return _IDS_LO[mask & 0x3FFF] + _IDS_HI[mask >> 14]


def winner_offset(t: int, led: int, a: int, b: int, c: int) -> int:
    """Which of three tiles in play order (0, 1, 2) wins a trick under trump ``t`` (M10)."""
    power = POWER[t * 8 + led]
    pa, pb, pc = power[a], power[b], power[c]
    if pa > pb:
        return 0 if pa > pc else 2
    return 1 if pb > pc else 2


def winning_offset(t: int, led: int, trick: Sequence[int]) -> int:
    """Which tile of a trick of any size, in play order, wins under trump ``t`` (M10: the led tile
    always has a power, and no two tiles that can win have the same)."""
    power = POWER[t * 8 + led]
    best = 0
    for i in range(1, len(trick)):
        if power[trick[i]] > power[trick[best]]:
            best = i
    return best


def voids(tricks: Iterable[Sequence[tuple[int, Tile]]], t: int, seats: int) -> list[int]:
    """Per seat, the tiles it cannot hold: every suit it failed to follow in ``tricks`` (each as
    ``(seat, tile)`` in play order; an empty one is skipped) under trump index ``t`` (M9).

    >>> [fmt_tiles(ids_of(m)) for m in voids([((0, (5, 5)), (1, (6, 6)))], 6, 2)][1][:12]
    '[5-0], [5-1]'
    """
    forbidden = [0] * seats
    for trick in tricks:
        if not trick:
            continue
        follow = SUIT_MASK[t * 8 + LED[t][TILE_IDS[trick[0][1]]]]
        for seat, tile in trick[1:]:
            if not follow >> TILE_IDS[tile] & 1:
                forbidden[seat] |= follow
    return forbidden


# Tile-level helpers: the readable face of the tables, for tests, bots and error messages.


def is_trump(tile: Tile, trump: TrumpName) -> bool:
    """Whether ``tile`` is a trump (M8).

    >>> is_trump((5, 5), "doubles"), is_trump((6, 5), 5), is_trump((6, 5), "none")
    (True, True, False)
    """
    return _is_trump(TILE_IDS[tile], trump_index(trump))


def led_suit(tile: Tile, trump: TrumpName) -> int | Literal["trump"]:
    """The suit a lead of ``tile`` calls for (M9).

    >>> led_suit((6, 2), "none"), led_suit((5, 1), 5), led_suit((3, 3), 6)
    (6, 'trump', 3)
    """
    led = LED[trump_index(trump)][TILE_IDS[tile]]
    return "trump" if led == LED_TRUMP else led


def follows(t: int, lead: Tile, hand: Iterable[Tile]) -> list[Tile]:
    """The tiles of ``hand`` that may be played to a trick led with ``lead`` under trump index ``t``
    (M9), in hand order."""
    follow = SUIT_MASK[t * 8 + LED[t][TILE_IDS[lead]]]
    held = list(hand)
    members = [x for x in held if follow >> TILE_IDS[x] & 1]
    return members or held


def legal_follows(trump: TrumpName, lead: Tile, hand: Iterable[Tile]) -> list[Tile]:
    """The tiles of ``hand`` that may be played to a trick led with ``lead`` (M9), in hand order."""
    return follows(trump_index(trump), lead, hand)


def trick_winner(trump: TrumpName, tiles: Sequence[Tile]) -> int:
    """The position in play order of the tile that wins a full trick (M10)."""
    t = trump_index(trump)
    ids = [TILE_IDS[x] for x in tiles]
    return winning_offset(t, LED[t][ids[0]], ids)


def trump_order(trump: TrumpName, mask: int = (1 << 28) - 1) -> list[Tile]:
    """The trumps among the tiles of ``mask`` (all 28 by default), highest first (M8); empty for no trump.

    >>> trump_order("doubles")[:3]
    [(6, 6), (5, 5), (4, 4)]
    """
    t = trump_index(trump)
    power = POWER[t * 8 + LED_TRUMP]
    return [ALL_TILES[i] for i in sorted(ids_of(TRUMP_MASK[t] & mask), key=lambda i: -power[i])]


def suit_name(led: int, t: int = NO_TRUMP) -> str:
    """How an error message names a led suit.

    >>> suit_name(5), suit_name(LED_TRUMP), suit_name(LED_TRUMP, NELLO)
    ('5s', 'trumps', 'doubles')
    """
    if led == LED_TRUMP:
        return "doubles" if t == NELLO else "trumps"
    return f"{led}s"


def display_key(tid: int, t: int | None) -> tuple[int, int, int]:
    """Sort key for showing a hand: trumps first by rank, then by higher, lower number (highest first)."""
    high, low = ALL_TILES[tid]
    if t is not None and _is_trump(tid, t):
        return (0, -POWER[t * 8 + LED_TRUMP][tid], 0)
    return (1, -high, -low)


def fmt_tiles(tids: Iterable[int]) -> str:
    """Tile ids as people write them: ``[5-4], [4-1]``."""
    return ", ".join(fmt(ALL_TILES[i]) for i in tids)
