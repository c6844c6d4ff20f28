"""Sampled worlds for the 42 bots: the hidden tiles dealt consistently with one seat's view.

A world gives every seat a hand (bitmasks): the viewer's own as it is, the others' drawn at
random from the tiles the viewer cannot see (:func:`worlds`), respecting the tile counts and
the suits a seat showed it lacks by failing to follow. :func:`state_at` makes the lean state
at the viewer's decision in that world (the basic bot uses it with the others' hands empty:
its policy reads only the mover's hand).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from boneyard.server.games.determinize import Holder, sample_holdings
from boneyard.server.games.texas42.rules import contract_index
from boneyard.server.games.texas42.state import TexasState
from boneyard.server.games.texas42.view import TexasView
from boneyard.server.games.tiles import mask_of
from boneyard.server.games.trickgame import seat_state
from boneyard.server.games.tricks import voids

FULL = (1 << 28) - 1


def worlds(view: TexasView, rng: random.Random, count: int) -> Iterator[list[int]]:
    """``count`` samples of every seat's hand (bitmasks, the viewer's own as it is) fitting ``view``."""
    me = view.viewer
    assert me is not None
    own = mask_of(view.hand)
    played = (*view.played, view.trick)
    seen = own | mask_of([tile for trick in played for _, tile in trick])
    forbidden = voids(played, contract_index(view.trump), 4) if view.trump is not None else [0, 0, 0, 0]
    others = [s for s in range(4) if s != me]
    holders = [Holder(view.tile_counts[s], forbidden[s] & ~own) for s in others]
    for _ in range(count):
        masks = sample_holdings(rng, FULL & ~seen, holders)
        hands = [0, 0, 0, 0]
        hands[me] = own
        for seat, mask in zip(others, masks, strict=True):
            hands[seat] = mask
        yield hands


def state_at(view: TexasView, hands: list[int]) -> TexasState:
    """A lean state at the viewer's decision, with ``hands`` filled in."""
    trump = None if view.trump is None else contract_index(view.trump)
    st = seat_state(TexasState(target=view.target), view, hands, trump)
    st.marks = list(view.scores)
    st.points = list(view.points)
    if trump is not None:
        st.out = -1 if view.out is None else view.out
        st.by = [s for s, _ in view.trick]
    return st
