"""The Moon game state as plain ints: the single implementation of the rules' state changes.

:class:`MoonState` is what :class:`~server.games.moon.game.MoonGame` runs on, and it is
also the *fast path* for search: ``copy()``, ``legal_moves()`` and ``push(move)`` work on
int moves with no validation and no event objects. It is omniscient (it holds every
hand), so only server-side code and bots that have filled in the hidden tiles
themselves may use it.

A move is an int whose meaning depends on the phase:

- ``BIDDING``: ``0`` pass, or the bid ``4, 5, 6, 7, 21``;
- ``DISCARDING`` and ``PLAYING``: a tile id (``boneyard.server.games.tiles``);
- ``NAMING``: a trump index (``0..6``, ``7`` doubles, ``8`` none).

>>> import random
>>> from boneyard.server.games.moon.rules import MOON_IDS
>>> s = MoonState()
>>> s.deal(MOON_IDS, first=1)
>>> s.to_move, s.legal_moves()
(1, (0, 4, 5, 6, 7, 21))
>>> s.playout(random.Random(3))
>>> s.phase in (HAND_OVER, THROWN_IN, OVER)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.games.moon.rules import (
    BIDS,
    GRAND,
    LED,
    NEXT_SEAT,
    ids_of,
    settle,
    winner_offset,
)
from boneyard.server.games.trickgame import TRICK_FIELDS, TrickState

BIDDING, DISCARDING, NAMING, PLAYING, HAND_OVER, THROWN_IN, OVER = range(7)
PHASE_NAMES: tuple[str, ...] = (
    "bidding",
    "discarding",
    "naming_trump",
    "playing",
    "scored",
    "thrown_in",
    "over",
)
"""Phase names. MoonGame rests in ``scored`` or ``thrown_in`` only when it holds the next deal
(``hold_deals``, a server's pause between hands); otherwise it deals the next hand at once."""

_BID_MOVES: tuple[tuple[int, ...], ...] = tuple(
    (0, *(b for b in BIDS if b > high)) for high in range(GRAND + 1)
)
_TRUMP_MOVES: tuple[int, ...] = tuple(range(9))


MOON_FIELDS: tuple[str, ...] = ("discard", "points", "scores", "widow")
"""This game's own slots (beside :data:`TRICK_FIELDS`)."""


class MoonState(TrickState):
    """Hands as bitmasks, the auction, the trick and the scores of one Moon game."""

    PLAYING = PLAYING
    HAND_OVER = HAND_OVER
    LISTS = ("scores", "hands", "bids", "trick", "taken")
    __slots__ = MOON_FIELDS
    FIELDS = TRICK_FIELDS + MOON_FIELDS

    def __init__(self, *, force_last: bool = False, target: int = 21) -> None:
        self.force_last = force_last
        self.target = target
        self.hand_number = -1
        self.scores = [0, 0, 0]
        self.points: tuple[int, ...] = (0, 0, 0)
        self.winner = -1
        self.first = 0
        self.phase = THROWN_IN  # no hand dealt yet
        self.to_move = -1
        self.hands = [0, 0, 0]
        self.widow = -1
        self.trick: list[int] = []
        self._new_hand()

    def _new_hand(self) -> None:
        """A hand's bidding, contract and tricks, before anything is said (M1)."""
        self.discard = -1
        self.bids = [-1, -1, -1]
        self.spoken = 0
        self.high_bid = 0
        self.bidder = -1
        self.trump = -1
        self.trick = []
        self.leader = -1
        self.led = -1
        self.taken = [0, 0, 0]

    def deal(self, order: Sequence[int], first: int) -> None:
        """Start the next hand: seat ``s`` gets ``order[7s:7s+7]``, the widow is ``order[21]`` (M1)."""
        hands = [0, 0, 0]
        for i in range(21):
            hands[i // 7] |= 1 << order[i]
        self.hands = hands
        self.widow = order[21]
        self.hand_number += 1
        self.first = self.to_move = first
        self.phase = BIDDING
        self._new_hand()

    def legal_moves(self) -> tuple[int, ...]:
        """The moves of the seat to move (empty between hands and once the game is over)."""
        phase = self.phase
        if phase == PLAYING:
            return self.legal_plays()
        if phase == BIDDING:
            if self.force_last and self.spoken == 2 and not self.high_bid:
                return BIDS  # M5 option force_last: the last to speak may not pass
            return _BID_MOVES[self.high_bid]
        if phase == DISCARDING:
            return ids_of(self.hands[self.to_move])
        if phase == NAMING:
            return _TRUMP_MOVES
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
            if len(trick) < 3:
                self.to_move = NEXT_SEAT[seat]
                return
            winner = (self.leader + winner_offset(self.trump, self.led, *trick)) % 3
            self.taken[winner] += 1
            self.trick = []
            self.leader = self.to_move = winner
            if not self.hands[winner]:  # M11: the hand ends only when all 7 tricks are played
                self._score()
        elif phase == BIDDING:
            self.bids[seat] = move
            self.spoken += 1
            if move:
                self.high_bid = move
                self.bidder = seat
            if move == GRAND or self.spoken == 3:  # M4: one turn each; 21 closes the auction at once
                bidder = self.bidder
                if bidder < 0:
                    self.phase = THROWN_IN  # M5: all passed
                    self.to_move = -1
                else:
                    self.hands[bidder] |= 1 << self.widow  # M6
                    self.phase = DISCARDING
                    self.to_move = bidder
            else:
                self.to_move = NEXT_SEAT[seat]
        elif phase == DISCARDING:
            self.hands[seat] ^= 1 << move
            self.discard = move
            self.phase = NAMING
        elif phase == NAMING:
            self.trump = move
            self.phase = PLAYING
            self.leader = seat  # M9: the bidder leads the first trick
        else:
            raise ValueError(f"no move is possible in phase {PHASE_NAMES[phase]}")

    def _score(self) -> None:
        points, scores, winner = settle(self.high_bid, self.bidder, self.taken, self.scores, self.target)
        self.points = points
        self.scores = list(scores)
        self.to_move = -1
        if winner is None:
            self.phase = HAND_OVER
        else:
            self.winner = winner
            self.phase = OVER
