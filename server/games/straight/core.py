"""The state of a Straight game and the one place it changes: the lean path bots search with.

:class:`StraightCore` holds hands as bitmasks and actions as int codes (see :mod:`.layout`).
Its ``legal_codes``/``push``/``playout``/``copy`` skip validation and event objects;
:class:`~server.games.straight.game.StraightGame` adds the checked public API on top of
the very same ``_step``.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> core = StraightCore(StraightOptions(players=2), RandomDealer(4))
>>> search = core.copy()
>>> search.playout(random.Random(0))
>>> search.to_move is None, core.to_move is not None  # the copy stopped at the end of its hand
(True, True)
"""

from __future__ import annotations

import random
from typing import Self

from boneyard.server.games.base import Dealer, RandomDealer
from boneyard.server.games.straight.layout import DRAW, OPENING, PASS, Layout
from boneyard.server.games.straight.options import StraightOptions
from boneyard.server.games.straight.record import HandLog
from boneyard.server.games.straight.scoring import Award, award, game_winner, pips_of, play_points, side_of
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS

# Outcomes of one step.
CONTINUE, DOMINO, BLOCKED, TARGET = 0, 1, 2, 3
HAND_SIZE = 7
_LOGGED: tuple[tuple[tuple[tuple[int, int, bool], ...], ...], ...] = tuple(
    tuple(
        tuple((seat, code, auto) for code in (*range((OPENING + 1) << 5), PASS, DRAW))
        for auto in (False, True)
    )
    for seat in range(4)
)
"""Each hand log entry ``(seat, code, auto)`` made once, by seat, ``auto`` and code (PASS and DRAW, negative,
index from the end): a game's log holds every move until its record, so its entries are shared."""


