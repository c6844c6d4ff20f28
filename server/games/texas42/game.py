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
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from boneyard.server.games.base import Dealer, Event, IllegalAction, RandomDealer, Viewer, either
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
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, fmt, normalize
from boneyard.server.games.tricks import NELLO, display_key, fmt_tiles, suit_name

_DEAL_ORDER = tuple(display_key(i, None) for i in range(28))
_CANONICAL: dict[Action, Action] = {a: a for a in ALL_ACTIONS}
"""Each action as the one object of ``ALL_ACTIONS``: the engine hands out only those, so the server
finds an action's wire form by identity."""
_PLAYS = tuple(_CANONICAL[Play(t)] for t in ALL_TILES)
_NAMES = tuple(_CANONICAL[NameTrump(t)] for t in CONTRACTS)
_PASS = _CANONICAL[Pass()]
BETWEEN_HANDS = "the hand is over: the next one is not dealt yet"
_TURN_TO = ("bid", "name trump", "play")
"""What the seat to move is to do, by phase (for the out-of-turn message)."""


@dataclass(frozen=True, slots=True)
class TexasOptions:
    """Table options (docs/RULES.md T5, T11, T12).

    >>> TexasOptions().as_dict()
    {'all_pass': 'force_last', 'nello': False, 'target': 7}
    """

    all_pass: Literal["force_last", "redeal"] = "force_last"
    nello: bool = False
    target: int = 7

    def __post_init__(self) -> None:
        if self.all_pass not in ("redeal", "force_last"):
            raise ValueError(f"all_pass must be 'force_last' or 'redeal', not {self.all_pass!r}")
        if type(self.nello) is not bool:
            raise ValueError(f"nello must be true or false, not {self.nello!r}")
        if type(self.target) is not int or not 1 <= self.target <= 21:
            raise ValueError(f"target must be a number of marks from 1 to 21, not {self.target!r}")

    @property
    def players(self) -> int:
        """Always 4 (T1)."""
        return SEATS

    def as_dict(self) -> dict[str, Any]:
        return {"all_pass": self.all_pass, "nello": self.nello, "target": self.target}


