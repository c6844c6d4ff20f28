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

from boneyard.server.games.moon.rules import BIDS, trump_index
from boneyard.server.games.tiles import ALL_TILES, Tile, tile_from_record
from boneyard.server.games.trickactions import Bid, NameTrump, Pass, Play, trick_action_from_record

__all__ = [
    "ALL_ACTIONS",
    "Action",
    "Bid",
    "Discard",
    "NameTrump",
    "Pass",
    "Play",
    "action_from_record",
    "action_to_dict",
]


@dataclass(frozen=True, slots=True)
class Discard:
    """The bidder lays one tile aside after taking the widow (M6)."""

    tile: Tile

    def as_dict(self) -> dict[str, Any]:
        return {"type": "discard", "tile": list(self.tile)}


Action = Bid | Pass | Discard | NameTrump | Play

ALL_ACTIONS: tuple[Action, ...] = (
    *(Bid(bid) for bid in BIDS),
    Pass(),
    *(Discard(tile) for tile in ALL_TILES),
    *(NameTrump(trump) for trump in (*range(7), "doubles", "none")),
    *(Play(tile) for tile in ALL_TILES),
)
"""Every well-formed Moon action (legal or not at a given moment): what the wire can name."""


def action_to_dict(action: Action) -> dict[str, Any]:
    """The record/wire form of an action, without ``seat``."""
    return action.as_dict()


def action_from_record(entry: Mapping[str, Any]) -> Action:
    """The action of one record entry; ValueError if the entry is malformed.

    Values are checked for shape only; whether the action is legal is the engine's call.
    """
    return trick_action_from_record(
        entry,
        "moon",
        bids=(lambda bid: type(bid) is int, "an int"),
        contract_index=trump_index,
        more={"discard": lambda e: Discard(tile_from_record(e["tile"]))},
    )
