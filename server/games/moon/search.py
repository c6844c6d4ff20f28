"""Searching Moon bots: determinized playouts from the seat's view alone (PIMC, as GIB did for bridge).

Every decision samples *worlds*: the tiles the seat cannot see dealt at random among
their possible holders, consistently with the view (:func:`worlds`: tile counts, the
voids a player showed by failing to follow, the discard known only to the bidder,
the widow unknown to all but the bidder). Each candidate is then played out in every
world on the engine's fast path (:class:`MoonState`) with a quick greedy policy for
every seat, and the candidate with the best average outcome wins:

- card play: each legal tile, over the same worlds;
- bidding: the tricks the seat would take as bidder in each world (widow added, a
  heuristic discard and trump), hence the chance of making each bid, 21 included;
- discard and trump: each promising pair over worlds of the opponents' hands.

A hand's outcome for the seat is its points minus the mean of the others', plus a bonus (or a
loss) when the hand decides the game (:func:`outcome`): a bid, 21 included, is made when its
expected value beats passing. ``for_the_game=True`` judges by a rough chance to win the game
instead (:func:`game_value`); it beats ``basic`` by more but loses head-to-head to the points
judgement (bench/README.md), so the registered levels use points.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.moon.game import MoonGame
>>> game = MoonGame(dealer=RandomDealer(2))
>>> bot = MoonSearchBot(play_worlds=2, bid_worlds=4, contract_worlds=2)
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(seat, bot.choose(game.view(seat), random.Random(seat)))
>>> game.winner in (0, 1, 2)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence

from boneyard.server.games.determinize import Holder, sample_holdings
from boneyard.server.games.moon.actions import Action, Bid, Discard, NameTrump, Pass, Play
from boneyard.server.games.moon.bot import estimate
from boneyard.server.games.moon.rules import (
    GRAND,
    LED,
    LED_TRUMP,
    MOON_MASK,
    POWER,
    SUIT_MASK,
    TRUMP_MASK,
    TRUMPS,
    ids_of,
    settle,
    trump_index,
)
from boneyard.server.games.moon.state import OVER, PLAYING, MoonState
from boneyard.server.games.moon.view import MoonView
from boneyard.server.games.tiles import ALL_TILES, IS_DOUBLE, PIPS, TILE_IDS

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


def _mask(tiles: Sequence[tuple[int, int]]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << TILE_IDS[tile]
    return mask


def greedy_move(st: MoonState) -> int:
    """The playout policy: the bidder draws trumps, doubles cash, else the cheapest winner or the lowest."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    t = st.trump
    low = LOW[t]
    trick = st.trick
    if not trick:
        tmask = TRUMP_MASK[t]
        if st.to_move == st.bidder:
            trumps = [m for m in moves if tmask >> m & 1]
            if trumps:
                power = POWER[t * 8 + LED_TRUMP]
                return max(trumps, key=power.__getitem__)
        doubles = [m for m in moves if IS_DOUBLE[m] and not tmask >> m & 1]
        if doubles:
            return max(doubles, key=low.__getitem__)
        return min(moves, key=low.__getitem__)
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
    points = st.points
    value = points[seat] - (sum(points) - points[seat]) / 2
    if st.phase == OVER:
        value += WIN_BONUS if st.winner == seat else -WIN_BONUS / 2
    return value


def _voids(view: MoonView, t: int) -> list[int]:
    """Per seat, the tiles it cannot hold: every suit it failed to follow this hand (M9)."""
    forbidden = [0, 0, 0]
    for trick in (*view.played, view.trick):
        if not trick:
            continue
        follow = SUIT_MASK[t * 8 + LED[t][TILE_IDS[trick[0][1]]]]
        for seat, tile in trick[1:]:
            if not follow >> TILE_IDS[tile] & 1:
                forbidden[seat] |= follow
    return forbidden


def worlds(view: MoonView, rng: random.Random, count: int) -> Iterator[list[int]]:
    """``count`` samples of every seat's hand (bitmasks, the viewer's own as it is) consistent with ``view``.

    The widow (while bidding) and the discard (for a non-bidder) are dealt to holders of
    their own and dropped: a playout never needs them.
    """
    me = view.viewer
    assert me is not None
    own = _mask(view.hand)
    seen = (
        own | _mask([tile for trick in view.played for _, tile in trick]) | _mask([x for _, x in view.trick])
    )
    if view.discard is not None:
        seen |= 1 << TILE_IDS[view.discard]
    forbidden = _voids(view, trump_index(view.trump)) if view.trump is not None else [0, 0, 0]
    others = [s for s in range(3) if s != me]
    holders = [Holder(view.tile_counts[s], forbidden[s] & ~own) for s in others]
    hidden_rest = (MOON_MASK & ~seen).bit_count() - sum(h.size for h in holders)
    if hidden_rest:
        holders.append(Holder(hidden_rest))  # the widow, or the discard the viewer did not make
    for _ in range(count):
        masks = sample_holdings(rng, MOON_MASK & ~seen, holders)
        hands = [0, 0, 0]
        hands[me] = own
        for seat, mask in zip(others, masks, strict=False):
            hands[seat] = mask
        yield hands


