"""A basic Moon bot: ``choose(view, rng) -> action``, from the view alone.

It estimates tricks from trumps and doubles to bid (cautiously; 21 only when it
cannot lose), discards its weakest off-suit tile, names its strongest suit, and
plays the cheapest tile that wins the trick, else its lowest legal tile. Any
stronger bot only needs the same signature.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.moon.game import MoonGame
>>> game = MoonGame(dealer=RandomDealer(2))
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(seat, choose(game.view(seat), random.Random(seat)))
>>> game.winner in (0, 1, 2)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boneyard.server.games.moon.actions import Action, Bid, Discard, NameTrump, Pass, Play
from boneyard.server.games.moon.rules import (
    GRAND,
    LED,
    POWER,
    TRUMP_MASK,
    TRUMPS,
    trump_index,
)
from boneyard.server.games.moon.view import MoonView
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS
from boneyard.server.games.trickbots import estimate_tricks


def estimate(hand: Sequence[int], t: int) -> tuple[float, int]:
    """Expected and sure tricks of tile ids ``hand`` if the holder names trump ``t`` and leads (a lower
    trump counts half a trick: it wins once the top ones are drawn, if it lasts).

    >>> ids = [TILE_IDS[x] for x in [(6, 6), (6, 5), (6, 4), (5, 5), (3, 1), (2, 1), (4, 2)]]
    >>> estimate(ids, 6)
    (3.7, 3)
    """
    return estimate_tricks(hand, t, lower_trump=0.5)


def best_trump(hand: Sequence[int]) -> tuple[int, float, int]:
    """``(trump index, expected tricks, sure tricks)`` of the strongest trump for ``hand``."""
    t = max(range(9), key=lambda t: (estimate(hand, t), t if t < 7 else -1))
    est, sure = estimate(hand, t)
    return t, est, sure


def _strength(tid: int, t: int) -> tuple[int, int, int]:
    """Ordering for "lowest": non-trumps below trumps, then by rank in the suit it leads, then pips."""
    return (TRUMP_MASK[t] >> tid & 1, POWER[t * 8 + LED[t][tid]][tid], sum(ALL_TILES[tid]))


def choose(view: MoonView, rng: random.Random) -> Action:
    """A legal action for the seat to move in ``view`` (``rng`` breaks ties only)."""
    legal = view.legal_actions
    if not legal:
        raise ValueError("the viewer has no legal action")
    hand = [TILE_IDS[x] for x in view.hand]
    if view.phase == "bidding":
        return _bid(hand, legal)
    if view.phase == "discarding":
        t, _, _ = best_trump(hand)
        off = [i for i in hand if not TRUMP_MASK[t] >> i & 1] or hand
        return Discard(ALL_TILES[min(off, key=lambda i: (_strength(i, t), rng.random()))])
    if view.phase == "naming_trump":
        return NameTrump(TRUMPS[best_trump(hand)[0]])
    return _play(view, [TILE_IDS[a.tile] for a in legal if isinstance(a, Play)])


def _bid(hand: Sequence[int], legal: Sequence[Action]) -> Action:
    _, est, sure = best_trump(hand)
    bids = [a.bid for a in legal if isinstance(a, Bid)]
    if sure >= 7 and GRAND in bids:
        return Bid(GRAND)
    # The widow adds a tile and the discard drops the worst: worth most of a trick (tuned in self-play).
    want = int(est + 0.8)
    ok = [b for b in bids if b <= want]
    if ok:
        return Bid(max(ok))
    if Pass() in legal:
        return Pass()
    return Bid(min(bids))  # force_last: a bid is compulsory, so the cheapest


def _play(view: MoonView, legal: Sequence[int]) -> Action:
    t = trump_index(view.trump)
    if not view.trick:
        own_trumps = [i for i in legal if TRUMP_MASK[t] >> i & 1]
        if view.viewer == view.high_bidder and own_trumps:
            return Play(ALL_TILES[max(own_trumps, key=lambda i: _strength(i, t))])  # draw trumps
        doubles = [i for i in legal if ALL_TILES[i][0] == ALL_TILES[i][1] and i not in own_trumps]
        if doubles:
            return Play(ALL_TILES[max(doubles, key=lambda i: _strength(i, t))])
        return Play(ALL_TILES[min(legal, key=lambda i: _strength(i, t))])
    power = POWER[t * 8 + LED[t][TILE_IDS[view.trick[0][1]]]]
    best = max(power[TILE_IDS[x]] for _, x in view.trick)
    winners = [i for i in legal if power[i] > best]
    if winners:
        return Play(ALL_TILES[min(winners, key=lambda i: power[i])])
    return Play(ALL_TILES[min(legal, key=lambda i: _strength(i, t))])
