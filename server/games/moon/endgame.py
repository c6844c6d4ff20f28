"""Exact solving of a Moon hand's last tricks in one sampled world (double dummy: every hand known).

Once the trump is named a Moon hand is a game of two sides: the bidder against the two
others, who both want the contract set. In one world (every hand known) the bidder's best
is to take as many tricks as it can and the others' to take as many as they can, whatever
the scores, so the remaining play is a zero-sum game that alpha-beta solves exactly. The
solver judges from one seat, ``me``: the bidder's tricks first, then, when ``me`` is not the
bidder, its own tricks (its partner of the hand helps it to them, the bidder does not),
scored as ``16 * bidder's tricks - my tricks`` from here on (the bidder maximises, the others
minimise). The score adds up trick by trick, so a position's value does not depend on the
tricks already taken, and a transposition table (with alpha-beta bounds) keyed on the hands,
the trick in play and the seat to move shares it between the orders that reach it.

With 4 tiles a hand left a solve takes about a millisecond on the engine's lean state, with 5
a few; 7 is about 150 ms (Python).

>>> from boneyard.server.games.moon.rules import MOON_IDS
>>> from boneyard.server.games.moon.state import MoonState
>>> st = MoonState()
>>> st.deal(MOON_IDS, first=0)
>>> for move in (4, 0, 0, MOON_IDS[3], 5):  # seat 0 bids 4, the others pass; a discard, trump 5
...     st.push(move)
>>> while st.hands[st.to_move].bit_count() > 3:
...     st.push(st.legal_moves()[0])
>>> values = solve_moves(st, st.to_move)
>>> sorted(values) == list(st.legal_moves())
True
>>> all(sum(v) == 7 for v in values.values())
True
"""

from __future__ import annotations

from boneyard.server.games.moon.rules import LED, NEXT_SEAT, SUIT_MASK, ids_of, winner_offset
from boneyard.server.games.moon.state import MoonState

BIDDER_TRICK = 16
"""A bidder's trick outweighs any number of ``me``'s own (at most 7)."""
_INF = 1 << 20

_Key = tuple[int, int, int, tuple[int, ...], int]


def solve_moves(st: MoonState, me: int) -> dict[int, tuple[int, ...]]:
    """Every legal tile of the seat to move, with the tricks each seat ends the hand with when
    both sides play on perfectly (as judged from ``me``).

    ``st`` is a playing state with every hand filled in; it is not changed.
    """
    solver = _Solver(st, me)
    seat = st.to_move
    hands = st.hands[:]
    trick = tuple(st.trick)
    out: dict[int, tuple[int, ...]] = {}
    for move in st.legal_moves():
        hands[seat] ^= 1 << move
        score = solver.after(hands, trick, seat, move, -_INF, _INF)
        hands[seat] ^= 1 << move
        out[move] = solver.tricks(st, score)
    return out


def solve_state(st: MoonState, me: int) -> tuple[int, ...]:
    """The tricks each seat ends the hand with from ``st`` under perfect play (as judged from ``me``)."""
    solver = _Solver(st, me)
    h = st.hands
    return solver.tricks(st, solver.value(h[0], h[1], h[2], tuple(st.trick), st.to_move, -_INF, _INF))


class _Solver:
    """Alpha-beta with a transposition table over one world of one hand."""

    __slots__ = ("bidder", "mine", "table", "trump")

    def __init__(self, st: MoonState, me: int) -> None:
        self.trump = st.trump
        self.bidder = st.bidder
        self.mine = -1 if me == st.bidder else me
        self.table: dict[_Key, tuple[int, int]] = {}

    def tricks(self, st: MoonState, score: int) -> tuple[int, ...]:
        """The final tricks per seat from a score of the tricks still to play."""
        bidder_more = -(-score // BIDDER_TRICK)
        mine_more = BIDDER_TRICK * bidder_more - score
        rest = (sum(h.bit_count() for h in st.hands) + len(st.trick)) // 3 - bidder_more
        taken = list(st.taken)
        taken[self.bidder] += bidder_more
        if self.mine >= 0:
            taken[self.mine] += mine_more
            taken[3 - self.bidder - self.mine] += rest - mine_more
        else:  # the bidder's own view: how the others split their tricks does not matter to it
            first, second = (s for s in range(3) if s != self.bidder)
            taken[first] += rest - rest // 2
            taken[second] += rest // 2
        return tuple(taken)

    def after(
        self, hands: list[int], trick: tuple[int, ...], seat: int, move: int, alpha: int, beta: int
    ) -> int:
        """The score once ``seat`` has played ``move`` (``hands`` already without it)."""
        trick = (*trick, move)
        if len(trick) < 3:
            return self.value(hands[0], hands[1], hands[2], trick, NEXT_SEAT[seat], alpha, beta)
        t = self.trump
        winner = (NEXT_SEAT[seat] + winner_offset(t, LED[t][trick[0]], *trick)) % 3
        gain = BIDDER_TRICK if winner == self.bidder else -1 if winner == self.mine else 0
        if not hands[winner]:
            return gain
        return gain + self.value(hands[0], hands[1], hands[2], (), winner, alpha - gain, beta - gain)

    def value(
        self, h0: int, h1: int, h2: int, trick: tuple[int, ...], seat: int, alpha: int, beta: int
    ) -> int:
        key = (h0, h1, h2, trick, seat)
        bounds = self.table.get(key)
        low, high = bounds if bounds is not None else (-_INF, _INF)
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        alpha, beta = max(alpha, low), min(beta, high)
        first_alpha, first_beta = alpha, beta
        hands = [h0, h1, h2]
        hand = hands[seat]
        moves = ids_of(hand)
        if trick:
            t = self.trump
            follow = hand & SUIT_MASK[t * 8 + LED[t][trick[0]]]
            if follow:
                moves = ids_of(follow)
        maximising = seat == self.bidder
        best = -_INF if maximising else _INF
        for move in moves:
            hands[seat] = hand ^ 1 << move
            score = self.after(hands, trick, seat, move, alpha, beta)
            if maximising:
                if score > best:
                    best = score
                    alpha = max(alpha, score)
            elif score < best:
                best = score
                beta = min(beta, score)
            if alpha >= beta:
                break
        if best <= first_alpha:
            high = best
        elif best >= first_beta:
            low = best
        else:
            low = high = best
        self.table[key] = (low, high)
        return best