def _state(view: MoonView, hands: list[int]) -> MoonState:
    """A fast-path state at the viewer's decision, with ``hands`` filled in."""
    st = MoonState(target=view.target)
    st.hand_number = view.hand_number
    st.scores = list(view.scores)
    st.first = view.first
    st.hands = hands
    st.to_move = view.viewer if view.viewer is not None else -1
    st.bids = [-1 if b is None else 0 if b == "pass" else int(b) for b in view.bids]
    st.spoken = sum(1 for b in view.bids if b is not None)
    st.high_bid = view.high_bid or 0
    st.bidder = -1 if view.high_bidder is None else view.high_bidder
    st.taken = list(view.tricks)
    if view.trump is not None:
        t = trump_index(view.trump)
        st.trump = t
        st.phase = PLAYING
        st.trick = [TILE_IDS[x] for _, x in view.trick]
        st.leader = view.leader if view.leader is not None else st.bidder
        st.led = LED[t][st.trick[0]] if st.trick else -1
    return st


def _contract(st: MoonState, seat: int, hand: int, discard: int, t: int, bid: int) -> None:
    """Make ``seat`` the bidder of ``bid`` with ``hand``, discarding ``discard``, trump ``t``, to lead."""
    st.hands[seat] = hand & ~(1 << discard)
    st.discard = discard
    st.bidder = seat
    st.high_bid = bid
    st.trump = t
    st.phase = PLAYING
    st.leader = st.to_move = seat
    st.trick = []
    st.led = -1
    st.taken = [0, 0, 0]


def _cheapest(hand: int, t: int, n: int) -> list[int]:
    """The ``n`` cheapest discards of ``hand`` under trump ``t`` (non-trumps when there are any)."""
    tiles = ids_of(hand)
    off = [i for i in tiles if not TRUMP_MASK[t] >> i & 1] or list(tiles)
    return sorted(off, key=lambda i: (LOW[t][i], i))[:n]


def _trump_guess(hand: int) -> tuple[int, int]:
    """A quick ``(trump, discard)`` for an 8-tile hand, by the basic bot's trick estimate."""
    best: tuple[tuple[tuple[float, int], int], int, int] | None = None
    for t in range(9):
        discard = _cheapest(hand, t, 1)[0]
        key = (estimate(ids_of(hand & ~(1 << discard)), t), t)
        if best is None or key > best[0]:
            best = (key, t, discard)
    assert best is not None
    return best[1], best[2]


def _points_values(tricks: list[int]) -> Callable[[int], float]:
    """Points-mode value of each bid over the sampled trick counts (:func:`outcome`'s scale)."""
    n = len(tricks)

    def value(bid: int) -> float:
        need = 7 if bid == GRAND else bid
        made = sum(1 for x in tricks if x >= need)
        others = sum(7 - x for x in tricks) / 2
        gain = bid + (WIN_BONUS if bid == GRAND else 0)
        return (made * gain - (n - made) * bid - others) / n

    return value


