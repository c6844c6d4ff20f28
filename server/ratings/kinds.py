"""The kinds of game rated apart: ``moon``, ``straight-2``, ``straight-3``, ``straight-4`` (each for
themselves) and ``partnerships`` (Straight, 0+2 against 1+3).

>>> kind_of("moon", {"target": 21}), kind_of("straight", {"players": 3})
('moon', 'straight-3')
>>> kind_of("straight", {"players": 4, "partnerships": True}), kind_of("straight", {"players": 4})
('partnerships', 'straight-4')
>>> ranks([10, 30, 30]), ranks([250, 120], winner=0)
([2, 0, 0], [0, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

Kind = Literal["moon", "straight-2", "straight-3", "straight-4", "partnerships"]
KINDS: tuple[Kind, ...] = ("moon", "straight-2", "straight-3", "straight-4", "partnerships")


def as_kind(name: str) -> Kind:
    """``name`` as a :data:`Kind` (``ValueError`` if it is none: a stored kind this version does not know)."""
    for kind in KINDS:
        if kind == name:
            return kind
    raise ValueError(f"no rated kind {name!r}")


def kind_of(game: str, options: Mapping[str, Any]) -> Kind:
    """The kind of a table's game, from its game and options (every option resolved)."""
    if game == "moon":
        return "moon"
    if options.get("partnerships"):
        return "partnerships"
    players = options.get("players", 4)
    return "straight-2" if players == 2 else "straight-3" if players == 3 else "straight-4"


def teams_of(kind: Kind, seats: int) -> list[list[int]]:
    """The seats of each side: one seat each, or the two partnerships (0+2, 1+3: the game's team numbers)."""
    if kind == "partnerships":
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(seats)]


def ranks(scores: Sequence[int], winner: int | None = None) -> list[int]:
    """Each side's place by its final score (0: first; a tie shares a place), the winner first."""
    places = [sum(1 for other in scores if other > score) for score in scores]
    if winner is None:
        return places
    # The rules named the winner (a tie broken by the game): first alone.
    return [0 if side == winner else place + (place == 0) for side, place in enumerate(places)]
