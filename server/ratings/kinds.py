"""The kinds of game rated apart, as the games declare them (``GameSpec.kinds``): Moon; Straight for
2, 3 or 4 each for themselves (``straight-2``, ``-3``, ``-4``) and in ``partnerships`` (0+2 against 1+3);
Texas 42 (``texas42``, its two partnerships). No game is named here: a new game declares its kinds in
its own module, and the wire's ``RatingKind`` lists them (a test holds the two together).

>>> kind_of("moon", {"target": 21}), kind_of("straight", {"players": 3})
('moon', 'straight-3')
>>> four = {"players": 4, "partnerships": True}
>>> kind_of("straight", four), kind_of("straight", {**four, "partnerships": False})
('partnerships', 'straight-4')
>>> kind_of("texas42", {"nello": True}), game_of("partnerships"), players_of("texas42")
('texas42', ('straight', {'players': 4, 'partnerships': True}), 4)
>>> teams_of("texas42", 4), teams_of("straight-3", 3)
([[0, 2], [1, 3]], [[0], [1], [2]])
>>> ranks([10, 30, 30]), ranks([250, 120], winner=0)
([2, 0, 0], [0, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import get_args

from boneyard.protocol.ratings import RatingKind
from boneyard.server.errors import CommandError
from boneyard.server.games.kinds import OptionValue, RatedKind
from boneyard.server.games.registry import GAMES

Kind = RatingKind
KINDS: tuple[Kind, ...] = get_args(RatingKind)

_DECLARED: dict[str, tuple[str, RatedKind]] = {
    kind.name: (spec.name, kind) for spec in GAMES.values() for kind in spec.kinds
}
"""Every game's kinds by name: the game it is a kind of, and the kind."""


def as_kind(name: str) -> Kind:
    """``name`` as a :data:`Kind` (``ValueError`` if it is none: a stored kind this version does not know)."""
    for kind in KINDS:
        if kind == name:
            return kind
    raise ValueError(f"no rated kind {name!r}")


def kind_of(game: str, options: Mapping[str, object]) -> Kind:
    """The kind of a table's game, from its game and options (every option resolved); a game that is
    not rated is refused (``invalid_options``)."""
    for kind in GAMES[game].kinds:
        if kind.fits(options):
            return as_kind(kind.name)
    raise CommandError("invalid_options", f"{game} tables with these options are not rated")


def game_of(kind: Kind) -> tuple[str, dict[str, OptionValue]]:
    """The game and options a kind is played with (the rest at their defaults)."""
    game, declared = _DECLARED[kind]
    return game, dict(declared.options)


def players_of(kind: Kind) -> int:
    """The seats of a table of ``kind``."""
    return _DECLARED[kind][1].players


def teams_of(kind: Kind, seats: int) -> list[list[int]]:
    """The seats of each side: one seat each, or the partnerships (in the game's team numbers)."""
    declared = _DECLARED[kind][1]
    return declared.sides() if declared.teams else [[seat] for seat in range(seats)]


def ranks(scores: Sequence[int], winner: int | None = None) -> list[int]:
    """Each side's place by its final score (0: first; a tie shares a place), the winner first."""
    places = [sum(1 for other in scores if other > score) for score in scores]
    if winner is None:
        return places
    # The rules named the winner (a tie broken by the game): first alone.
    return [0 if side == winner else place + (place == 0) for side, place in enumerate(places)]
