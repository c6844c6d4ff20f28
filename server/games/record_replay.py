"""Replaying ``boneyard-record/1`` game records through the engines.

A record holds every deal and every action, so replaying it through a fresh
engine must reproduce it exactly: the same per-hand scores, final scores and
winner, and a record of its own equal to the one replayed. :func:`replay` checks
all of that and raises :class:`ReplayError` saying where the record went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.server.games.base import Engine, IllegalAction
from boneyard.server.games.registry import game_spec
from boneyard.server.games.tiles import Tile, normalize


class ReplayError(ValueError):
    """The record does not replay: it breaks a rule, or disagrees with what the rules produce."""


class RecordDealer:
    """A dealer that deals what a record says was dealt, hand after hand."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        self._hands: Sequence[Mapping[str, Any]] = record["hands"]
        self._hand = -1

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        self._hand += 1
        if self._hand >= len(self._hands):
            raise ReplayError(
                f"the rules deal hand {self._hand + 1}, but the record has only {len(self._hands)}"
            )
        hand = self._hands[self._hand]
        order = [normalize(t) for seat_tiles in hand["deal"] for t in seat_tiles]
        # What was not dealt to a seat: Moon's widow, Straight's boneyard (Texas 42 deals every tile).
        order += [normalize(hand["widow"])] if "widow" in hand else []
        order += [normalize(t) for t in hand.get("boneyard", ())]
        if sorted(order) != sorted(tiles):
            raise ReplayError(f"hand {self._hand + 1}: the dealt tiles are not exactly the set's tiles")
        return order

    def pick(self, n: int) -> int:
        first = self._hands[self._hand]["first"]
        if not (isinstance(first, int) and 0 <= first < n):
            raise ReplayError(f"hand {self._hand + 1}: first player {first!r} is not a seat")
        return first


def replay(record: Mapping[str, Any]) -> Engine:
    """Replay ``record`` through a fresh engine and return the engine, checked against the record."""
    spec = game_spec(record["game"])
    options = spec.options_from_dict(record["options"])
    if spec.players_of(options) != record["players"]:
        raise ReplayError(
            f"options give {spec.players_of(options)} players, the record says {record['players']}"
        )
    engine = spec.new_game(options, RecordDealer(record))
    for number, hand in enumerate(record["hands"], start=1):
        for index, entry in enumerate(hand["actions"], start=1):
            where = f"hand {number}, action {index} ({entry.get('type')!r} by seat {entry.get('seat')!r})"
            try:
                action = spec.action_from_record(entry)
                events = engine.apply(entry["seat"], action, auto=bool(entry.get("auto", False)))
            except (IllegalAction, KeyError, TypeError, ValueError) as error:
                raise ReplayError(f"{where}: {error}") from error
            if entry["type"] == "draw":
                drawn = [e for e in events if getattr(e, "type", None) == "tile_drawn"]
                if not drawn or drawn[0].tile != normalize(entry["tile"]):  # type: ignore[attr-defined]
                    raise ReplayError(f"{where}: the record's drawn tile is not the boneyard's next tile")
        replayed = engine.record()["hands"][number - 1]["scores"]
        if list(replayed) != list(hand["scores"]):
            raise ReplayError(
                f"hand {number}: scores {hand['scores']} in the record, {replayed} by the rules"
            )
    ours = engine.record(record.get("seat_names"))
    for key in ("hands", "final_scores", "winner"):
        if _plain(ours.get(key)) != _plain(record.get(key)):
            raise ReplayError(
                f"{key!r} differs: the record has {record.get(key)!r}, the rules give {ours.get(key)!r}"
            )
    return engine


def _plain(value: Any) -> Any:
    """Tuples as lists, so a record from JSON compares equal to one built in memory."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