@dataclass(slots=True)
class _HandLog:
    deal: tuple[tuple[Tile, ...], ...]
    first: int
    actions: list[tuple[int, Action, bool]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    scores: tuple[int, ...] | None = None


class Texas42Game:
    """One game of Texas 42, from the first deal to a team's 7th mark (shape of ``base.Engine``)."""

    game: ClassVar[str] = "texas42"

    def __init__(
        self,
        options: TexasOptions = TexasOptions(),
        dealer: Dealer | None = None,
        *,
        hold_deals: bool = False,
    ) -> None:
        self._options = options
        self._hold = hold_deals
        """Rest between hands until :meth:`deal_next` (a server pausing between hands)."""
        self._next_first: int | None = None
        """While resting between hands: the next hand's first bidder."""
        self._dealer: Dealer = RandomDealer() if dealer is None else dealer
        self._st = TexasState(
            force_last=options.all_pass == "force_last", nello=options.nello, target=options.target
        )
        self._log: list[_HandLog] = []
        self._played: list[tuple[tuple[int, Tile], ...]] = []
        self._opening = tuple(self._deal(None))

    # -- state ---------------------------------------------------------------------------------

    @property
    def options(self) -> TexasOptions:
        return self._options

    @property
    def players(self) -> int:
        return SEATS

    @property
    def partnerships(self) -> bool:
        """Always: seats 0+2 against 1+3 (T1); ``winner`` and ``scores`` are per team."""
        return True

    @property
    def to_move(self) -> int | None:
        st = self._st
        return None if st.phase == OVER or st.to_move < 0 else st.to_move

    @property
    def is_over(self) -> bool:
        return self._st.phase == OVER

    @property
    def winner(self) -> int | None:
        """The winning team (0: seats 0+2, 1: seats 1+3)."""
        return None if self._st.winner < 0 else self._st.winner

    @property
    def scores(self) -> tuple[int, ...]:
        """Marks per team."""
        return tuple(self._st.marks)

    @property
    def hand_number(self) -> int:
        return self._st.hand_number

    @property
    def phase(self) -> str:
        """``bidding``, ``naming_trump``, ``playing``, ``scored``, ``thrown_in`` or ``over``."""
        return PHASE_NAMES[self._st.phase]

    @property
    def between_hands(self) -> bool:
        return self._next_first is not None

    def deal_next(self) -> list[Event]:
        """Deal the hand held back (``hold_deals``): its ``hand_started`` and ``hand_dealt`` events."""
        first = self._next_first
        if first is None:
            raise ValueError("no hand is waiting to be dealt")
        self._next_first = None
        return self._deal(first)

    def opening_events(self) -> list[Event]:
        return list(self._opening)

    def fast_state(self) -> TexasState:
        """A copy of the int state (omniscient: never give it to a player's bot)."""
        return self._st.copy()

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

    def check_turn(self, seat: int) -> None:
        st = self._st
        if st.phase == OVER:
            raise IllegalAction("the game is over", "game_over")
        if self._next_first is not None:
            raise IllegalAction(BETWEEN_HANDS, "not_your_turn")
        if seat != st.to_move:
            whose = f"seat {st.to_move}'s turn to {_TURN_TO[st.phase]}"
            sitting = " (you sit this nello hand out)" if seat == st.out else ""
            raise IllegalAction(f"it is {whose}, not yours (seat {seat}){sitting}", "not_your_turn")

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
        self._log[-1].result = {
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

    def _deal_or_hold(self, first: int) -> list[Event]:
        if self._hold:
            self._next_first = first
            return []
        return self._deal(first)

    def _deal(self, first: int | None) -> list[Event]:
        """Deal the next hand; ``first=None``: the first hand, whose first bidder is drawn (T3)."""
        order = self._dealer.shuffled(list(ALL_TILES))
        try:
            ids = [TILE_IDS[t] for t in order]
        except (KeyError, TypeError):  # a dealer speaking lists or unordered pairs (a replay from JSON)
            ids = [TILE_IDS[normalize(t)] for t in order]
        if len(ids) != 28 or sum(1 << i for i in ids) != (1 << 28) - 1:
            raise ValueError("dealer.shuffled() must return a permutation of the 28 tiles")
        if first is None:
            first = self._dealer.pick(SEATS)
            if type(first) is not int or not 0 <= first < SEATS:
                raise ValueError(f"dealer.pick(4) returned {first!r}, not a seat")
        st = self._st
        st.deal(ids, first)
        deal = tuple(tuple(ALL_TILES[i] for i in ids[k : k + 7]) for k in range(0, 28, 7))
        self._log.append(_HandLog(deal, first))
        self._played = []
        out: list[Event] = [ev.HandStarted(st.hand_number, first, (7, 7, 7, 7), 0)]
        for seat in range(SEATS):
            shown = sorted(ids[seat * 7 : seat * 7 + 7], key=_DEAL_ORDER.__getitem__)
            out.append(ev.HandDealt(seat, tuple(ALL_TILES[i] for i in shown)))
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

    def _in_hand_order(self, tids: Sequence[int]) -> str:
        trump = self._st.trump
        return fmt_tiles(sorted(tids, key=lambda i: display_key(i, trump if trump >= 0 else None)))

    def _held(self, tile: object) -> int:
        try:
            move = TILE_IDS[tile]  # type: ignore[index]
        except (KeyError, TypeError):
            try:
                move = TILE_IDS[normalize(tile)]  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise IllegalAction(f"not a tile: {tile!r}") from None
        if not self._st.hands[self._st.to_move] >> move & 1:
            raise IllegalAction(f"you do not hold {fmt(ALL_TILES[move])}")
        return move

    # -- views and record ----------------------------------------------------------------------

    def view(self, viewer: Viewer) -> TexasView:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may know, with their legal actions."""
        if viewer is not None and viewer not in range(SEATS):
            raise ValueError(f"no seat {viewer!r} at a Texas 42 table")
        legal = tuple(self.legal_actions(viewer)) if viewer is not None else ()
        return make_view(self._st, self._played, viewer, legal)

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game as a ``boneyard-record/1`` object; an unfinished hand has no ``scores`` yet."""
        out: dict[str, Any] = {
            "format": "boneyard-record/1",
            "game": "texas42",
            "players": SEATS,
            "options": self._options.as_dict(),
        }
        if seat_names is not None:
            if len(seat_names) != SEATS:
                raise ValueError("a Texas 42 record names exactly 4 seats")
            out["seat_names"] = list(seat_names)
        out["hands"] = [_hand_record(h) for h in self._log]
        if self.is_over:
            out["final_scores"] = list(self._st.marks)
            out["winner"] = self._st.winner
        return out


def _bid_words(legal: Sequence[int]) -> str:
    """The bids of ``legal`` as an error message offers them: ``30-41, 42, 84 or pass``."""
    points = [m for m in legal if m in POINT_BIDS]
    words = [f"{points[0]}-{points[-1]}" if len(points) > 1 else str(points[0])] if points else []
    words += [str(m) for m in legal if m and m not in POINT_BIDS]
    return either(words + (["pass"] if 0 in legal else []))


def _hand_record(hand: _HandLog) -> dict[str, Any]:
    actions = []
    for seat, action, auto in hand.actions:
        entry = {"seat": seat, **action.as_dict()}
        if auto:
            entry["auto"] = True
        actions.append(entry)
    out: dict[str, Any] = {
        "deal": [[list(t) for t in tiles] for tiles in hand.deal],
        "first": hand.first,
        "actions": actions,
    }
    if hand.result is not None:
        out["result"] = dict(hand.result)
    if hand.scores is not None:
        out["scores"] = list(hand.scores)
    return out
