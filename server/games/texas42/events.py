"""Texas 42 events (docs/ENGINE-API.md): what happened, and who may see which part of it.

Everything is public but each seat's deal (``hand_dealt``, to that seat alone): partners see
nothing of each other's tiles, and a nello bidder's partner, who sits out, never shows theirs.

>>> HandDealt(seat=2, tiles=((6, 6),)).seen_by(0) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from boneyard.server.games.base import Event
from boneyard.server.games.events import (
    BidMade,
    GameOver,
    HandDealt,
    HandStarted,
    HandThrownIn,
    Passed,
    TilePlayed,
)
from boneyard.server.games.figures import ArenaFigures, Figures
from boneyard.server.games.texas42.rules import TexasTrump
from boneyard.server.games.tiles import Tile

__all__ = [
    "TEXAS42_EVENTS",
    "TEXAS42_FIGURES",
    "BidMade",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "HandThrownIn",
    "Passed",
    "TilePlayed",
    "TrickWon",
    "TrumpNamed",
]


@dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    """The bidder names trump, or ``nello`` (then ``out``, the bidder's partner, sits the hand out)."""

    type: ClassVar[str] = "trump_named"
    seat: int
    trump: TexasTrump
    out: int | None = None


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``seat`` took the trick: ``tiles`` in play order from ``leader`` (nello: three, the partner
    skipped); ``points`` per team so far this hand (T8), ``tricks`` taken per seat."""

    type: ClassVar[str] = "trick_won"
    seat: int
    tiles: tuple[Tile, ...]
    leader: int
    points: tuple[int, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """T9-T12: the contract (``bid`` in points, ``trump``) ``made`` or set, each team's ``points`` of
    the hand, the ``marks`` it scored per team and the cumulative ``scores`` in marks."""

    type: ClassVar[str] = "hand_scored"
    bidder: int
    bid: int
    trump: TexasTrump
    made: bool
    points: tuple[int, ...]
    marks: tuple[int, ...]
    scores: tuple[int, ...]


TEXAS42_EVENTS: tuple[type[Event], ...] = (
    HandStarted,
    HandDealt,
    BidMade,
    Passed,
    HandThrownIn,
    TrumpNamed,
    TilePlayed,
    TrickWon,
    HandScored,
    GameOver,
)
"""Every Texas 42 event class, for protocol code that maps ``type`` names to classes."""


def arena_figures(event: object, sides: Sequence[int]) -> Figures | None:
    """A scored hand: each team's marks, and the bidding team's contract made or set."""
    if not isinstance(event, HandScored):
        return None
    return Figures(dict(enumerate(event.marks)), hand_over=True, bidder=event.bidder, made=event.made)


TEXAS42_FIGURES = ArenaFigures(arena_figures)
"""What the arena counts of Texas 42: marks per hand and contracts (no grand contract)."""
