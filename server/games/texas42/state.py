"""The Texas 42 game state as plain ints: the single implementation of the rules' state changes.

:class:`TexasState` is what :class:`~boneyard.server.games.texas42.game.Texas42Game` runs on, and
it is also the *lean path* the searching bots play out: ``copy()``, ``legal_moves()`` and
``push(move)`` work on int moves with no validation and no event objects. It is omniscient
(it holds every hand): only server-side code, and bots that filled in the hidden tiles
themselves, may use it.

A move is an int whose meaning depends on the phase:

- ``BIDDING``: ``0`` pass, or the bid in points (``30``-``41``, ``42``, ``84``, ...);
- ``NAMING``: a trump index (``0..6``, ``7`` doubles, ``8`` none, ``9`` nello);
- ``PLAYING``: a tile id (``boneyard.server.games.tiles``).

>>> import random
>>> s = TexasState()
>>> s.deal(list(range(28)), first=1)
>>> s.to_move, s.legal_moves()[:3], len(s.legal_moves())
(1, (0, 30, 31), 15)
>>> s.playout(random.Random(3))
>>> s.phase in (HAND_OVER, THROWN_IN, OVER)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.games.texas42.rules import (
    MARK,
    TRICKS,
    decided,
    legal_bids,
    marks_of,
    next_seat,
    trick_points,
)
from boneyard.server.games.trickgame import TRICK_FIELDS, TrickState
from boneyard.server.games.tricks import LED, NELLO, winning_offset

BIDDING, NAMING, PLAYING, HAND_OVER, THROWN_IN, OVER = range(6)
PHASE_NAMES: tuple[str, ...] = ("bidding", "naming_trump", "playing", "scored", "thrown_in", "over")
"""Phase names. The game rests in ``scored`` or ``thrown_in`` only when it holds the next deal
(``hold_deals``, a server's pause between hands); otherwise it deals the next hand at once."""

_FORCED_BIDS = legal_bids(0)
_TRUMP_MOVES = tuple(range(9))
_WITH_NELLO = tuple(range(10))


TEXAS_FIELDS: tuple[str, ...] = ("by", "full", "hand_marks", "made", "marks", "nello", "out", "points")
"""This game's own slots (beside :data:`TRICK_FIELDS`)."""


class TexasState(TrickState):
    """Hands as bitmasks, the auction, the trick, the hand's points and the marks of one 42 game."""

    PLAYING = PLAYING
    HAND_OVER = HAND_OVER
    LISTS = ("marks", "hands", "bids", "trick", "by", "taken", "points")
    __slots__ = TEXAS_FIELDS
    FIELDS = TRICK_FIELDS + TEXAS_FIELDS

    def __init__(self, *, force_last: bool = True, nello: bool = False, target: int = 7) -> None:
        self.force_last = force_last
        self.nello = nello
        self.target = target
        self.full = False
        """Play every trick, decided or not (the bots' measure of a hand's points); scored at the end."""
        self.hand_number = -1
        self.marks = [0, 0]
        self.winner = -1
        self.first = 0
        self.phase = THROWN_IN  # no hand dealt yet
        self.to_move = -1
        self.hands = [0, 0, 0, 0]
        self._new_hand()

    def _new_hand(self) -> None:
        """A hand's auction, contract and tricks, before anything is said."""
        self.bids = [-1, -1, -1, -1]
        self.spoken = 0
        self.high_bid = 0
        self.bidder = -1
        self.trump = -1
        self.out = -1
        self.trick: list[int] = []
        self.by: list[int] = []
        """The seats that played the current trick's tiles, in order."""
        self.leader = -1
        self.led = -1
        self.taken = [0, 0, 0, 0]
        self.points = [0, 0]
        self.made = 0
        self.hand_marks = (0, 0)

    def deal(self, order: Sequence[int], first: int) -> None:
        """Start the next hand: seat ``s`` gets ``order[7s:7s+7]`` (T1)."""
        hands = [0, 0, 0, 0]
        for i in range(28):
            hands[i // 7] |= 1 << order[i]
        self.hands = hands
        self.hand_number += 1
        self.first = self.to_move = first
        self.phase = BIDDING
        self._new_hand()

    @property
    def trick_size(self) -> int:
        """4 tiles a trick; 3 while a nello bidder's partner sits out (T11)."""
        return 3 if self.out >= 0 else 4

    def legal_moves(self) -> tuple[int, ...]:
        """The moves of the seat to move (empty between hands and once the game is over)."""
        phase = self.phase
        if phase == PLAYING:
            return self.legal_plays()
        if phase == BIDDING:
            if self.force_last and self.spoken == 3 and not self.high_bid:
                return _FORCED_BIDS  # T5: the fourth may not pass when the first three did
            return (0, *legal_bids(self.high_bid))
        if phase == NAMING:
            return _WITH_NELLO if self.nello and self.high_bid >= MARK else _TRUMP_MOVES
        return ()

    def push(self, move: int) -> None:
        """Make a legal move for the seat to move (unchecked: the caller guarantees legality)."""
        phase = self.phase
        seat = self.to_move
        if phase == PLAYING:
            self.hands[seat] ^= 1 << move
            trick = self.trick
            if not trick:
                self.led = LED[self.trump][move]
            trick.append(move)
            self.by.append(seat)
            if len(trick) < self.trick_size:
                self.to_move = next_seat(seat, self.out)
                return
            self._end_trick()
        elif phase == BIDDING:
            self.bids[seat] = move
            self.spoken += 1
            if move:
                self.high_bid = move
                self.bidder = seat
            if self.spoken < 4:  # T4: one turn each
                self.to_move = (seat + 1) & 3
            elif self.bidder < 0:
                self.phase = THROWN_IN  # T5 option redeal: all passed
                self.to_move = -1
            else:
                self.phase = NAMING
                self.to_move = self.bidder
        elif phase == NAMING:
            self.trump = move
            if move == NELLO:
                self.out = (seat + 2) & 3  # T11: the partner sits out
            self.phase = PLAYING
            self.leader = seat  # T7: the bidder leads the first trick
        else:
            raise ValueError(f"no move is possible in phase {PHASE_NAMES[phase]}")

    def _end_trick(self) -> None:
        trick = self.trick
        winner = self.by[winning_offset(self.trump, self.led, trick)]
        self.taken[winner] += 1
        team = winner & 1
        self.points[team] += trick_points(trick)  # T8
        self.trick = []
        self.by = []
        self.leader = self.to_move = winner
        ours = self.bidder & 1
        won = self.taken[ours] + self.taken[ours + 2]
        lost = self.taken[1 - ours] + self.taken[3 - ours]
        if self.full and won + lost < TRICKS:
            return
        result = decided(
            self.high_bid, self.trump == NELLO, won, lost, self.points[ours], self.points[1 - ours]
        )
        if result:
            self._score(result)

    def _score(self, result: int) -> None:
        """T9, T12: the marks of the contract to the side that made or set it; 7 marks win."""
        self.made = result
        side = self.bidder & 1 if result > 0 else 1 - (self.bidder & 1)
        marks = marks_of(self.high_bid)
        self.marks[side] += marks
        self.hand_marks = (marks, 0) if side == 0 else (0, marks)
        self.to_move = -1
        if self.marks[side] >= self.target:
            self.winner = side
            self.phase = OVER
        else:
            self.phase = HAND_OVER

    @property
    def tricks_played(self) -> int:
        return sum(self.taken)
