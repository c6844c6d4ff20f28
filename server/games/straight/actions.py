"""Straight actions: :class:`Play`, :class:`Draw`, :class:`Pass`, and their record form.

>>> action_from_record({"seat": 1, "type": "play", "tile": [4, 6], "end": "left"})
Play(tile=(6, 4), end='left')
>>> Play((6, 4), "left").as_dict()
{'type': 'play', 'tile': [6, 4], 'end': 'left'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from boneyard.server.games.straight.layout import DRAW, END_INDEX, END_NAMES, OPENING, PASS, End, encode
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, normalize


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile`` on the open ``end`` (``None`` only for the opening tile)."""

    type: ClassVar[str] = "play"
    tile: Tile
    end: End | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "tile": list(self.tile), "end": self.end}


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one tile from the boneyard (only with no playable tile in hand)."""

    type: ClassVar[str] = "draw"

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (only with no playable tile and an empty boneyard)."""

    type: ClassVar[str] = "pass"

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type}


Action = Play | Draw | Pass
_DRAW = Draw()
_PASS = Pass()
# Every placement made once: legal_actions() then builds no new objects, and apply() maps
# an action to its code with one dict lookup.
_PLAYS: tuple[Play, ...] = tuple(
    Play(ALL_TILES[code & 31], None if code >> 5 == OPENING else END_NAMES[code >> 5])
    for code in range((OPENING + 1) << 5)
    if code & 31 < len(ALL_TILES)
)
_PLAY_CODE: dict[Action, int] = {
    p: encode(TILE_IDS[p.tile], OPENING if p.end is None else END_INDEX[p.end]) for p in _PLAYS
}
_CODE_OF: dict[Action, int] = {**_PLAY_CODE, _DRAW: DRAW, _PASS: PASS}
ALL_ACTIONS: tuple[Action, ...] = (*_PLAYS, _DRAW, _PASS)
"""Every well-formed Straight action (legal or not at a given moment): what the wire can name."""
ACTION_OF: dict[int, Action] = {code: a for a, code in _CODE_OF.items()}
"""Every action by its code."""


def action_of(code: int) -> Action:
    """The public action of an internal code.

    >>> action_of(-1), action_of(25 | 4 << 5)
    (Draw(), Play(tile=(6, 4), end=None))
    """
    return ACTION_OF[code]


def code_of(action: object) -> int | None:
    """The internal code of an action, ``None`` if it is not a well-formed Straight action.

    A :class:`Play` code says nothing yet about legality; ``end=None`` maps to the opening end.
    """
    try:
        return _CODE_OF[action]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if not isinstance(action, Play):
        return None
    try:
        tid = TILE_IDS[normalize(action.tile)]
    except (TypeError, ValueError):
        return None
    if action.end is None:
        return encode(tid, OPENING)
    end = END_INDEX.get(action.end) if isinstance(action.end, str) else None
    return None if end is None else encode(tid, end)


def action_from_record(entry: Mapping[str, Any]) -> Action:
    """The action of a ``boneyard-record/1`` action entry (a ``draw`` entry's tile is not part of it).

    >>> action_from_record({"seat": 0, "type": "draw", "tile": [2, 0]}), action_from_record({"type": "pass"})
    (Draw(), Pass())
    """
    kind = entry.get("type")
    if kind == "draw":
        return _DRAW
    if kind == "pass":
        return _PASS
    if kind == "play":
        end = entry.get("end")
        if end is not None and end not in END_INDEX:
            raise ValueError(f"not an end: {end!r}")
        return Play(normalize(entry["tile"]), end)
    raise ValueError(f"not a Straight action type: {kind!r}")
