"""What the arena counts of a game, declared by the game: each event's part in the figures of each side.

The arena (``boneyard.server.arena``) plays bots against each other and sums, per level: points per
hand, contracts bid and made, and the game's grand contract (Moon's 21). What an event means for those
figures is the game's business: each game gives its ``ArenaFigures`` on its ``GameSpec``, and the arena
names no game.

>>> NO_FIGURES.count(object(), (0, 1, 2)) is None, NO_FIGURES.grand
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Figures:
    """One event's part in the arena's figures."""

    points: Mapping[int, int] = field(default_factory=dict)
    """Points (or marks) to add to a side's hand: side -> points."""
    hand_over: bool = False
    """The hand is over: each side's points for it are counted, and a hand played."""
    bidder: int | None = None
    """The seat whose contract this event settled (``None``: no contract settled)."""
    made: bool = False
    """The contract was made."""
    grand: bool = False
    """The contract was the game's grand one (``ArenaFigures.grand`` names it)."""


Counter = Callable[[object, Sequence[int]], "Figures | None"]
"""``count(event, sides) -> Figures | None``: ``sides[seat]`` is the seat's side (itself, or its team);
``None``: the event changes no figure."""


def _nothing(event: object, sides: Sequence[int]) -> Figures | None:
    return None


@dataclass(frozen=True, slots=True)
class ArenaFigures:
    """How the arena counts a game's events."""

    count: Counter = _nothing
    grand: str | None = None
    """The name of the game's grand contract, counted apart (Moon's ``21``); ``None``: it has none."""


NO_FIGURES = ArenaFigures()
