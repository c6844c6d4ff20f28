"""Moon events (docs/ENGINE-API.md): what happened, and who may see which part of it.

Hidden information is decided only in ``seen_by``:

>>> e = WidowTaken(seat=1, tile=(5, 2))
>>> e.seen_by(1) == e, e.seen_by(0), e.seen_by(None)
(True, WidowTaken(seat=1, tile=None), WidowTaken(seat=1, tile=None))
>>> HandDealt(seat=0, tiles=((6, 6),)).seen_by(2) is None
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
    PrivateTileEvent,
    TilePlayed,
)
from boneyard.server.games.figures import ArenaFigures, Figures
from boneyard.server.games.moon.rules import GRAND, TrumpName, contract_made
from boneyard.server.games.tiles import Tile

__all__ = [
    "MOON_EVENTS",
    "MOON_FIGURES",
    "BidMade",
    "Discarded",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "HandThrownIn",
    "Passed",
    "TilePlayed",
    "TrickWon",
    "TrumpNamed",
    "WidowTaken",
]


@dataclass(frozen=True, slots=True)
class WidowTaken(PrivateTileEvent):
    type: ClassVar[str] = "widow_taken"


@dataclass(frozen=True, slots=True)
class Discarded(PrivateTileEvent):
    type: ClassVar[str] = "discarded"


@dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    type: ClassVar[str] = "trump_named"
    seat: int
    trump: TrumpName


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    type: ClassVar[str] = "trick_won"
    recurs: ClassVar[bool] = False
    seat: int
    tiles: tuple[Tile, ...]
    leader: int
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    type: ClassVar[str] = "hand_scored"
    recurs: ClassVar[bool] = False
    bidder: int
    bid: int
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


MOON_EVENTS: tuple[type[Event], ...] = (
    HandStarted,
    HandDealt,
    BidMade,
    Passed,
    HandThrownIn,
    WidowTaken,
    Discarded,
    TrumpNamed,
    TilePlayed,
    TrickWon,
    HandScored,
    GameOver,
)
"""Every Moon event class, for protocol code that maps ``type`` names to classes."""


def arena_figures(event: object, sides: Sequence[int]) -> Figures | None:
    """A scored hand: each seat's points, and the bidder's contract (a 21 is the grand one)."""
    if not isinstance(event, HandScored):
        return None
    return Figures(
        {sides[seat]: points for seat, points in enumerate(event.points)},
        hand_over=True,
        bidder=event.bidder,
        made=contract_made(event.bid, event.tricks[event.bidder]),
        grand=event.bid == GRAND,
    )


MOON_FIGURES = ArenaFigures(arena_figures, grand=str(GRAND))
"""What the arena counts of Moon: points per hand, contracts, and the 21s bid and made."""
