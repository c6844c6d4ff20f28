"""Straight events (docs/ENGINE-API.md): what happened at the table, each with its wire ``type``.

Hidden information is decided only in ``seen_by``:

>>> HandDealt(0, ((6, 4),)).seen_by(1) is None
True
>>> TileDrawn(2, (3, 1), 5).seen_by(0)
TileDrawn(seat=2, tile=None, boneyard=5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from boneyard.server.games.base import Event
from boneyard.server.games.events import GameOver, HandDealt, HandStarted, Passed, PrivateTileEvent
from boneyard.server.games.figures import ArenaFigures, Figures
from boneyard.server.games.tiles import Tile

__all__ = [
    "STRAIGHT_FIGURES",
    "Blocked",
    "Domino",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "Passed",
    "StraightEvent",
    "TileDrawn",
    "TilePlayed",
]


@dataclass(frozen=True, slots=True)
class TilePlayed(Event):
    """``seat`` placed ``tile`` on ``end`` (``None`` for the opening): the count after it, what it scored."""

    type: ClassVar[str] = "tile_played"
    recurs: ClassVar[bool] = False
    seat: int
    tile: Tile
    end: str | None
    count: int
    points: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TileDrawn(PrivateTileEvent):
    """``seat`` drew a tile; only ``seat`` sees which. ``boneyard`` is the count left."""

    type: ClassVar[str] = "tile_drawn"
    boneyard: int


@dataclass(frozen=True, slots=True)
class Domino(Event):
    """``seat`` played their last tile (S10)."""

    type: ClassVar[str] = "domino"
    seat: int


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    """The boneyard is empty and every player passed in turn (S10)."""

    type: ClassVar[str] = "blocked"


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The end-of-hand award (S11, S12) and the tiles left in every hand, shown as at a real table.

    ``winner`` is the one winning side, ``None`` when nobody scores or several share;
    ``winners`` lists every side that won or shared (empty when nobody scores).
    """

    type: ClassVar[str] = "hand_scored"
    recurs: ClassVar[bool] = False
    winner: int | None
    points: tuple[int, ...]
    pips: tuple[int, ...]
    hands: tuple[tuple[Tile, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()


StraightEvent = (
    HandStarted | HandDealt | TilePlayed | TileDrawn | Passed | Domino | Blocked | HandScored | GameOver
)


def arena_figures(event: object, sides: Sequence[int]) -> Figures | None:
    """Points as they are scored: a play's to its side, then the hand's award to each side (a game
    that ends on a play ends its hand there, and the arena counts it)."""
    if isinstance(event, TilePlayed):
        return Figures({sides[event.seat]: event.points}) if event.points else None
    if isinstance(event, HandScored):
        return Figures(dict(enumerate(event.points)), hand_over=True)
    return None


STRAIGHT_FIGURES = ArenaFigures(arena_figures)
"""What the arena counts of Straight: points per hand (no contracts)."""
