"""Texas42Game: the public, validating, event-producing engine for Texas 42.

It wraps a :class:`~boneyard.server.games.texas42.state.TexasState` (which makes every state
change) and adds what a table needs: validation with readable errors, events, views, the record.

>>> from boneyard.server.games.base import RandomDealer
>>> game = Texas42Game(dealer=RandomDealer(1))
>>> game.phase, game.players, game.hand_number
('bidding', 4, 0)
>>> seat = game.to_move
>>> [type(e).__name__ for e in game.apply(seat, Bid(84))]
['BidMade']
>>> game.apply((seat + 1) % 4, Bid(42))
Traceback (most recent call last):
...
boneyard.server.games.base.IllegalAction: the high bid is 84: bid 126 or pass
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from boneyard.protocol.options.texas42 import TexasOptions as TexasOptions
from boneyard.server.games.base import Dealer, Event, IllegalAction, either
from boneyard.server.games.kinds import RatedKind
from boneyard.server.games.texas42 import events as ev
from boneyard.server.games.texas42.actions import ALL_ACTIONS, Action, Bid, NameTrump, Pass, Play
from boneyard.server.games.texas42.rules import CONTRACTS, POINT_BIDS, SEATS, contract_index, is_bid
from boneyard.server.games.texas42.state import (
    BIDDING,
    NAMING,
    OVER,
    PHASE_NAMES,
    PLAYING,
    THROWN_IN,
    TexasState,
)
from boneyard.server.games.texas42.view import TexasView, make_view
from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.games.trickgame import TrickGame
from boneyard.server.games.tricks import NELLO, suit_name

_CANONICAL: dict[Action, Action] = {a: a for a in ALL_ACTIONS}
"""Each action as the one object of ``ALL_ACTIONS``: the engine hands out only those, so the server
finds an action's wire form by identity."""
_PLAYS = tuple(_CANONICAL[Play(t)] for t in ALL_TILES)
_NAMES = tuple(_CANONICAL[NameTrump(t)] for t in CONTRACTS)
_PASS = _CANONICAL[Pass()]


_DEFAULTS = TexasOptions()

TEXAS42_KINDS = (RatedKind("texas42", {}, SEATS, ((0, 2), (1, 3))),)
"""Texas 42 is rated (and sought) as one kind: two partnerships, 0+2 against 1+3 (T1), whatever its
options."""


