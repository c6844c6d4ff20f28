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
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from boneyard.server.games.base import Dealer, Event, IllegalAction, RandomDealer, Viewer, either
from boneyard.server.games.moon import events as ev
from boneyard.server.games.moon.actions import (
    ALL_ACTIONS,
    Action,
    Bid,
    Discard,
    NameTrump,
    Pass,
    Play,
    action_to_dict,
)
from boneyard.server.games.moon.rules import (
    BIDS,
    MOON_MASK,
    MOON_TILES,
    TRUMPS,
    display_key,
    fmt_tiles,
    suit_name,
    trump_index,
)
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
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, fmt, normalize

_DEAL_ORDER = tuple(display_key(i, None) for i in range(28))
_CANONICAL: dict[Action, Action] = {a: a for a in ALL_ACTIONS}
"""Each action as the one object of ``ALL_ACTIONS`` (the game's ``GameSpec.actions``): the engine hands
out only those, so the server finds an action's wire form by identity."""
_PLAYS = tuple(_CANONICAL[Play(t)] for t in ALL_TILES)
_DISCARDS = tuple(_CANONICAL[Discard(t)] for t in ALL_TILES)
_NAMES = tuple(_CANONICAL[NameTrump(t)] for t in TRUMPS)
_BIDDING = {0: _CANONICAL[Pass()], **{b: _CANONICAL[Bid(b)] for b in BIDS}}
NAME_A_TRUMP = "name a trump: 0-6, doubles or none"
BETWEEN_HANDS = "the hand is over: the next one is not dealt yet"
_TURN_TO = ("bid", "discard", "name trump", "play")
"""What the seat to move is to do, by phase (for the out-of-turn message)."""
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


@dataclass(frozen=True, slots=True)
class MoonOptions:
    """Table options (docs/RULES.md M5, M13)."""

    all_pass: Literal["redeal", "force_last"] = "redeal"
    target: int = 21

    def __post_init__(self) -> None:
        if self.all_pass not in ("redeal", "force_last"):
            raise ValueError(f"all_pass must be 'redeal' or 'force_last', not {self.all_pass!r}")
        if type(self.target) is not int or self.target < 1:
            raise ValueError(f"target must be a positive int, not {self.target!r}")

    def as_dict(self) -> dict[str, Any]:
        return {"all_pass": self.all_pass, "target": self.target}


@dataclass(slots=True)
class _HandLog:
    deal: tuple[tuple[Tile, ...], ...]
    widow: Tile
    first: int
    actions: list[tuple[int, Action, bool]] = field(default_factory=list)
    scores: tuple[int, ...] | None = None