class StraightCore:
    """A whole game's state, hand after hand; the first hand is dealt on construction.

    A copy made without a dealer stops when its hand ends (``to_move`` is then ``None``).
    """

    __slots__ = (
        "_bone",
        "_bone_len",
        "_bpos",
        "_dealer",
        "_hand",
        "_hands",
        "_last_award",
        "_last_count",
        "_last_pips",
        "_last_points",
        "_layout",
        "_leader",
        "_log",
        "_logs",
        "_n",
        "_next",
        "_next_leader",
        "_opts",
        "_passes",
        "_scores",
        "_side",
        "_target",
        "_teams",
        "_turn",
        "_winner",
    )
    # Set by _start_hand for every hand.
    _hands: list[int]
    _bone: list[int]
    _bone_len: int
    _bpos: int
    _layout: Layout
    _passes: int
    _leader: int
    _turn: int
    _log: HandLog

    def __init__(self, options: StraightOptions | None = None, dealer: Dealer | None = None) -> None:
        opts = options if options is not None else StraightOptions()
        self._opts = opts
        self._n = n = opts.players
        self._teams = opts.teams
        self._target = opts.target
        self._side: tuple[int, ...] = tuple(side_of(s, opts.teams) for s in range(n))
        self._next: tuple[int, ...] = tuple((s + 1) % n for s in range(n))
        self._dealer: Dealer | None = dealer if dealer is not None else RandomDealer()
        self._scores: list[int] = [0] * (2 if opts.teams else n)
        self._winner: int | None = None
        self._hand = -1
        self._next_leader: int | None = None
        self._logs: list[HandLog] = []
        self._last_award: Award | None = None
        self._last_pips: tuple[int, ...] = ()
        self._last_count = self._last_points = 0
        self._start_hand()

    # ----- public state -----------------------------------------------------------------------

    @property
    def options(self) -> StraightOptions:
        return self._opts

    @property
    def players(self) -> int:
        return self._n

    @property
    def partnerships(self) -> bool:
        return self._teams

    @property
    def target(self) -> int:
        return self._target

    @property
    def to_move(self) -> int | None:
        return self._turn if self._turn >= 0 else None

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def hand_number(self) -> int:
        return self._hand

    @property
    def leader(self) -> int:
        return self._leader

    @property
    def boneyard_count(self) -> int:
        return self._bone_len - self._bpos

    @property
    def count(self) -> int:
        return self._layout.count

    @property
    def tile_counts(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self._hands)

    # ----- the lean path ------------------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """The legal action codes of the seat to move (see :mod:`.layout`); empty if nobody is to move."""
        turn = self._turn
        if turn < 0:
            return []
        codes = self._layout.play_codes(self._hands[turn])
        if codes:
            return codes
        return [DRAW] if self._bpos < self._bone_len else [PASS]

    def is_legal(self, code: int) -> bool:
        """Whether ``code`` is in :meth:`legal_codes`, without listing them."""
        turn = self._turn
        if turn < 0:
            return False
        hand = self._hands[turn]
        if code >= 0:
            return bool(hand >> (code & 31) & 1) and self._layout.fits(code & 31, code >> 5)
        if self._layout.playable(hand):
            return False
        return code == (DRAW if self._bpos < self._bone_len else PASS)

    def push(self, code: int) -> None:
        """Apply a code from :meth:`legal_codes` for the seat to move, unchecked and without events."""
        out = self._step(self._turn, code, False)
        if out >= DOMINO and out != TARGET and self._winner is None and self._dealer is not None:
            self._start_hand()

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal actions until the current hand (or the game) ends."""
        rnd = rng.random
        hand = self._hand
        while self._turn >= 0 and self._hand == hand:
            codes = self.legal_codes()
            self.push(codes[int(rnd() * len(codes))])

    def copy(self, dealer: Dealer | None = None) -> Self:
        """An independent copy. Without ``dealer`` it deals no further hand: it stops when this hand ends."""
        cls = type(self)
        new = cls.__new__(cls)
        for klass in cls.__mro__:
            for name in getattr(klass, "__slots__", ()):
                setattr(new, name, getattr(self, name))
        new._dealer = dealer
        new._hands = self._hands[:]
        new._scores = self._scores[:]
        new._layout = self._layout.copy()
        new._log = self._log.copy()
        new._logs = [*self._logs[:-1], new._log]
        return new

    @property
    def layout(self) -> Layout:
        """The line of play (read it; only :meth:`push` changes it)."""
        return self._layout

    def hand_mask(self, seat: int) -> int:
        """``seat``'s tiles as a bitmask (omniscient: for the server and for searches on sampled worlds)."""
        return self._hands[seat]

    @classmethod
    def position(
        cls,
        options: StraightOptions,
        hands: list[int],
        boneyard: list[int],
        layout: Layout,
        *,
        scores: tuple[int, ...],
        to_move: int,
        passes: int,
        leader: int,
        hand_number: int,
    ) -> StraightCore:
        """A mid-hand position, every tile placed (a search's sampled world); it stops at the hand's end.

        >>> from boneyard.server.games.straight.layout import OPENING
        >>> lay = Layout(); _ = lay.play(25, OPENING)
        >>> core = StraightCore.position(StraightOptions(players=2), [1 << 1, 1 << 0], [3], lay,
        ...                              scores=(0, 0), to_move=0, passes=0, leader=1, hand_number=0)
        >>> core.legal_codes(), core.boneyard_count
        ([-1], 1)
        """
        new = cls.__new__(cls)
        new._opts = options
        new._n = n = options.players
        new._teams = options.teams
        new._target = options.target
        new._side = tuple(side_of(s, options.teams) for s in range(n))
        new._next = tuple((s + 1) % n for s in range(n))
        new._dealer = None
        new._scores = list(scores)
        new._winner = None
        new._hand = hand_number
        new._next_leader = None
        new._last_award = None
        new._last_pips = ()
        new._last_count = new._last_points = 0
        new._hands = hands[:]
        new._bone = boneyard[:]
        new._bone_len = len(boneyard)
        new._bpos = 0
        new._layout = layout.copy()
        new._passes = passes
        new._leader = leader
        new._turn = to_move
        new._log = HandLog(tuple(() for _ in range(n)), tuple(boneyard), leader)
        new._logs = [new._log]
        return new

    # ----- the rules ------------------------------------------------------------------------------

    def _step(self, seat: int, code: int, auto: bool) -> int:
        """Apply a legal action; the single place where state changes during a hand."""
        self._log.actions.append(_LOGGED[seat][auto][code])
        if code >= 0:
            tid = code & 31
            hand = self._hands[seat] ^ (1 << tid)
            self._hands[seat] = hand
            count = self._layout.play(tid, code >> 5)
            self._passes = 0
            points = play_points(count)
            self._last_count = count
            self._last_points = points
            if points:
                side = self._side[seat]
                self._scores[side] += points
                if self._scores[side] >= self._target and self._check_end():
                    return TARGET  # S13: the game stops at once, even on a domino
            if not hand:
                self._finish(seat)
                return DOMINO
            self._turn = self._next[seat]
            return CONTINUE
        if code == DRAW:
            # The seat keeps the turn: it plays the tile if it fits, else draws or passes again.
            self._hands[seat] |= 1 << self._bone[self._bpos]
            self._bpos += 1
            return CONTINUE
        self._passes += 1
        if self._passes == self._n:
            self._finish(None)
            return BLOCKED
        self._turn = self._next[seat]
        return CONTINUE

    def _check_end(self) -> bool:
        winner = game_winner(self._scores, self._target)
        if winner is None:
            return False
        self._winner = winner
        self._turn = -1
        self._log.scores = tuple(self._scores)
        return True

    def _finish(self, domino: int | None) -> None:
        pips = tuple(pips_of(h) for h in self._hands)
        result = award(pips, self._teams, domino)
        for side, points in enumerate(result.points):
            self._scores[side] += points
        self._last_award = result
        self._last_pips = pips
        self._log.scores = tuple(self._scores)
        self._next_leader = domino  # S3: the domino player leads next; after a block, chance decides
        self._turn = -1
        self._check_end()

    def _start_hand(self) -> None:
        assert self._dealer is not None
        n = self._n
        shuffled = self._dealer.shuffled(ALL_TILES)
        try:
            ids = [TILE_IDS[(int(t[0]), int(t[1]))] for t in shuffled]
        except (KeyError, TypeError, IndexError, ValueError):
            ids = []
        if sorted(ids) != list(range(len(ALL_TILES))):
            raise ValueError("the dealer must return each of the 28 tiles once, as (high, low)")
        leader = self._next_leader if self._next_leader is not None else self._dealer.pick(n)
        if type(leader) is not int or not 0 <= leader < n:
            raise ValueError(f"the dealer picked {leader!r}, not a seat")
        deal = tuple(tuple(ids[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(n))
        self._hands = [sum(1 << t for t in seat_ids) for seat_ids in deal]
        self._bone = ids[HAND_SIZE * n :]
        self._bone_len = len(self._bone)
        self._bpos = 0
        self._layout = Layout()
        self._passes = 0
        self._hand += 1
        self._leader = self._turn = leader
        self._next_leader = None
        self._log = HandLog(deal, tuple(self._bone), leader)
        self._logs.append(self._log)
