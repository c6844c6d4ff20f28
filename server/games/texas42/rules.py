"""Texas 42's own rules as tables and small functions (docs/RULES.md T1-T12).

Suits, following and trick winning are the trick-taking games' shared tables
(:mod:`boneyard.server.games.tricks`) over the full set; this module adds 42's bids, count,
trump names (nello among them), seat order and when a hand is decided.

>>> legal_bids(0), legal_bids(35)[:3], legal_bids(42), legal_bids(84)
((30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 84), (36, 37, 38), (84,), (126,))
>>> marks_of(34), marks_of(42), marks_of(126)
(1, 1, 3)
>>> from boneyard.server.games.tiles import TILE_IDS
>>> [COUNT[TILE_IDS[t]] for t in [(5, 5), (6, 4), (5, 0), (4, 1), (3, 2), (6, 1)]]
[10, 10, 5, 5, 5, 0]
"""

from __future__ import annotations

from collections.abc import Iterable

from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.games.trickactions import Contract
from boneyard.server.games.tricks import NELLO, TRUMPS, trump_index

TexasTrump = Contract
"""A contract as the wire names it: a trump (``0..6``, ``"doubles"``, ``"none"``) or ``"nello"``."""

CONTRACTS: tuple[TexasTrump, ...] = (*TRUMPS, "nello")
"""Public contract names, indexed by trump index (:data:`~boneyard.server.games.tricks.NELLO` is 9)."""

SEATS = 4
TRICKS = 7
TOTAL = 42
"""A hand's points: 7 tricks and 35 of count (T8)."""
MARK = 42
"""The lowest mark bid; ``k`` marks are bid as ``42 * k`` (T4)."""
POINT_BIDS: tuple[int, ...] = tuple(range(30, 42))

COUNT: tuple[int, ...] = tuple(
    10 if t in ((5, 5), (6, 4)) else 5 if t in ((5, 0), (4, 1), (3, 2)) else 0 for t in ALL_TILES
)
"""T8: the count each tile carries into the trick that takes it, by tile id (35 in all)."""


def trick_points(trick: Iterable[int]) -> int:
    """T8: what a trick of tile ids is worth to the team that takes it: 1, plus its count.

    >>> from boneyard.server.games.tiles import TILE_IDS
    >>> trick_points(TILE_IDS[t] for t in [(5, 5), (6, 4), (2, 0), (1, 1)])
    21
    """
    return 1 + sum(COUNT[t] for t in trick)


_OPENING_BIDS: tuple[int, ...] = (*POINT_BIDS, MARK, 2 * MARK)
_BIDS_OVER: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in _OPENING_BIDS if b > high) for high in range(MARK)
)


def legal_bids(high: int) -> tuple[int, ...]:
    """T4: the bids higher than ``high`` (0: nobody has bid). A point bid may be topped by a higher
    point bid, 42 or 84; after a mark bid, only by exactly one mark more."""
    return _BIDS_OVER[high] if high < MARK else (high + MARK,)


def is_bid(bid: object) -> bool:
    """Whether ``bid`` is a bid at all (30-41, or a multiple of 42), legal now or not."""
    return type(bid) is int and (30 <= bid <= 41 or (bid >= MARK and bid % MARK == 0))


def marks_of(bid: int) -> int:
    """T9: the marks a bid is worth: 1 for a point bid, ``k`` for ``42 * k``."""
    return max(1, bid // MARK)


def team_of(seat: int) -> int:
    """T1: seats 0+2 are team 0, seats 1+3 team 1."""
    return seat & 1


def contract_index(trump: object) -> int:
    """The trump index of a public contract name (``nello`` included); ValueError otherwise.

    >>> contract_index("nello"), contract_index(3)
    (9, 3)
    """
    if trump == "nello":
        return NELLO
    try:
        return trump_index(trump)
    except ValueError:
        raise ValueError(f"trump must be a number 0-6, 'doubles', 'none' or 'nello', not {trump!r}") from None


def next_seat(seat: int, out: int) -> int:
    """The seat after ``seat`` clockwise, skipping ``out`` (nello's sitting-out partner, or -1)."""
    after = (seat + 1) & 3
    return (after + 1) & 3 if after == out else after


def decided(bid: int, nello: bool, won: int, lost: int, points: int, against: int) -> int:
    """T9-T11: ``1`` made, ``-1`` set, ``0`` not decided yet, from the tricks the bidders ``won`` and
    ``lost`` so far and the points each side took (``points`` the bidders', ``against`` the others').

    Example 25 (bid 30, 31 points after five tricks), 26 (bid 34, the opponents at 9 after four),
    27 (84, a trick lost):

    >>> decided(30, False, 4, 1, 31, 5), decided(34, False, 2, 2, 10, 9), decided(84, False, 2, 1, 20, 3)
    (1, -1, -1)
    >>> decided(42, True, 0, 3, 0, 12), decided(42, True, 1, 2, 6, 10), decided(42, True, 0, 7, 0, 42)
    (0, -1, 1)
    """
    if nello:  # T11: the bidder must lose every trick
        return -1 if won else 1 if lost == TRICKS else 0
    if bid >= MARK:  # T9: a mark bid takes all seven tricks
        return -1 if lost else 1 if won == TRICKS else 0
    if points >= bid:
        return 1
    return -1 if against > TOTAL - bid else 0
