"""The actions of the trick-taking games: immutable values a seat submits, with their record form.

Moon and Texas 42 bid, pass, name trump and play a tile alike (Moon adds its discard); each game
lists its own well-formed actions (``ALL_ACTIONS``) and its engine decides what is legal.

>>> Play((6, 4)).as_dict(), NameTrump("doubles").as_dict()
({'type': 'play', 'tile': [6, 4]}, {'type': 'trump', 'trump': 'doubles'})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from boneyard.server.games.tiles import Tile, tile_from_record
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


A = TypeVar("A")
RecordEntry = Mapping[str, Any]


def trick_action_from_record(
    entry: RecordEntry,
    game: str,
    *,
    bids: tuple[Callable[[object], bool], str],
    contract_index: Callable[[Any], int],
    more: Mapping[str, Callable[[RecordEntry], A]],
) -> Bid | Pass | NameTrump | Play | A:
    """The action of one record entry of a trick-taking ``game``; ValueError if it is malformed.

    Values are checked for shape only (whether the action is legal is the engine's call): a bid by
    ``bids`` (a check, and the words for what a bid is), a named contract by ``contract_index``
    (ValueError for none of the game's), and the game's own action types by ``more``.

    >>> trick_action_from_record({"type": "bid", "bid": 3.5}, "g", bids=(float.is_integer, "whole"),
    ...                          contract_index=int, more={})
    Traceback (most recent call last):
    ValueError: a bid is whole, not 3.5
    """
    kind = entry.get("type")
    try:
        if kind == "bid":
            is_bid, words = bids
            if not is_bid(entry["bid"]):
                raise ValueError(f"a bid is {words}, not {entry['bid']!r}")
            return Bid(entry["bid"])
        if kind == "pass":
            return Pass()
        if kind == "trump":
            contract_index(entry["trump"])
            return NameTrump(entry["trump"])
        if kind == "play":
            return Play(tile_from_record(entry["tile"]))
        if kind in more:
            return more[str(kind)](entry)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed {game} record entry {entry!r}") from exc
    raise ValueError(f"unknown {game} action type {kind!r}")
