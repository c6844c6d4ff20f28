"""Events both games share, and the one shape of a private tile event.

>>> from boneyard.server.games.events import PrivateTileEvent
>>> HandDealt(seat=0, tiles=((6, 6),)).seen_by(2) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from boneyard.server.games.base import Event, Viewer
from boneyard.server.games.tiles import Tile


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins: ``first`` bids (Moon) or leads (Straight); ``boneyard`` is the undrawn count."""

    type: ClassVar[str] = "hand_started"
    hand: int
    first: int
    tile_counts: tuple[int, ...]
    boneyard: int = 0


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """``seat``'s seven tiles, in the order dealt. Only ``seat`` learns of it."""

    type: ClassVar[str] = "hand_dealt"
    recurs: ClassVar[bool] = False
    seat: int
    tiles: tuple[Tile, ...]

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.seat else None


@dataclass(frozen=True, slots=True)
class PrivateTileEvent(Event):
    """Everyone learns that ``seat`` did it; only ``seat`` learns which tile (others see ``tile=None``)."""

    seat: int
    tile: Tile | None

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.seat else replace(self, tile=None)


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A bid in an auction (Moon: tricks; Texas 42: points)."""

    type: ClassVar[str] = "bid_made"
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class HandThrownIn(Event):
    """Everybody passed: the hand is thrown in, a new ``hand_started`` follows (or the pause before it)."""

    type: ClassVar[str] = "hand_thrown_in"
    hand: int


@dataclass(frozen=True, slots=True)
class TilePlayed(Event):
    """A tile played to a trick (the trick-taking games; Straight's ``tile_played`` has its own shape)."""

    type: ClassVar[str] = "tile_played"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``winner``: the seat, or the team with partnerships (0 = seats 0+2, 1 = seats 1+3)."""

    type: ClassVar[str] = "game_over"
    recurs: ClassVar[bool] = False
    winner: int
    scores: tuple[int, ...]
