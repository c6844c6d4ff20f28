"""The little Texas 42 knowledge the client needs to show a game: bids in words, the count, tricks.

The server decides everything that matters; the client needs this to say a bid as a 42 player says it
and, replaying a record (which carries no trick winners), to say who took each trick and its points.
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.clients.cli.core.rules import Tile, is_double, pips, trick_winner, trump_word

SEATS = 4
MARK = 42
"""A mark bid is 42 points a mark (T4)."""
BIDS = (*range(30, MARK), *(MARK * marks for marks in range(1, 6)))
"""Bids in points, 30-41, then a mark at a time (four turns reach 5 marks at most)."""


def marks_of(bid: int) -> str:
    """A mark bid's worth in marks: ``1 mark``, ``2 marks``; nothing for a bid in points (below 42)."""
    marks = bid // MARK
    return "" if not marks else f"{marks} mark{'' if marks == 1 else 's'}"


def bid_text(bid: int) -> str:
    """A bid as a 42 player says it: ``31``, ``1 mark``, ``2 marks (84)``.

    >>> bid_text(31), bid_text(42), bid_text(84)
    ('31', '1 mark', '2 marks (84)')
    """
    marks = marks_of(bid)
    return marks if bid == MARK else f"{marks} ({bid})" if marks else str(bid)


def offered_bid(bid: int) -> str:
    """A bid as the auction offers it: the points, and the marks a mark bid is worth.

    >>> offered_bid(30), offered_bid(42), offered_bid(84)
    ('30', '42 (1 mark)', '84 (2 marks)')
    """
    marks = marks_of(bid)
    return f"{bid} ({marks})" if marks else str(bid)


def contract_text(trump: int | str | None) -> str:
    """``5s``, ``doubles``, ``no trump``, ``nello``."""
    return "nello" if trump == "nello" else trump_word(trump)


def count_of(tile: Tile) -> int:
    """T8: ``[5|5]`` and ``[6|4]`` count 10, ``[5|0]``, ``[4|1]`` and ``[3|2]`` count 5.

    >>> count_of((6, 4)), count_of((3, 2)), count_of((6, 6))
    (10, 5, 0)
    """
    total = pips(tile)
    return total if total in (5, 10) else 0


def winner_index(trump: int | str | None, played: Sequence[Tile]) -> int:
    """The index (in play order) of the tile taking a trick. Nello (T11): suits as with doubles trump
    but nothing a trump; the doubles a plain suit, ``[6|6]`` high; off-suit tiles never win."""
    if trump != "nello":
        return trick_winner(trump, played)
    led = played[0]

    def strength(tile: Tile) -> int:
        if is_double(led):
            return tile[0] if is_double(tile) else -1
        suit = led[0]
        if is_double(tile) or suit not in tile:
            return -1
        return tile[1] if tile[0] == suit else tile[0]

    strengths = [strength(t) for t in played]
    return strengths.index(max(strengths))


def team_of(seat: int) -> int:
    """Team 0 is seats 0+2, team 1 seats 1+3 (T1)."""
    return seat % 2
