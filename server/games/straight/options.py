"""Straight table options (docs/RULES.md S1, S13).

>>> StraightOptions(players=3, target=100)
StraightOptions(players=3, partnerships=False, target=100)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boneyard.protocol.values import PARTNERSHIP_PLAYERS, check_partnerships
from boneyard.server.games.kinds import RatedKind


@dataclass(frozen=True, slots=True)
class StraightOptions:
    """Table options (S1, S13). ``partnerships=None`` means on with 4 players, off otherwise.

    >>> StraightOptions().as_dict()
    {'players': 4, 'partnerships': True, 'target': 250}
    >>> StraightOptions(players=3).as_dict()
    {'players': 3, 'partnerships': False, 'target': 250}
    """

    players: int = 4
    partnerships: bool | None = None
    target: int = 250

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if self.partnerships is None:
            object.__setattr__(self, "partnerships", self.players == PARTNERSHIP_PLAYERS)
        check_partnerships(self.players, self.partnerships)
        if type(self.target) is not int or self.target < 1:
            raise ValueError(f"target must be a positive int, not {self.target!r}")

    @property
    def teams(self) -> bool:
        return bool(self.partnerships)

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "partnerships": self.teams, "target": self.target}


STRAIGHT_KINDS = (
    RatedKind("straight-2", {"players": 2}, 2),
    RatedKind("straight-3", {"players": 3}, 3),
    RatedKind("straight-4", {"players": 4, "partnerships": False}, 4),
    RatedKind("partnerships", {"players": 4, "partnerships": True}, 4, ((0, 2), (1, 3))),
)
"""Straight is rated (and sought) by its number of players, each for themselves, and in partnerships
(0+2 against 1+3) apart."""
