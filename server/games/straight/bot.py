"""A basic Straight bot that sees only its view: the :class:`Bot` interface and :class:`BasicBot`.

It plays the tile and end that score most now, then the heaviest tile (shedding pips
for the count at the end of the hand); it draws or passes only when that is all it may do.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.straight.game import StraightGame
>>> game = StraightGame(dealer=RandomDealer(5))
>>> seat = game.to_move
>>> choose(game.view(seat), random.Random(0)) in game.legal_actions(seat)
True
"""

from __future__ import annotations

import random
from typing import Protocol

from boneyard.server.games.straight.actions import Action, Play
from boneyard.server.games.straight.scoring import play_points
from boneyard.server.games.straight.view import StraightView


class Bot(Protocol):
    """Anything that picks an action from a view; stronger bots implement this too."""

    def choose(self, view: StraightView, rng: random.Random) -> Action:
        """One of ``view.legal_actions`` (the view must be of the seat to move)."""
        ...


class BasicBot:
    """Greedy: most points now, then the heaviest tile; ties broken by ``rng``."""

    def choose(self, view: StraightView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("the viewer has no legal action")
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]  # a draw or a pass: it is the only action
        keys = [(play_points(view.layout.count_after(p.tile, p.end)), p.tile[0] + p.tile[1]) for p in plays]
        best = max(keys)
        top = [p for p, k in zip(plays, keys, strict=True) if k == best]
        return top[rng.randrange(len(top))] if len(top) > 1 else top[0]


_BASIC = BasicBot()


def choose(view: StraightView, rng: random.Random) -> Action:
    """:meth:`BasicBot.choose` as a function."""
    return _BASIC.choose(view, rng)
