"""The quick card-play policy of the 42 bots, on the lean state (:class:`TexasState`).

:func:`greedy_move` looks only at the mover's own hand and the public table (the trick, the
contract), so the basic bot plays it from its view, and the searching bots play it for every
seat of a sampled world (:func:`play_out`). It plays as a partnership: the bidders draw trumps,
a seat whose partner holds the trick safely gives it count ("smearing"), a seat that must
throw off keeps its count from the opponents; in nello the bidder ducks and the others duck
under the bidder's tile.

>>> st = TexasState()
>>> st.deal(list(range(28)), first=0)
>>> for move in (30, 0, 0, 0, 6):  # seat 0 bids 30, trump 6
...     st.push(move)
>>> play_out(st)
>>> st.phase != PLAYING, sum(st.points) <= 42
(True, True)
"""

from __future__ import annotations

from boneyard.server.games.texas42.rules import COUNT
from boneyard.server.games.texas42.state import PLAYING, TexasState
from boneyard.server.games.tiles import PIPS
from boneyard.server.games.trickbots import greedy_lead
from boneyard.server.games.tricks import LED, LED_TRUMP, NELLO, POWER, TRUMP_MASK, winning_offset

LOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (TRUMP_MASK[t] >> i & 1) * 100_000
        + COUNT[i] * 1000
        + (POWER[t * 8 + LED[t][i]][i] + 1) * 20
        + PIPS[i]
        for i in range(28)
    )
    for t in range(10)
)
"""``LOW[t][tid]``: how cheap a tile is to give away under trump ``t``: non-trumps first, count
kept, then by rank in the suit it would lead, then pips."""

SURE = 7
"""A power this high (the led suit's double) or a trump's (100 and up) holds a trick in a basic
reading: the partner's tile is then worth smearing count onto."""


def greedy_move(st: TexasState) -> int:
    """The policy's tile for the seat to move (a playing state; only that seat's hand is read)."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    t = st.trump
    if t == NELLO:
        return _nello_move(st, moves)
    low = LOW[t]
    trick = st.trick
    me = st.to_move
    if not trick:
        return greedy_lead(moves, t, low, draws_trumps=(me ^ st.bidder) & 1 == 0)  # the bidders' side draws
    power = POWER[t * 8 + st.led]
    lead = winning_offset(t, st.led, trick)
    best = power[trick[lead]]
    if (st.by[lead] ^ me) & 1 == 0:  # the partner holds the trick
        if len(trick) == st.trick_size - 1 or best >= SURE:
            return max(moves, key=lambda m: (COUNT[m], -low[m]))
        return min(moves, key=low.__getitem__)
    winners = [m for m in moves if power[m] > best]
    if winners:
        return min(winners, key=lambda m: (power[m], COUNT[m] == 0))
    return min(moves, key=low.__getitem__)


def _nello_move(st: TexasState, moves: tuple[int, ...]) -> int:
    """Nello (T11): the bidder plays its highest tile that loses the trick (its lowest when none
    does); the others play their lowest, leaving the bidder's tile on top."""
    trick = st.trick
    t = st.trump
    rank = POWER[t * 8 + LED_TRUMP]  # the doubles, by number; a non-double ranks in its suit below
    if not trick:
        return min(moves, key=lambda m: (POWER[t * 8 + LED[t][m]][m], PIPS[m]))
    power = POWER[t * 8 + st.led]
    best = power[trick[winning_offset(t, st.led, trick)]]
    if st.to_move == st.bidder:
        losing = [m for m in moves if power[m] < best]
        if losing:
            return max(losing, key=lambda m: (power[m], rank[m], PIPS[m]))
    return min(moves, key=lambda m: (power[m], PIPS[m]))


def play_out(st: TexasState) -> None:
    """Finish the hand's card play with :func:`greedy_move` for every seat."""
    push = st.push
    while st.phase == PLAYING:
        push(greedy_move(st))