class MoonGame:
    """One game of Three-Player Moon, from the first deal to a winner (shape of ``base.Engine``)."""

    game: ClassVar[str] = "moon"

    def __init__(
        self, options: MoonOptions = MoonOptions(), dealer: Dealer | None = None, *, hold_deals: bool = False
    ) -> None:
        self._options = options
        self._hold = hold_deals
        """Rest between hands until :meth:`deal_next` (a server pausing between hands); otherwise the
        next hand is dealt at once, in the same ``apply``."""
        self._next_first: int | None = None
        """While resting between hands: the next hand's first bidder."""
        self._dealer: Dealer = RandomDealer() if dealer is None else dealer
        self._st = MoonState(force_last=options.all_pass == "force_last", target=options.target)
        self._log: list[_HandLog] = []
        self._played: list[tuple[tuple[int, Tile], ...]] = []
        self._opening = tuple(self._deal(None))

    # -- state ---------------------------------------------------------------------------------

    @property
    def options(self) -> MoonOptions:
        return self._options

    @property
    def players(self) -> int:
        return 3

    @property
    def to_move(self) -> int | None:
        st = self._st
        return None if st.phase == OVER or st.to_move < 0 else st.to_move

    @property
    def is_over(self) -> bool:
        return self._st.phase == OVER

    @property
    def winner(self) -> int | None:
        return None if self._st.winner < 0 else self._st.winner

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._st.scores)

    @property
    def hand_number(self) -> int:
        return self._st.hand_number

    @property
    def phase(self) -> str:
        """``bidding``, ``discarding``, ``naming_trump``, ``playing`` or ``over``."""
        return PHASE_NAMES[self._st.phase]

    @property
    def between_hands(self) -> bool:
        """A hand is over (scored or thrown in) and the next is not dealt yet (only with ``hold_deals``)."""
        return self._next_first is not None

    def deal_next(self) -> list[Event]:
        """Deal the hand held back (``hold_deals``): its ``hand_started`` and ``hand_dealt`` events."""
        first = self._next_first
        if first is None:
            raise ValueError("no hand is waiting to be dealt")
        self._next_first = None
        return self._deal(first)

    def opening_events(self) -> list[Event]:
        """The ``hand_started`` and ``hand_dealt`` events of hand 0."""
        return list(self._opening)

    def fast_state(self) -> MoonState:
        """A copy of the int state for search (omniscient: never give it to a player's bot)."""
        return self._st.copy()

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        st = self._st
        if st.phase == OVER or seat != st.to_move:
            return []
        table = _ACTIONS[st.phase]
        return [table[m] for m in st.legal_moves()]

    def check_turn(self, seat: int) -> None:
        st = self._st
        if st.phase == OVER:
            raise IllegalAction("the game is over", "game_over")
        if self._next_first is not None:
            raise IllegalAction(BETWEEN_HANDS, "not_your_turn")
        if seat != st.to_move:
            whose = f"seat {st.to_move}'s turn to {_TURN_TO[st.phase]}"
            raise IllegalAction(f"it is {whose}, not yours (seat {seat})", "not_your_turn")

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

    def _deal_or_hold(self, first: int) -> list[Event]:
        if self._hold:
            self._next_first = first
            return []
        return self._deal(first)

    def _deal(self, first: int | None) -> list[Event]:
        """Deal the next hand; ``first=None``: the first hand, whose first bidder is drawn (M3)."""
        order = self._dealer.shuffled(list(MOON_TILES))
        try:
            ids = [TILE_IDS[t] for t in order]
        except (KeyError, TypeError):  # a dealer speaking lists or unordered pairs (a replay from JSON)
            ids = [TILE_IDS[normalize(t)] for t in order]
        if len(ids) != 22 or sum(1 << i for i in ids) != MOON_MASK:
            raise ValueError("dealer.shuffled() must return a permutation of the 22 Moon tiles")
        if first is None:
            first = self._dealer.pick(3)
            if type(first) is not int or not 0 <= first < 3:
                raise ValueError(f"dealer.pick(3) returned {first!r}, not a seat")
        st = self._st
        st.deal(ids, first)
        deal = tuple(tuple(ALL_TILES[i] for i in ids[k : k + 7]) for k in (0, 7, 14))
        self._log.append(_HandLog(deal, ALL_TILES[ids[21]], first))
        self._played = []
        out: list[Event] = [ev.HandStarted(st.hand_number, first, (7, 7, 7), 0)]
        for seat in range(3):
            shown = sorted(ids[seat * 7 : seat * 7 + 7], key=_DEAL_ORDER.__getitem__)
            out.append(ev.HandDealt(seat, tuple(ALL_TILES[i] for i in shown)))
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

    def _in_hand_order(self, tids: Sequence[int]) -> str:
        """Tiles as an error message lists them: in the order a hand is shown (trumps first)."""
        trump = self._st.trump
        return fmt_tiles(sorted(tids, key=lambda i: display_key(i, trump)))

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

    def view(self, viewer: Viewer) -> MoonView:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may know, with their legal actions."""
        if viewer is not None and viewer not in (0, 1, 2):
            raise ValueError(f"no seat {viewer!r} at a Moon table")
        legal = tuple(self.legal_actions(viewer)) if viewer is not None else ()
        return make_view(self._st, self._played, viewer, legal)

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game as a ``boneyard-record/1`` object; an unfinished hand has no ``scores`` yet."""
        out: dict[str, Any] = {
            "format": "boneyard-record/1",
            "game": "moon",
            "players": 3,
            "options": self._options.as_dict(),
        }
        if seat_names is not None:
            if len(seat_names) != 3:
                raise ValueError("a Moon record names exactly 3 seats")
            out["seat_names"] = list(seat_names)
        out["hands"] = [_hand_record(h) for h in self._log]
        if self.is_over:
            out["final_scores"] = list(self._st.scores)
            out["winner"] = self._st.winner
        return out


def _hand_record(hand: _HandLog) -> dict[str, Any]:
    actions = []
    for seat, action, auto in hand.actions:
        entry = {"seat": seat, **action_to_dict(action)}
        if auto:
            entry["auto"] = True
        actions.append(entry)
    out: dict[str, Any] = {
        "deal": [[list(t) for t in tiles] for tiles in hand.deal],
        "widow": list(hand.widow),
        "first": hand.first,
        "actions": actions,
    }
    if hand.scores is not None:
        out["scores"] = list(hand.scores)
    return out
