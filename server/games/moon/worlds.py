"""Sampled worlds for the searching Moon bots: the hidden tiles dealt consistently with one seat's view.

A world gives every seat a hand (bitmasks): the viewer's own as it is, the others' drawn
at random from the tiles the viewer cannot see (:func:`worlds`), respecting the tile
counts and the voids a player showed by failing to follow; optionally (``infer``) the
bidder's tiles are drawn to fit its contract (:func:`plausible`). :func:`state_at` makes
the engine's fast-path state at the viewer's decision in that world.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from boneyard.server.games.determinize import Holder, sample_holdings
from boneyard.server.games.moon.bot import estimate
from boneyard.server.games.moon.rules import GRAND, MOON_MASK, ids_of, trump_index
from boneyard.server.games.moon.state import MoonState
from boneyard.server.games.moon.view import MoonView
from boneyard.server.games.tiles import TILE_IDS
from boneyard.server.games.trickgame import seat_state
from boneyard.server.games.tricks import voids


def tiles_mask(tiles: Sequence[tuple[int, int]]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << TILE_IDS[tile]
    return mask


def worlds(view: MoonView, rng: random.Random, count: int, *, infer: bool = False) -> Iterator[list[int]]:
    """``count`` samples of every seat's hand (bitmasks, the viewer's own as it is) consistent with ``view``.

    The widow (while bidding) and the discard (for a non-bidder) are dealt to holders of
    their own and dropped: a playout never needs them. ``infer``: in card play, another seat's
    contract says something of its tiles: a world is redrawn (up to :data:`INFER_TRIES` times)
    until the bidder's tiles of the hand (held and played) could carry its bid (:func:`plausible`).
    """
    me = view.viewer
    assert me is not None
    own = tiles_mask(view.hand)
    seen = (
        own
        | tiles_mask([tile for trick in view.played for _, tile in trick])
        | tiles_mask([x for _, x in view.trick])
    )
    if view.discard is not None:
        seen |= 1 << TILE_IDS[view.discard]
    forbidden = (
        voids((*view.played, view.trick), trump_index(view.trump), 3) if view.trump is not None else [0, 0, 0]
    )
    others = [s for s in range(3) if s != me]
    holders = [Holder(view.tile_counts[s], forbidden[s] & ~own) for s in others]
    hidden_rest = (MOON_MASK & ~seen).bit_count() - sum(h.size for h in holders)
    if hidden_rest:
        holders.append(Holder(hidden_rest))  # the widow, or the discard the viewer did not make
    bidder = view.high_bidder
    check = infer and view.trump is not None and bidder is not None and bidder != me
    if check:
        assert bidder is not None and view.trump is not None
        t = trump_index(view.trump)
        bid = view.high_bid or 4
        by_bidder = tiles_mask([x for trick in (*view.played, view.trick) for s, x in trick if s == bidder])
        slot = others.index(bidder)
    for _ in range(count):
        masks = sample_holdings(rng, MOON_MASK & ~seen, holders)
        if check:
            for _ in range(INFER_TRIES - 1):
                if plausible(masks[slot] | by_bidder, t, bid):
                    break
                masks = sample_holdings(rng, MOON_MASK & ~seen, holders)
        hands = [0, 0, 0]
        hands[me] = own
        for seat, mask in zip(others, masks, strict=False):
            hands[seat] = mask
        yield hands


INFER_TRIES = 12
"""How many draws a world gets to fit the bidder's contract before the last one is taken anyway."""


BID_EVIDENCE: dict[int, float] = {4: 2.8, 5: 3.4, 6: 3.4, 7: 3.6, GRAND: 3.5}
"""Per bid: the basic trick estimate (:func:`~boneyard.server.games.moon.bot.estimate`) that nine in ten
``good`` bidders' hands reach with their trump, after the discard (self-play, 80 games)."""


def plausible(tiles: int, t: int, bid: int) -> bool:
    """Whether a bidder's 7 tiles of the hand (after its discard) fit a bid of ``bid`` with trump ``t``.

    >>> ids = [(6, 6), (6, 5), (6, 4), (5, 5), (3, 1), (2, 1), (4, 2)]
    >>> plausible(tiles_mask(ids), 6, 5), plausible(tiles_mask(ids), 1, 5)
    (True, False)
    """
    return estimate(ids_of(tiles), t)[0] >= BID_EVIDENCE[bid]


def state_at(view: MoonView, hands: list[int]) -> MoonState:
    """A fast-path state at the viewer's decision, with ``hands`` filled in."""
    trump = None if view.trump is None else trump_index(view.trump)
    st = seat_state(MoonState(target=view.target), view, hands, trump)
    st.scores = list(view.scores)
    return st
