"""Moon events (docs/ENGINE-API.md): what happened, and who may see which part of it.

Hidden information is decided only in ``seen_by``:

>>> e = WidowTaken(seat=1, tile=(5, 2))
>>> e.seen_by(1) == e, e.seen_by(0), e.seen_by(None)
(True, WidowTaken(seat=1, tile=None), WidowTaken(seat=1, tile=None))
>>> HandDealt(seat=0, tiles=((6, 6),)).seen_by(2) is None
True
"""

from __future__ import annotations

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
from boneyard.server.games.moon.rules import TrumpName
from boneyard.server.games.tiles import Tile

__all__ = [
    "MOON_EVENTS",
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
