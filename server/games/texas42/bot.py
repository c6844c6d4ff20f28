"""A basic 42 bot: ``choose(view, rng) -> action``, from the view alone.

It estimates the tricks its hand takes with each trump (the top trumps it holds in a row, its
other trumps, its off-suit doubles) and bids the points that many tricks and its partner's
usual help are worth (a mark bid only when nothing can beat it); it names its strongest trump
(never nello), and plays the partnership policy of :func:`~.playout.greedy_move`.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.texas42.game import Texas42Game
>>> game = Texas42Game(dealer=RandomDealer(2))
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(seat, choose(game.view(seat), random.Random(seat)))
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boneyard.server.games.texas42.actions import Action, Bid, NameTrump, Pass, Play
from boneyard.server.games.texas42.playout import greedy_move
from boneyard.server.games.texas42.rules import CONTRACTS, MARK, TRICKS
from boneyard.server.games.texas42.view import TexasView
from boneyard.server.games.texas42.worlds import state_at
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, mask_of
from boneyard.server.games.trickbots import estimate_tricks, off_suit_doubles, sure_tricks
from boneyard.server.games.tricks import NO_TRUMP

PARTNER_TRICKS = 1.0
"""The tricks a partner adds to a bidder's own, on average (a rough reading)."""
POINTS_A_TRICK = 6
"""42 points over 7 tricks."""


def estimate(hand: Sequence[int], t: int) -> float:
    """Expected tricks of tile ids ``hand`` if the holder names trump ``t`` and leads.

    >>> ids = [TILE_IDS[x] for x in [(6, 6), (6, 5), (6, 4), (5, 5), (3, 1), (2, 1), (4, 2)]]
    >>> estimate(ids, 6)
    3.7
    """
    expected, _ = estimate_tricks(hand, t, lower_trump=0.6)
    return min(float(TRICKS), expected)


def best_trump(hand: Sequence[int]) -> tuple[int, float]:
    """``(trump index, expected tricks)`` of the best trump for ``hand`` (numbers before doubles, none)."""
    t = max(range(NO_TRUMP + 1), key=lambda t: (estimate(hand, t), -t))
    return t, estimate(hand, t)


def choose(view: TexasView, rng: random.Random) -> Action:
    """A legal action for the seat to move in ``view`` (``rng`` is not needed: the policy is fixed)."""
    legal = view.legal_actions
    if not legal:
        raise ValueError("the viewer has no legal action")
    hand = [TILE_IDS[x] for x in view.hand]
    if view.phase == "bidding":
        return _bid(view, hand, legal)
    if view.phase == "naming_trump":
        return NameTrump(CONTRACTS[best_trump(hand)[0]])
    me = view.viewer
    assert me is not None
    hands = [0, 0, 0, 0]
    hands[me] = mask_of(view.hand)
    return Play(ALL_TILES[greedy_move(state_at(view, hands))])


def _bid(view: TexasView, hand: Sequence[int], legal: Sequence[Action]) -> Action:
    t, est = best_trump(hand)
    bids = [a.bid for a in legal if isinstance(a, Bid)]
    if sure_tricks(hand, t) + off_suit_doubles(hand, t) >= TRICKS and MARK in bids:
        return Bid(MARK)  # every tile a sure trick: all seven tricks
    partner_bid = view.high_bidder is not None and (view.high_bidder ^ (view.viewer or 0)) & 1 == 0
    worth = int((est + (0 if partner_bid else PARTNER_TRICKS)) * POINTS_A_TRICK)
    ok = [b for b in bids if b <= worth and b < MARK]
    if ok:
        return Bid(max(ok))
    if Pass() in legal:
        return Pass()
    return Bid(min(bids))  # force_last: a bid is compulsory, so the cheapest
