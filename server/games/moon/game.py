"""MoonGame: the public, validating, event-producing engine for Three-Player Moon.

It wraps a :class:`~server.games.moon.state.MoonState` (which makes every state change)
and adds what a table needs: validation with readable errors, events, views, the record.

>>> from boneyard.server.games.base import RandomDealer
>>> game = MoonGame(dealer=RandomDealer(1))
>>> game.phase, game.players, game.hand_number
('bidding', 3, 0)
>>> seat = game.to_move
>>> [type(e).__name__ for e in game.apply(seat, Bid(21))]
['BidMade', 'WidowTaken']
>>> game.apply(seat, Bid(4))
Traceback (most recent call last):
...
boneyard.server.games.base.IllegalAction: you won the bid at 21: discard one of your 8 tiles
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from boneyard.protocol.options.moon import MoonOptions as MoonOptions
from boneyard.server.games.base import Dealer, Event, IllegalAction, either
from boneyard.server.games.kinds import RatedKind
from boneyard.server.games.moon import events as ev
from boneyard.server.games.moon.actions import ALL_ACTIONS, Action, Bid, Discard, NameTrump, Pass, Play
from boneyard.server.games.moon.rules import BIDS, MOON_TILES, TRUMPS, suit_name, trump_index
from boneyard.server.games.moon.state import (
    BIDDING,
    DISCARDING,
    HAND_OVER,
    OVER,
    PHASE_NAMES,
    PLAYING,
    THROWN_IN,
    MoonState,
)
from boneyard.server.games.moon.view import MoonView, make_view
from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.games.trickgame import TrickGame

_CANONICAL: dict[Action, Action] = {a: a for a in ALL_ACTIONS}
"""Each action as the one object of ``ALL_ACTIONS`` (the game's ``GameSpec.actions``): the engine hands
out only those, so the server finds an action's wire form by identity."""
_PLAYS = tuple(_CANONICAL[Play(t)] for t in ALL_TILES)
_DISCARDS = tuple(_CANONICAL[Discard(t)] for t in ALL_TILES)
_NAMES = tuple(_CANONICAL[NameTrump(t)] for t in TRUMPS)
_BIDDING = {0: _CANONICAL[Pass()], **{b: _CANONICAL[Bid(b)] for b in BIDS}}
NAME_A_TRUMP = "name a trump: 0-6, doubles or none"
# The canonical action of each int move, indexed by phase (BIDDING, DISCARDING, NAMING, PLAYING).
_ACTIONS: tuple[Any, ...] = (_BIDDING, _DISCARDS, _NAMES, _PLAYS)
_LOGGED: tuple[dict[int, tuple[tuple[tuple[int, Action, bool], ...], ...]], ...] = tuple(
    {
        move: tuple(tuple((seat, action, auto) for auto in (False, True)) for seat in range(3))
        for move, action in (table.items() if isinstance(table, dict) else enumerate(table))
    }
    for table in _ACTIONS
)
"""Each hand log entry ``(seat, action, auto)`` made once, by phase, move, seat and ``auto``: a game's log
holds every move until its record, so its entries are shared rather than a tuple per move per table."""


_DEFAULTS = MoonOptions()

MOON_KINDS = (RatedKind("moon", {}, 3),)
"""Moon is rated (and sought) as one kind: three players, each for themselves."""


class MoonGame(TrickGame[MoonState, Action, MoonView]):
    """One game of Three-Player Moon, from the first deal to a winner (shape of ``base.Engine``)."""

    game: ClassVar[str] = "moon"
    NAME: ClassVar[str] = "Moon"
    PLAYERS: ClassVar[int] = 3
    TILES = MOON_TILES
    OVER: ClassVar[int] = OVER
    PHASE_NAMES = PHASE_NAMES
    TURN_TO = ("bid", "discard", "name trump", "play")

    def __init__(
        self, options: MoonOptions = _DEFAULTS, dealer: Dealer | None = None, *, hold_deals: bool = False
    ) -> None:
        self._options = options
        state = MoonState(force_last=options.all_pass == "force_last", target=options.target)
        super().__init__(state, dealer, hold_deals)

    # -- state ---------------------------------------------------------------------------------

    @property
    def options(self) -> MoonOptions:
        return self._options

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._st.scores)

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        st = self._st
        if st.phase == OVER or seat != st.to_move:
            return []
        table = _ACTIONS[st.phase]
        return [table[m] for m in st.legal_moves()]

    def apply(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Take ``action`` for ``seat``; if illegal, raise :class:`IllegalAction` and change nothing."""
        self.check_turn(seat)
        st = self._st
        move = self._move_of(action)
        self._log[-1].actions.append(_LOGGED[st.phase][move][seat][auto])  # canonical form
        phase = st.phase
        if phase == PLAYING:
            return self._after_play(seat, move)
        if phase == BIDDING:
            return self._after_bid(seat, move)
        st.push(move)
        if phase == DISCARDING:
            return [ev.Discarded(seat, ALL_TILES[move])]
        return [ev.TrumpNamed(seat, TRUMPS[move])]

    def _after_bid(self, seat: int, move: int) -> list[Event]:
        st = self._st
        st.push(move)
        out: list[Event] = [ev.BidMade(seat, move) if move else ev.Passed(seat)]
        if st.phase == DISCARDING:
            out.append(ev.WidowTaken(st.bidder, ALL_TILES[st.widow]))
        elif st.phase == THROWN_IN:
            self._log[-1].scores = tuple(st.scores)
            out.append(ev.HandThrownIn(st.hand_number))
            out += self._deal_or_hold((st.first + 1) % 3)  # M3: thrown-in hands move the first bidder on too
        return out

    def _after_play(self, seat: int, move: int) -> list[Event]:
        st = self._st
        tile = ALL_TILES[move]
        if len(st.trick) < 2:
            st.push(move)
            return [ev.TilePlayed(seat, tile)]
        leader = st.leader
        first, second = ALL_TILES[st.trick[0]], ALL_TILES[st.trick[1]]
        st.push(move)
        tiles = (first, second, tile)
        self._played.append(((leader, first), ((leader + 1) % 3, second), ((leader + 2) % 3, tile)))
        out: list[Event] = [ev.TilePlayed(seat, tile), ev.TrickWon(st.leader, tiles, leader, tuple(st.taken))]
        if st.phase in (HAND_OVER, OVER):
            scores = tuple(st.scores)
            self._log[-1].scores = scores
            out.append(ev.HandScored(st.bidder, st.high_bid, tuple(st.taken), st.points, scores))
            if st.phase == OVER:
                out.append(ev.GameOver(st.winner, scores))
            else:
                out += self._deal_or_hold((st.first + 1) % 3)
        return out

    # -- validation ----------------------------------------------------------------------------

    def _move_of(self, action: object) -> int:
        """The int move for ``action``, or IllegalAction saying in words why it is not legal now."""
        st = self._st
        phase = st.phase
        if phase == PLAYING:
            if not isinstance(action, Play):
                raise IllegalAction(
                    f"the trump is named: play a tile ({self._in_hand_order(st.legal_moves())})"
                )
            move = self._held(action.tile)
            legal = st.legal_moves()
            if move not in legal:
                raise IllegalAction(
                    f"you must follow {suit_name(st.led)}: you hold {self._in_hand_order(legal)}"
                )
            return move
        if phase == BIDDING:
            return self._bid_of(action)
        if phase == DISCARDING:
            if isinstance(action, Discard):
                return self._held(action.tile)
            raise IllegalAction(f"you won the bid at {st.high_bid}: discard one of your 8 tiles")
        if isinstance(action, NameTrump):
            try:
                return trump_index(action.trump)
            except ValueError:
                raise IllegalAction(f"{NAME_A_TRUMP}, not {action.trump!r}") from None
        raise IllegalAction(NAME_A_TRUMP)

    def _bid_of(self, action: object) -> int:
        """The move of a bid or a pass; IllegalAction listing what may be bid now (M4, M5)."""
        st = self._st
        legal = st.legal_moves()
        words = [str(m) for m in legal if m] + (["pass"] if 0 in legal else [])
        allowed = either(words)
        if isinstance(action, Pass):
            if 0 not in legal:
                raise IllegalAction(f"both others passed: the last to speak must bid {allowed} (force_last)")
            return 0
        if isinstance(action, Bid):
            bid = action.bid
            if type(bid) is not int or bid not in BIDS:
                raise IllegalAction(f"{bid!r} is not a bid: bids are 4, 5, 6, 7 or 21; now {allowed}")
            if bid not in legal:
                raise IllegalAction(f"the high bid is {st.high_bid}: bid {allowed}")
            return bid
        raise IllegalAction(f"the bidding is not over: bid {allowed}")

    # -- views and record ----------------------------------------------------------------------

    def _view_of(self, viewer: int | None, legal: tuple[Action, ...]) -> MoonView:
        return make_view(self._st, self._played, viewer, legal)

    def _dealt(self, ids: Sequence[int], first: int) -> list[Event]:
        """M1: seats get 7 tiles each, the widow is the 22nd."""
        st = self._st
        st.deal(ids, first)
        self._log[-1].extra["widow"] = list(ALL_TILES[ids[21]])
        return [ev.HandStarted(st.hand_number, first, (7, 7, 7), 0)]
