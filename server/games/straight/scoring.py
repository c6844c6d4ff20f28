"""Scoring: play points (S8), the end-of-hand award (S11, S12) and the end of the game (S13).

A *side* is a seat, or a team with partnerships (team 0 = seats 0+2, team 1 = seats 1+3).

>>> round5(7), round5(8), round5(13)
(5, 10, 15)
>>> award((3, 0), teams=False, domino=1).points
(0, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boneyard.server.games.tiles import PIPS

# Pip totals of every 7-bit slice of a hand mask: four lookups instead of a loop over 28 bits.
_PIP7: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PIPS[7 * k + i] for i in range(7) if m >> i & 1) for m in range(128)) for k in range(4)
)


def pips_of(mask: int) -> int:
    """The pip total of a hand bitmask.

    >>> pips_of(0b11)  # [0-0] and [1-0]
    1
    """
    return (
        _PIP7[0][mask & 127]
        + _PIP7[1][mask >> 7 & 127]
        + _PIP7[2][mask >> 14 & 127]
        + _PIP7[3][mask >> 21 & 127]
    )


def play_points(count: int) -> int:
    """What a play scores (S8): the count if it is a positive multiple of 5.

    >>> play_points(15), play_points(12), play_points(0)
    (15, 0, 0)
    """
    return count if count > 0 and count % 5 == 0 else 0


def round5(pips: int) -> int:
    """The nearest multiple of 5: a remainder of 1-2 rounds down, 3-4 up (S11)."""
    return (pips + 2) // 5 * 5


def side_of(seat: int, teams: bool) -> int:
    """The side a seat scores for."""
    return seat % 2 if teams else seat


@dataclass(frozen=True, slots=True)
class Award:
    """The end-of-hand award: points per side, the winning side(s) and each side's pips."""

    points: tuple[int, ...]
    winners: tuple[int, ...]  # sides that won or shared the award; empty when nobody scores
    side_pips: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The one winning side, or ``None`` when nobody scores or several share."""
        return self.winners[0] if len(self.winners) == 1 else None


def award(pips: Sequence[int], teams: bool, domino: int | None) -> Award:
    """The award for a hand that ended with ``pips`` left per seat.

    ``domino`` is the seat that dominoed, or ``None`` for a blocked hand.

    >>> award((8, 14), teams=False, domino=None).points  # example 21
    (15, 0)
    >>> award((5, 5, 23), teams=False, domino=None).points  # example 23: 25 shared, 12 each, rounded down
    (10, 10, 0)
    """
    n_sides = 2 if teams else len(pips)
    side_pips = [0] * n_sides
    for seat, p in enumerate(pips):
        side_pips[side_of(seat, teams)] += p
    points = [0] * n_sides
    if domino is not None:
        win = side_of(domino, teams)
        # Opponents' pips are added first and rounded once; a partner's and the winner's own are ignored.
        points[win] = round5(sum(p for s, p in enumerate(side_pips) if s != win))
        return Award(tuple(points), (win,), tuple(side_pips))
    low = min(side_pips)
    tied = tuple(s for s, p in enumerate(side_pips) if p == low)
    if len(tied) == n_sides or (len(tied) > 1 and n_sides == 2):
        return Award(tuple(points), (), tuple(side_pips))
    pot = round5(sum(p for p in side_pips if p != low))
    share = pot // len(tied) // 5 * 5  # S12: each share rounded down to a multiple of 5
    for s in tied:
        points[s] = share
    return Award(tuple(points), tied, tuple(side_pips))


def game_winner(scores: Sequence[int], target: int) -> int | None:
    """The side that has won (S13), or ``None`` to play on.

    Checked after every scoring event. Of the sides at or past ``target`` the
    highest wins; if the highest is shared, nobody has won yet.

    >>> game_winner((250, 40), 250), game_winner((255, 260, 10), 250), game_winner((255, 255, 0), 250)
    (0, 1, None)
    """
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)