class MoonSearchBot:
    """A determinized-search Moon bot; ``*_worlds`` set its strength and its time per move."""

    def __init__(
        self,
        *,
        play_worlds: int,
        bid_worlds: int,
        contract_worlds: int,
        pass_value: float = 0.0,
        for_the_game: bool = False,
    ) -> None:
        self.play_worlds = play_worlds
        self.bid_worlds = bid_worlds
        self.contract_worlds = contract_worlds
        self.pass_value = pass_value
        """Points mode: what passing is worth on the scale of :func:`outcome`."""
        self.for_the_game = for_the_game
        """Judge outcomes by :func:`game_value` (the chance to win the game), else by :func:`outcome`."""

    def _value(self, st: MoonState, seat: int) -> float:
        return game_value(st, seat) if self.for_the_game else outcome(st, seat)

    def choose(self, view: MoonView, rng: random.Random) -> Action:
        """One of ``view.legal_actions`` (the view must be of the seat to move)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError("the viewer has no legal action")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "bidding":
            return self._bid(view, rng)
        if view.phase == "discarding":
            return Discard(ALL_TILES[self._discard(view, rng)])
        if view.phase == "naming_trump":
            return NameTrump(TRUMPS[self._trump(view, rng)])
        return Play(ALL_TILES[self._play(view, rng)])

    def _play(self, view: MoonView, rng: random.Random) -> int:
        me = view.viewer
        assert me is not None
        moves = sorted(TILE_IDS[a.tile] for a in view.legal_actions if isinstance(a, Play))
        totals = dict.fromkeys(moves, 0.0)
        for hands in worlds(view, rng, self.play_worlds):
            root = _state(view, hands)
            for move in moves:
                st = root.copy()
                st.push(move)
                play_out(st)
                totals[move] += self._value(st, me)
        return max(moves, key=lambda m: (totals[m], -m))

    def _bid(self, view: MoonView, rng: random.Random) -> Action:
        me = view.viewer
        assert me is not None
        own = _mask(view.hand)
        tricks: list[int] = []
        for hands in worlds(view, rng, self.bid_worlds):
            widow = MOON_MASK & ~(hands[0] | hands[1] | hands[2])
            full = own | widow
            t, discard = _trump_guess(full)
            st = _state(view, hands)
            _contract(st, me, full, discard, t, 4)
            play_out(st)
            tricks.append(st.taken[me])
        if self.for_the_game:
            value, passing = self._bid_values(view, tricks)
        else:
            value, passing = _points_values(tricks), self.pass_value
        bids = [a for a in view.legal_actions if isinstance(a, Bid)]
        best = max(bids, key=lambda a: (value(a.bid), -a.bid))
        if Pass() in view.legal_actions and value(best.bid) <= passing:
            return Pass()
        return best

    def _bid_values(self, view: MoonView, tricks: list[int]) -> tuple[Callable[[int], float], float]:
        """Game values of each bid over the sampled trick counts, and of passing."""
        me = view.viewer
        assert me is not None
        target = view.target
        others = [s for s in range(3) if s != me]

        def value(bid: int) -> float:
            total = 0.0
            for taken in tricks:
                split = [0, 0, 0]
                split[me] = taken
                split[others[0]] = (7 - taken) // 2
                split[others[1]] = 7 - taken - (7 - taken) // 2
                _, scores, winner = settle(bid, me, split, view.scores, target)
                if winner is not None:
                    total += 1.0 if winner == me else 0.0
                else:
                    total += win_chance(scores, me, target)
            return total / len(tricks)

        # Passing: most often another seat makes a small contract and the viewer takes a trick or so.
        after = [s + (1 if i == me else 2) for i, s in enumerate(view.scores)]
        return value, win_chance(after, me, target)

    def _discard(self, view: MoonView, rng: random.Random) -> int:
        me = view.viewer
        assert me is not None
        full = _mask(view.hand)
        guess, _ = _trump_guess(full)
        ranked = sorted(
            range(9), key=lambda t: (-estimate(ids_of(full & ~(1 << _cheapest(full, t, 1)[0])), t)[0], t)
        )
        trumps = sorted({guess, *ranked[:3]})
        candidates = [(d, t) for t in trumps for d in _cheapest(full, t, 2)]
        totals = dict.fromkeys(candidates, 0.0)
        for hands in worlds(view, rng, self.contract_worlds):
            for d, t in candidates:
                st = _state(view, hands[:])
                _contract(st, me, full, d, t, view.high_bid or 4)
                play_out(st)
                totals[(d, t)] += self._value(st, me)
        return max(candidates, key=lambda c: (totals[c], c == (_cheapest(full, guess, 1)[0], guess)))[0]

    def _trump(self, view: MoonView, rng: random.Random) -> int:
        me = view.viewer
        assert me is not None
        assert view.discard is not None
        hand = _mask(view.hand)
        discard = TILE_IDS[view.discard]
        totals = [0.0] * 9
        for hands in worlds(view, rng, self.contract_worlds):
            for t in range(9):
                st = _state(view, hands[:])
                _contract(st, me, hand | 1 << discard, discard, t, view.high_bid or 4)
                play_out(st)
                totals[t] += self._value(st, me)
        return max(range(9), key=lambda t: (totals[t], -t))


STRONG = MoonSearchBot(play_worlds=120, bid_worlds=600, contract_worlds=100)
GOOD = MoonSearchBot(play_worlds=12, bid_worlds=60, contract_worlds=10)
