"""The kinds of game a game is rated in and sought in, each declared by its own game.

A *kind* is a game with the options that change who plays whom: Straight for two, three or four each
for themselves, or in two partnerships; Moon; Texas 42. Ratings are kept per kind, and matchmaking pools
seekers per kind. The server's ratings and matchmaking read the kinds from the games' specs
(``GameSpec.kinds``), so a new game declares its own and touches neither.

>>> four = RatedKind("partnerships", {"players": 4, "partnerships": True}, 4, ((0, 2), (1, 3)))
>>> four.fits({"players": 4, "partnerships": True, "target": 250}), four.fits({"players": 4})
(True, False)
>>> four.sides(), RatedKind("moon", {}, 3).sides()
([[0, 2], [1, 3]], [[0], [1], [2]])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class RatedKind:
    """One kind of a game: rated apart from the others, and sought apart."""

    name: str
    """Its name on the wire (``protocol.ratings.RatingKind`` lists every game's kinds)."""
    options: Mapping[str, OptionValue]
    """The options that make a table of this kind (every other option may be anything): a sought
    table is made with these, the rest at their defaults."""
    players: int
    teams: tuple[tuple[int, ...], ...] = ()
    """The seats of each side when sides are partnerships (their order: the game's team numbers, as
    its ``winner`` and ``scores`` count them); empty: every seat for itself."""

    def fits(self, options: Mapping[str, object]) -> bool:
        """A table with these options (every option resolved, as ``as_dict()`` gives them) is of this kind."""
        return all(options.get(name) == value for name, value in self.options.items())

    def sides(self) -> list[list[int]]:
        """The seats of each side, in the order the game's scores count the sides."""
        if self.teams:
            return [list(team) for team in self.teams]
        return [[seat] for seat in range(self.players)]
