"""The actions of the trick-taking games: immutable values a seat submits, with their record form.

Moon and Texas 42 bid, pass, name trump and play a tile alike (Moon adds its discard); each game
lists its own well-formed actions (``ALL_ACTIONS``) and its engine decides what is legal.

>>> Play((6, 4)).as_dict(), NameTrump("doubles").as_dict()
({'type': 'play', 'tile': [6, 4]}, {'type': 'trump', 'trump': 'doubles'})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from boneyard.server.games.tiles import Tile
from boneyard.server.games.tricks import TrumpName

Contract = TrumpName | Literal["nello"]
"""What a bidder names: a trump (``0..6``, ``"doubles"``, ``"none"``), or in Texas 42 ``"nello"``."""


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid in the auction: Moon's tricks (M4), Texas 42's points (T4)."""

    bid: int

    def as_dict(self) -> dict[str, Any]:
        return {"type": "bid", "bid": self.bid}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction (M4, T4)."""

    def as_dict(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The bidder names trump (M7, T6) or, in Texas 42 with option nello, ``"nello"`` (T11)."""

    trump: Contract

    def as_dict(self) -> dict[str, Any]:
        return {"type": "trump", "trump": self.trump}


@dataclass(frozen=True, slots=True)
class Play:
    """Play a tile to the current trick (M9, T7)."""

    tile: Tile

    def as_dict(self) -> dict[str, Any]:
        return {"type": "play", "tile": list(self.tile)}
