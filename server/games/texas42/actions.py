"""Texas 42 actions: immutable values a seat submits, and their record form (RECORD-FORMAT.md).

>>> Bid(84).as_dict(), NameTrump("nello").as_dict()
({'type': 'bid', 'bid': 84}, {'type': 'trump', 'trump': 'nello'})
>>> action_from_record({"seat": 1, "type": "play", "tile": [4, 6], "auto": True})
Play(tile=(6, 4))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from boneyard.server.games.texas42.rules import (
    CONTRACTS,
    MARK,
    POINT_BIDS,
    contract_index,
    is_bid,
)
from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.games.trickactions import Bid, NameTrump, Pass, Play, trick_action_from_record

__all__ = ["ALL_ACTIONS", "MAX_MARKS", "Action", "Bid", "NameTrump", "Pass", "Play", "action_from_record"]


Action = Bid | Pass | NameTrump | Play

MAX_MARKS = 5
"""The highest mark bid an auction can reach: 84 opened, then one mark more at each of the 3 turns left."""

ALL_ACTIONS: tuple[Action, ...] = (
    *(Bid(bid) for bid in (*POINT_BIDS, *(MARK * k for k in range(1, MAX_MARKS + 1)))),
    Pass(),
    *(NameTrump(trump) for trump in CONTRACTS),
    *(Play(tile) for tile in ALL_TILES),
)
"""Every well-formed 42 action (legal or not at a given moment): what the wire can name."""


def action_from_record(entry: Mapping[str, Any]) -> Action:
    """The action of one record entry; ValueError if the entry is malformed.

    Values are checked for shape only; whether the action is legal is the engine's call.
    """
    no_more: dict[str, Callable[[Mapping[str, Any]], Action]] = {}
    return trick_action_from_record(
        entry,
        "texas42",
        bids=(is_bid, "30-41 or a multiple of 42"),
        contract_index=contract_index,
        more=no_more,
    )
