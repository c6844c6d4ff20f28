"""Playouts and judgements for the searching Moon bots (:mod:`.search`).

A *playout* finishes a hand's card play in one sampled world with a quick greedy policy
for every seat (:func:`greedy_move`), or with perfect play once few tiles are left
(:func:`play_out_solved`, the exact solver of :mod:`.endgame`). A scored hand is then
*judged* for a seat: its points minus the mean of the others', plus a bonus (or a loss)
when the hand decides the game (:func:`outcome`), or by a rough chance to win the game
(:func:`game_value`).

>>> from boneyard.server.games.moon.rules import MOON_IDS
>>> st = MoonState()
>>> st.deal(MOON_IDS, first=0)
>>> for move in (4, 0, 0, MOON_IDS[3], 5):
...     st.push(move)
>>> play_out(st)
>>> sum(st.taken), st.phase != PLAYING
(7, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boneyard.server.games.moon import endgame
from boneyard.server.games.moon.rules import LED, POWER, TRUMP_MASK
from boneyard.server.games.moon.state import OVER, PLAYING, MoonState
from boneyard.server.games.tiles import PIPS
from boneyard.server.games.trickbots import greedy_lead

WIN_BONUS = 30.0
"""What deciding the game is worth on top of the hand's points (a loss counts half of it against)."""

# LOW[t][tid]: how cheap a tile is to throw under trump t (non-trumps first, then by rank, then pips).
LOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (TRUMP_MASK[t] >> i & 1) * 10000 + (POWER[t * 8 + LED[t][i]][i] + 1) * 100 + PIPS[i]
        for i in range(28)
    )
    for t in range(9)
)


def greedy_move(st: MoonState) -> int:
    """The playout policy: the bidder draws trumps, doubles cash, else the cheapest winner or the lowest."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    t = st.trump
    low = LOW[t]
    trick = st.trick
    if not trick:
        return greedy_lead(moves, t, low, draws_trumps=st.to_move == st.bidder)
    power = POWER[t * 8 + st.led]
    best = max(power[x] for x in trick)
    winners = [m for m in moves if power[m] > best]
    if winners:
        return min(winners, key=power.__getitem__)
    return min(moves, key=low.__getitem__)


def play_out(st: MoonState) -> None:
    """Finish the hand's card play with :func:`greedy_move` for every seat."""
    push = st.push
    while st.phase == PLAYING:
        push(greedy_move(st))


def play_out_solved(st: MoonState, me: int, tail: int) -> tuple[int, ...]:
    """The tricks per seat at the end of the hand: :func:`greedy_move` for every seat until a trick
    starts with at most ``tail`` tiles a hand, then perfect play (:func:`endgame.solve_state`)."""
    push = st.push
    while st.phase == PLAYING and (st.trick or st.hands[st.to_move].bit_count() > tail):
        push(greedy_move(st))
    if st.phase == PLAYING:
        return endgame.solve_state(st, me)
    return tuple(st.taken)


def win_chance(scores: Sequence[int], seat: int, target: int) -> float:
    """A rough chance that ``seat`` wins the game from ``scores``: a softmax of the scores, sharper as the
    target is nearer (the leader at 20 of 21 is very likely to win; level scores give a third each).

    >>> round(win_chance((0, 0, 0), 0, 21), 3), round(win_chance((20, 10, 10), 0, 21), 2)
    (0.333, 0.77)
    """
    k = 4.0 / target
    top = max(scores)
    weights = [math.exp(k * (s - top)) for s in scores]
    return weights[seat] / sum(weights)


def game_value(st: MoonState, seat: int) -> float:
    """What a scored hand is worth to ``seat`` on the scale of the game: 1 won, 0 lost, else its chance."""
    if st.phase == OVER:
        return 1.0 if st.winner == seat else 0.0
    return win_chance(st.scores, seat, st.target)


def outcome(st: MoonState, seat: int) -> float:
    """How good a scored hand is for ``seat``: its points minus the others' mean, and the game's end."""
    return judge(st.points, st.winner if st.phase == OVER else None, seat)


def judge(points: Sequence[int], winner: int | None, seat: int) -> float:
    """:func:`outcome` of a hand scored ``points``, decided for ``winner`` (or not decided: ``None``)."""
    value = points[seat] - (sum(points) - points[seat]) / 2
    if winner is not None:
        value += WIN_BONUS if winner == seat else -WIN_BONUS / 2
    return value
