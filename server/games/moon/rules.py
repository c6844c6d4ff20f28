"""Three-Player Moon rules as tables over tile ids (docs/RULES.md M1, M2, M8-M10, M12, M13).

Suits, following and trick winning are the trick-taking games' shared tables
(:mod:`boneyard.server.games.tricks`, re-exported here), restricted to Moon's 22 tiles; this
module adds Moon's set, bids and scoring. A trump is kept internally as an index: ``0..6`` a
number, :data:`DOUBLES` (7), :data:`NO_TRUMP` (8). A *led suit* is an index too: ``0..6`` a
number suit, :data:`LED_TRUMP` (7).

The tile-level helpers speak ``(high, low)`` tuples and read like the rule book:

>>> legal_follows(6, (4, 2), [(5, 4), (6, 4), (3, 1)])
[(5, 4)]
>>> trick_winner(6, [(4, 2), (5, 4), (6, 1)])
2
>>> trump_order(3)
[(3, 3), (6, 3), (5, 3), (4, 3), (3, 2), (3, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile
from boneyard.server.games.tricks import (
    DOUBLES,
    LED,
    LED_TRUMP,
    NO_TRUMP,
    POWER,
    TRUMPS,
    TrumpName,
    display_key,
    fmt_tiles,
    ids_of,
    is_trump,
    led_suit,
    legal_follows,
    suit_name,
    trick_winner,
    trump_index,
    winner_offset,
)
from boneyard.server.games.tricks import SUIT_MASK as ALL_SUIT_MASK
from boneyard.server.games.tricks import TRUMP_MASK as ALL_TRUMP_MASK
from boneyard.server.games.tricks import trump_order as any_trump_order

__all__ = [
    "BIDS",
    "DOUBLES",
    "GRAND",
    "LED",
    "LED_TRUMP",
    "MOON_IDS",
    "MOON_MASK",
    "MOON_TILES",
    "NEXT_SEAT",
    "NO_TRUMP",
    "POWER",
    "SUIT_MASK",
    "TRICKS_PER_HAND",
    "TRUMPS",
    "TRUMP_MASK",
    "TrumpName",
    "contract_made",
    "display_key",
    "fmt_tiles",
    "ids_of",
    "is_trump",
    "led_suit",
    "legal_follows",
    "settle",
    "suit_name",
    "trick_winner",
    "trump_index",
    "trump_order",
    "winner_offset",
]

MOON_TILES: tuple[Tile, ...] = tuple(t for t in ALL_TILES if t[1] > 0 or t == (0, 0))
"""The 22 tiles of M1 (double-six minus the blank suit except ``[0-0]``), in id order."""
MOON_IDS: tuple[int, ...] = tuple(TILE_IDS[t] for t in MOON_TILES)
MOON_MASK: int = sum(1 << i for i in MOON_IDS)

BIDS: tuple[int, ...] = (4, 5, 6, 7, 21)
GRAND = 21
TRICKS_PER_HAND = 7
NEXT_SEAT: tuple[int, ...] = (1, 2, 0)

# The shared tables (boneyard.server.games.tricks) hold all 28 tiles; Moon's masks hold its 22.
TRUMP_MASK: tuple[int, ...] = tuple(m & MOON_MASK for m in ALL_TRUMP_MASK[: NO_TRUMP + 1])
"""Per trump index: the mask of trump tiles."""
SUIT_MASK: tuple[int, ...] = tuple(m & MOON_MASK for m in ALL_SUIT_MASK[: (NO_TRUMP + 1) * 8])
"""Indexed ``t * 8 + led``: the tiles that follow a lead in that suit under that trump."""


def contract_made(bid: int, tricks: int) -> bool:
    """The bidder who took ``tricks`` made a contract of ``bid`` (M12: 21 means all 7 tricks).

    >>> contract_made(5, 5), contract_made(21, 6), contract_made(21, 7)
    (True, False, True)
    """
    return tricks >= (TRICKS_PER_HAND if bid == GRAND else bid)


def settle(
    bid: int, bidder: int, tricks: Sequence[int], scores: Sequence[int], target: int
) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
    """Score a played hand (M12) and decide the game (M13): ``(points, new scores, winner or None)``.

    Example 10 of the rule book, then example 12 (a tie on top: play on):

    >>> settle(5, 0, (6, 1, 0), (0, 0, 0), 21)
    ((5, 1, 0), (5, 1, 0), None)
    >>> settle(4, 0, (4, 3, 0), (19, 20, 5), 21)
    ((4, 3, 0), (23, 23, 5), None)
    >>> settle(21, 2, (0, 0, 7), (3, 9, 1), 21)
    ((0, 0, 21), (3, 9, 22), 2)
    """
    points = list(tricks)
    made = contract_made(bid, tricks[bidder])
    points[bidder] = bid if made else -bid
    new = tuple(s + p for s, p in zip(scores, points, strict=True))
    if bid == GRAND and made:
        return tuple(points), new, bidder  # a made 21 wins at once, whatever the scores
    top = max(new)
    winner = new.index(top) if top >= target and new.count(top) == 1 else None
    return tuple(points), new, winner


def trump_order(trump: TrumpName) -> list[Tile]:
    """The trumps of the Moon set, highest first (M8); empty for no trump.

    >>> trump_order("doubles")[:3]
    [(6, 6), (5, 5), (4, 4)]
    """
    return any_trump_order(trump, MOON_MASK)
