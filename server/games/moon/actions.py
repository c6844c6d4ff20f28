"""Moon actions: immutable values a seat submits, and their record form (RECORD-FORMAT.md).

>>> action_to_dict(Play((6, 4)))
{'type': 'play', 'tile': [6, 4]}
>>> action_from_record({"seat": 1, "type": "trump", "trump": "doubles"})
NameTrump(trump='doubles')
>>> action_from_record({"seat": 0, "type": "bid", "bid": 5, "auto": True})
Bid(bid=5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boneyard.server.games.moon.rules import TrumpName, trump_index
from boneyard.server.games.tiles import Tile, normalize


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid 4, 5, 6, 7 or 21 tricks (M4)."""

    bid: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction (M4)."""


@dataclass(frozen=True, slots=True)
class Discard:
    """The bidder lays one tile aside after taking the widow (M6)."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The bidder names trump: ``0..6``, ``"doubles"`` or ``"none"`` (M7)."""

    trump: TrumpName


@dataclass(frozen=True, slots=True)
class Play:
    """Play a tile to the current trick (M9)."""

    tile: Tile


Action = Bid | Pass | Discard | NameTrump | Play


def action_to_dict(action: Action) -> dict[str, Any]:
    """The record/wire form of an action, without ``seat``."""
    if isinstance(action, Bid):
        return {"type": "bid", "bid": action.bid}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, Discard):
        return {"type": "discard", "tile": list(action.tile)}
    if isinstance(action, NameTrump):
        return {"type": "trump", "trump": action.trump}
    return {"type": "play", "tile": list(action.tile)}


def action_from_record(entry: Mapping[str, Any]) -> Action:
    """The action of one record entry; ValueError if the entry is malformed.

    Values are checked for shape only; whether the action is legal is the engine's call.
    """
    kind = entry.get("type")
    try:
        if kind == "bid":
            if type(entry["bid"]) is not int:
                raise ValueError(f"a bid is an int, not {entry['bid']!r}")
            return Bid(entry["bid"])
        if kind == "pass":
            return Pass()
        if kind == "discard":
            return Discard(_tile(entry["tile"]))
        if kind == "trump":
            trump = entry["trump"]
            trump_index(trump)
            return NameTrump(trump)
        if kind == "play":
            return Play(_tile(entry["tile"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed moon record entry {entry!r}") from exc
    raise ValueError(f"unknown moon action type {kind!r}")


def _tile(value: Any) -> Tile:
    if len(value) != 2 or not all(type(v) is int for v in value):
        raise ValueError(f"not a tile: {value!r}")
    return normalize(value)
