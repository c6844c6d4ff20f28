"""Searching 42 bots: determinized playouts from the seat's view alone (PIMC, as Moon's :mod:`..moon.search`).

Every decision samples *worlds*: the tiles the seat cannot see dealt at random to the other three
seats, consistently with the view (:func:`~.worlds.worlds`: tile counts and the suits a seat
showed it lacks). Each candidate is played out in every world on the lean state with the
partnership policy (:func:`~.playout.greedy_move`: the partner draws trumps or smears count, the
opponents keep theirs) for all four seats, and the candidate with the best average outcome wins:

- card play: each legal tile, over the same worlds, judged by :func:`outcome`: the marks the
  hand gives the seat's team less the opponents', then the points (tricks and count) between
  the teams, so that a decided hand still plays for its count;
- bidding: the seat's own contract evaluated over sampled hands of the others: with each of its
  most promising trumps the hand is played to the end (``full``) with the seat as bidder, giving
  the points its team takes; the trump that takes most on average stands for the hand, and each
  bid's value is the marks it wins when made less those it loses when set (a mark bid needs
  all 42 points: all seven tricks); passing is worth nothing, and a bid over the partner's must
  win clearly more than the partner's contract is likely to;
- naming trump (nello among them, where offered): each contract over worlds, by :func:`outcome`.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.texas42.game import Texas42Game, TexasOptions
>>> game = Texas42Game(TexasOptions(target=2), dealer=RandomDealer(2))
>>> bot = TexasSearchBot(play_worlds=2, bid_worlds=4, contract_worlds=2)
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(seat, bot.choose(game.view(seat), random.Random(seat)))
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boneyard.server.games.texas42.actions import Action, Bid, NameTrump, Pass, Play
from boneyard.server.games.texas42.bot import estimate
from boneyard.server.games.texas42.playout import play_out
from boneyard.server.games.texas42.rules import CONTRACTS, MARK, TOTAL, marks_of
from boneyard.server.games.texas42.state import OVER, PLAYING, TexasState
from boneyard.server.games.texas42.view import TexasView
from boneyard.server.games.texas42.worlds import state_at, worlds
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS
from boneyard.server.games.trickbots import choose_by_phase
from boneyard.server.games.trickgame import best_move
from boneyard.server.games.tricks import NELLO, NO_TRUMP

MARK_VALUE = 10.0
"""A mark on the scale of :func:`outcome`, where a point of the hand is worth 0.1."""
WIN_BONUS = 30.0
"""What deciding the game is worth on top of the hand's marks."""
PARTNER_MARGIN = 0.5
"""Bidding over one's partner: the marks its own contract must be worth, on average, beyond passing."""


def outcome(st: TexasState, seat: int) -> float:
    """How good a scored hand is for ``seat``'s team: marks for less marks against, the points
    between the teams (the count among them), and the game's end."""
    ours = seat & 1
    value = MARK_VALUE * (st.hand_marks[ours] - st.hand_marks[1 - ours])
    value += (st.points[ours] - st.points[1 - ours]) / 10
    if st.phase == OVER:
        value += WIN_BONUS if st.winner == ours else -WIN_BONUS
    return value


def contract(st: TexasState, bidder: int, t: int, bid: int, *, full: bool = False) -> None:
    """Make ``st`` the first trick of ``bidder``'s contract: ``bid`` points with trump index ``t``."""
    st.bidder = bidder
    st.high_bid = bid
    st.trump = t
    st.out = (bidder + 2) & 3 if t == NELLO else -1
    st.phase = PLAYING
    st.leader = st.to_move = bidder
    st.trick = []
    st.by = []
    st.led = -1
    st.taken = [0, 0, 0, 0]
    st.points = [0, 0]
    st.full = full


def bid_value(points: Sequence[int], bid: int) -> float:
    """The marks a bid wins on average over the points its team took in sampled hands.

    >>> bid_value([30, 34, 42, 20], 30), bid_value([30, 34, 42, 20], 42)
    (0.5, -0.5)
    """
    need = TOTAL if bid >= MARK else bid
    made = sum(1 for p in points if p >= need)
    return marks_of(bid) * (2 * made - len(points)) / len(points)


class TexasSearchBot:
    """A determinized-search 42 bot; ``*_worlds`` set its strength and its time per move."""

    def __init__(self, *, play_worlds: int, bid_worlds: int, contract_worlds: int, trumps: int = 3) -> None:
        self.play_worlds = play_worlds
        self.bid_worlds = bid_worlds
        self.contract_worlds = contract_worlds
        self.trumps = trumps
        """Bidding: how many trumps (the best by the basic estimate) are played out in each world."""

    def choose(self, view: TexasView, rng: random.Random) -> Action:
        """One of ``view.legal_actions`` (the view must be of the seat to move)."""
        return choose_by_phase(
            view,
            bid=lambda: self._bid(view, rng),
            contract=lambda: CONTRACTS[self._trump(view, rng)],
            play=lambda: ALL_TILES[self._play(view, rng)],
        )

    def _play(self, view: TexasView, rng: random.Random) -> int:
        me = view.viewer
        assert me is not None
        moves = sorted(TILE_IDS[a.tile] for a in view.legal_actions if isinstance(a, Play))

        def played_out(root: TexasState, st: TexasState) -> float:
            play_out(st)
            return outcome(st, me)

        roots = (state_at(view, hands) for hands in worlds(view, rng, self.play_worlds))
        return best_move(moves, roots, played_out)

    def _bid(self, view: TexasView, rng: random.Random) -> Action:
        me = view.viewer
        assert me is not None
        hand = [TILE_IDS[x] for x in view.hand]
        trumps = sorted(range(NO_TRUMP + 1), key=lambda t: (-estimate(hand, t), t))[: self.trumps]
        taken: dict[int, list[int]] = {t: [] for t in trumps}
        for hands in worlds(view, rng, self.bid_worlds):
            for t in trumps:
                st = state_at(view, hands[:])
                contract(st, me, t, 30, full=True)
                play_out(st)
                taken[t].append(st.points[me & 1])
        points = max(taken.values(), key=sum)
        bids = [a for a in view.legal_actions if isinstance(a, Bid)]
        best = max(bids, key=lambda a: (bid_value(points, a.bid), -a.bid))
        if Pass() in view.legal_actions:
            partner = view.high_bidder is not None and (view.high_bidder ^ me) & 1 == 0
            if bid_value(points, best.bid) <= (PARTNER_MARGIN if partner else 0.0):
                return Pass()
        return best

    def _trump(self, view: TexasView, rng: random.Random) -> int:
        me = view.viewer
        assert me is not None
        options = sorted({CONTRACTS.index(a.trump) for a in view.legal_actions if isinstance(a, NameTrump)})
        totals = dict.fromkeys(options, 0.0)
        for hands in worlds(view, rng, self.contract_worlds):
            for t in options:
                st = state_at(view, hands[:])
                contract(st, me, t, view.high_bid or 30)
                play_out(st)
                totals[t] += outcome(st, me)
        return max(options, key=lambda t: (totals[t], -t))


STRONG = TexasSearchBot(play_worlds=100, bid_worlds=120, contract_worlds=60)
GOOD = TexasSearchBot(play_worlds=12, bid_worlds=30, contract_worlds=12, trumps=2)