class Texas42Game(TrickGame[TexasState, Action, TexasView]):
    """One game of Texas 42, from the first deal to a team's 7th mark (shape of ``base.Engine``)."""

    game: ClassVar[str] = "texas42"
    NAME: ClassVar[str] = "Texas 42"
    PLAYERS: ClassVar[int] = SEATS
    TILES = ALL_TILES
    OVER: ClassVar[int] = OVER
    PHASE_NAMES = PHASE_NAMES
    TURN_TO = ("bid", "name trump", "play")

    def __init__(
        self,
        options: TexasOptions = _DEFAULTS,
        dealer: Dealer | None = None,
        *,
        hold_deals: bool = False,
    ) -> None:
        self._options = options
        force_last = options.all_pass == "force_last"
        state = TexasState(force_last=force_last, nello=options.nello, target=options.target)
        super().__init__(state, dealer, hold_deals)

    # -- state ---------------------------------------------------------------------------------

    @property
    def options(self) -> TexasOptions:
        return self._options

    @property
    def partnerships(self) -> bool:
        """Always: seats 0+2 against 1+3 (T1); ``winner`` and ``scores`` are per team."""
        return True

    @property
    def scores(self) -> tuple[int, ...]:
        """Marks per team."""
        return tuple(self._st.marks)

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        st = self._st
        if st.phase == OVER or seat != st.to_move:
            return []
        moves = st.legal_moves()
        if st.phase == PLAYING:
            return [_PLAYS[m] for m in moves]
        if st.phase == NAMING:
            return [_NAMES[m] for m in moves]
        return [_CANONICAL[Bid(m)] if m else _PASS for m in moves]

    def _not_playing(self, seat: int) -> str:
        return " (you sit this nello hand out)" if seat == self._st.out else ""

    def apply(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Take ``action`` for ``seat``; if illegal, raise :class:`IllegalAction` and change nothing."""
        self.check_turn(seat)
        st = self._st
        phase = st.phase
        if phase == PLAYING:
            move = self._play_of(action)
            self._log[-1].actions.append((seat, _PLAYS[move], auto))
            return self._after_play(seat, move)
        if phase == BIDDING:
            move = self._bid_of(action)
            self._log[-1].actions.append((seat, _CANONICAL[Bid(move)] if move else _PASS, auto))
            return self._after_bid(seat, move)
        move = self._trump_of(action)
        self._log[-1].actions.append((seat, _NAMES[move], auto))
        st.push(move)
        out = st.out if st.out >= 0 else None
        return [ev.TrumpNamed(seat, CONTRACTS[move], out)]

    def _after_bid(self, seat: int, move: int) -> list[Event]:
        st = self._st
        st.push(move)
        out: list[Event] = [ev.BidMade(seat, move) if move else ev.Passed(seat)]
        if st.phase == THROWN_IN:
            self._log[-1].scores = tuple(st.marks)
            out.append(ev.HandThrownIn(st.hand_number))
            out += self._deal_or_hold((st.first + 1) % SEATS)  # T5 redeal: the first bidder moves on
        return out

    def _after_play(self, seat: int, move: int) -> list[Event]:
        st = self._st
        tile = ALL_TILES[move]
        if len(st.trick) < st.trick_size - 1:
            st.push(move)
            return [ev.TilePlayed(seat, tile)]
        leader = st.leader
        played = (*zip(st.by, (ALL_TILES[t] for t in st.trick), strict=True), (seat, tile))
        st.push(move)
        self._played.append(played)
        out: list[Event] = [
            ev.TilePlayed(seat, tile),
            ev.TrickWon(
                st.leader,  # the trick's winner, who leads next (kept when the trick ends the hand)
                tuple(t for _, t in played),
                leader,
                tuple(st.points),
                tuple(st.taken),
            ),
        ]
        if st.phase != PLAYING:
            out += self._scored()
        return out

    def _scored(self) -> list[Event]:
        st = self._st
        bidder = st.bidder
        contract = CONTRACTS[st.trump]
        made = st.made > 0
        self._log[-1].extra["result"] = {
            "bidder": bidder,
            "bid": st.high_bid,
            "trump": contract,
            "made": made,
            "points": list(st.points),
            "marks": list(st.hand_marks),
        }
        scores = tuple(st.marks)
        self._log[-1].scores = scores
        out: list[Event] = [
            ev.HandScored(bidder, st.high_bid, contract, made, tuple(st.points), st.hand_marks, scores)
        ]
        if st.phase == OVER:
            out.append(ev.GameOver(st.winner, scores))
        else:
            out += self._deal_or_hold((st.first + 1) % SEATS)  # T3
        return out

    # -- validation ----------------------------------------------------------------------------

    def _play_of(self, action: object) -> int:
        st = self._st
        legal = st.legal_moves()
        if not isinstance(action, Play):
            raise IllegalAction(f"the trump is named: play a tile ({self._in_hand_order(legal)})")
        move = self._held(action.tile)
        if move not in legal:
            raise IllegalAction(
                f"you must follow {suit_name(st.led, st.trump)}: you hold {self._in_hand_order(legal)}"
            )
        return move

    def _trump_of(self, action: object) -> int:
        st = self._st
        offered = "0-6, doubles, none or nello" if NELLO in st.legal_moves() else "0-6, doubles or none"
        if not isinstance(action, NameTrump):
            raise IllegalAction(f"you won the bid at {st.high_bid}: name a trump ({offered})")
        try:
            move = contract_index(action.trump)
        except ValueError:
            raise IllegalAction(f"name a trump: {offered}, not {action.trump!r}") from None
        if move not in st.legal_moves():
            why = "the table plays without nello" if not st.nello else "nello needs a mark bid (42 or more)"
            raise IllegalAction(f"{why}: name {offered}")
        return move

    def _bid_of(self, action: object) -> int:
        """The move of a bid or a pass; IllegalAction listing what may be bid now (T4, T5)."""
        st = self._st
        legal = st.legal_moves()
        allowed = _bid_words(legal)
        if isinstance(action, Pass):
            if 0 not in legal:
                raise IllegalAction(f"the first three passed: you must bid {allowed} (force_last)")
            return 0
        if isinstance(action, Bid):
            bid = action.bid
            if not is_bid(bid):
                raise IllegalAction(f"{bid!r} is not a bid: bids are 30-41 or 42 a mark; now {allowed}")
            if bid not in legal:
                if st.high_bid:
                    raise IllegalAction(f"the high bid is {st.high_bid}: bid {allowed}")
                raise IllegalAction(f"an opening mark bid is 42 or 84: bid {allowed}")
            return bid
        raise IllegalAction(f"the bidding is not over: bid {allowed}")

    # -- views and record ----------------------------------------------------------------------

    def _view_of(self, viewer: int | None, legal: tuple[Action, ...]) -> TexasView:
        return make_view(self._st, self._played, viewer, legal)

    def _dealt(self, ids: Sequence[int], first: int) -> list[Event]:
        """T1: every tile dealt, 7 to each seat."""
        st = self._st
        st.deal(ids, first)
        return [ev.HandStarted(st.hand_number, first, (7, 7, 7, 7), 0)]


def _bid_words(legal: Sequence[int]) -> str:
    """The bids of ``legal`` as an error message offers them: ``30-41, 42, 84 or pass``."""
    points = [m for m in legal if m in POINT_BIDS]
    words = [f"{points[0]}-{points[-1]}" if len(points) > 1 else str(points[0])] if points else []
    words += [str(m) for m in legal if m and m not in POINT_BIDS]
    return either(words + (["pass"] if 0 in legal else []))
