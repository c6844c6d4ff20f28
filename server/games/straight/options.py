"""Straight's table options as the engine plays them: the protocol's model (the one definition of each
option, its default and its limit), and the kinds of Straight rated apart.

>>> StraightOptions(players=3, target=100).as_dict()
{'players': 3, 'partnerships': False, 'target': 100}
"""

from __future__ import annotations

from boneyard.protocol.options.straight import StraightOptions
from boneyard.server.games.kinds import RatedKind

STRAIGHT_KINDS = (
    RatedKind("straight-2", {"players": 2}, 2),
    RatedKind("straight-3", {"players": 3}, 3),
    RatedKind("straight-4", {"players": 4, "partnerships": False}, 4),
    RatedKind("partnerships", {"players": 4, "partnerships": True}, 4, ((0, 2), (1, 3))),
)
"""Straight is rated (and sought) by its number of players, each for themselves, and in partnerships
(0+2 against 1+3) apart."""

__all__ = ["STRAIGHT_KINDS", "StraightOptions"]
