"""The exact endgame solver against a plain minimax over every line of play (no pruning, no table)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.server.games.moon.endgame import BIDDER_TRICK, solve_moves, solve_state
from boneyard.server.games.moon.playout import greedy_move
from boneyard.server.games.moon.rules import MOON_IDS
from boneyard.server.games.moon.state import PLAYING, MoonState


def _score_of(tricks: tuple[int, ...], s: MoonState, me: int) -> int:
    """The solver's judgement from ``me``: the bidder's tricks first, then ``me``'s own."""
    return BIDDER_TRICK * tricks[s.bidder] - (0 if me == s.bidder else tricks[me])


def _minimax(s: MoonState, me: int) -> int:
    if s.phase != PLAYING:
        return _score_of(tuple(s.taken), s, me)
    values = []
    for move in s.legal_moves():
        child = s.copy()
        child.push(move)
        values.append(_minimax(child, me))
    return max(values) if s.to_move == s.bidder else min(values)


def _endgame(seed: int, tiles_left: int) -> MoonState:
    """A hand bid 5 by a random seat, a random discard and trump, played greedily to ``tiles_left`` a hand
    (or a few tiles more into a trick)."""
    rng = random.Random(seed)
    order = list(MOON_IDS)
    rng.shuffle(order)
    s = MoonState()
    s.deal(order, first=rng.randrange(3))
    for bid in (5, 0, 0):
        s.push(bid)
    s.push(rng.choice(s.legal_moves()))
    s.push(rng.randrange(9))
    while s.hands[s.to_move].bit_count() > tiles_left or rng.random() < 0.3:
        s.push(greedy_move(s))
        if s.phase != PLAYING:
            break
    return s


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tiles_left=st.sampled_from([1, 2, 3]), me=st.integers(0, 2))
def test_the_solver_agrees_with_minimax(seed: int, tiles_left: int, me: int) -> None:
    s = _endgame(seed, tiles_left)
    if s.phase != PLAYING:
        return
    before = s.copy()
    solved = solve_moves(s, me)
    assert sorted(solved) == list(s.legal_moves())
    for move, tricks in solved.items():
        child = s.copy()
        child.push(move)
        assert sum(tricks) == 7 and all(t >= k for t, k in zip(tricks, s.taken, strict=True))
        assert _score_of(tricks, s, me) == _minimax(child, me)
    best = max(solved.values(), key=lambda t: (1 if s.to_move == s.bidder else -1) * _score_of(t, s, me))
    assert _score_of(solve_state(s, me), s, me) == _score_of(best, s, me)
    assert (s.hands, s.trick, s.taken) == (before.hands, before.trick, before.taken), "the state is unchanged"
