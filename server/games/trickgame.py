"""What the trick-taking engines share around their lean states: turns, deals, held hands, the record.

:class:`TrickGame` is the public side of Moon's and Texas 42's engines (``base.Engine``): the seat
to move, the game's end, the pause between hands (``hold_deals``), the refusal of an action out
of turn, tile validation, the deal (a permutation of the game's tiles from the dealer, each
seat's ``hand_dealt``) and the record's common parts. Each game adds its actions, events,
scoring and views; the rules themselves live in its lean state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from boneyard.protocol.values import GameOptions
from boneyard.server.games.base import Dealer, Event, IllegalAction, RandomDealer, Viewer
from boneyard.server.games.events import HandDealt
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, fmt, normalize
from boneyard.server.games.tricks import LED, SUIT_MASK, display_key, fmt_tiles, ids_of

BETWEEN_HANDS = "the hand is over: the next one is not dealt yet"
_DEAL_ORDER = tuple(display_key(i, None) for i in range(28))


TRICK_FIELDS: tuple[str, ...] = (
    *("phase", "to_move", "winner", "hand_number", "first", "force_last", "target"),  # the game
    *("hands", "bids", "spoken", "high_bid", "bidder", "trump"),  # the deal and the auction
    *("trick", "leader", "led", "taken"),  # the tricks
)
"""The slots every trick game's state has (declared on the base, so that mypyc can compile it); a game's
state adds its own."""


class TrickState:
    """The base of the games' lean states: hands as bitmasks, int moves, ``copy`` and random playouts.

    A state says which of its slots hold lists (``LISTS``, copied by :meth:`copy`); its phases
    below ``HAND_OVER`` are those of a hand still in play.
    """

    __slots__ = TRICK_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = TRICK_FIELDS
    """Every slot of the state, the base's and its game's: what :meth:`copy` copies (a tuple of its
    own, as a compiled class, mypyc's, has no ``__slots__`` to read at run time)."""
    PLAYING: ClassVar[int]
    HAND_OVER: ClassVar[int]
    LISTS: ClassVar[tuple[str, ...]]
    phase: int
    to_move: int
    winner: int
    hand_number: int
    first: int
    force_last: bool
    hands: list[int]
    bids: list[int]
    spoken: int
    high_bid: int
    bidder: int
    taken: list[int]
    trump: int
    trick: list[int]
    leader: int
    led: int
    target: int

    def legal_moves(self) -> tuple[int, ...]:
        raise NotImplementedError

    def legal_plays(self) -> tuple[int, ...]:
        """The tiles the seat to move may play to the trick: of the led suit when it holds any (M9, T7),
        else any tile of its hand."""
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & SUIT_MASK[self.trump * 8 + self.led]
            if follow:
                return ids_of(follow)
        return ids_of(hand)

    def push(self, move: int) -> None:
        raise NotImplementedError

    def copy(self: S) -> S:
        """An independent copy (lists are copied; everything else is immutable)."""
        cls = type(self)
        other = cls.__new__(cls)
        for name in self.FIELDS:
            setattr(other, name, getattr(self, name))
        for name in self.LISTS:
            setattr(other, name, getattr(self, name)[:])
        return other

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the current hand is scored or thrown in."""
        rand = rng.random
        legal = self.legal_moves
        push = self.push
        while self.phase < self.HAND_OVER:
            moves = legal()
            push(moves[int(rand() * len(moves))])


S = TypeVar("S", bound=TrickState)


def best_move(moves: Sequence[int], roots: Iterable[S], judge: Callable[[S, S], float]) -> int:
    """Determinized search's choice: each move made on a copy of every root (one sampled world each),
    ``judge(root, after)`` playing the hand out from there and scoring it; the best total wins, the
    lowest move on a tie."""
    totals = dict.fromkeys(moves, 0.0)
    for root in roots:
        for move in moves:
            after = root.copy()
            after.push(move)
            totals[move] += judge(root, after)
    return max(moves, key=lambda m: (totals[m], -m))


class TrickView(Protocol):
    """What :func:`seat_state` reads of a trick-taking game's view (Moon's, Texas 42's)."""

    @property
    def viewer(self) -> int | None: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def first(self) -> int: ...
    @property
    def bids(self) -> tuple[int | str | None, ...]: ...
    @property
    def high_bid(self) -> int | None: ...
    @property
    def high_bidder(self) -> int | None: ...
    @property
    def tricks(self) -> tuple[int, ...]: ...
    @property
    def trick(self) -> tuple[tuple[int, Tile], ...]: ...
    @property
    def leader(self) -> int | None: ...


def seat_state(st: S, view: TrickView, hands: list[int], trump: int | None) -> S:
    """``st`` (a fresh lean state) at the viewer's decision in ``view``, with ``hands`` filled in and,
    once named, trump index ``trump``: what the searching bots play out from."""
    st.hand_number = view.hand_number
    st.first = view.first
    st.hands = hands
    st.to_move = view.viewer if view.viewer is not None else -1
    st.bids = [-1 if b is None else 0 if b == "pass" else int(b) for b in view.bids]
    st.spoken = sum(1 for b in view.bids if b is not None)
    st.high_bid = view.high_bid or 0
    st.bidder = -1 if view.high_bidder is None else view.high_bidder
    st.taken = list(view.tricks)
    if trump is not None:
        st.trump = trump
        st.phase = st.PLAYING
        st.trick = [TILE_IDS[x] for _, x in view.trick]
        st.leader = view.leader if view.leader is not None else st.bidder
        st.led = LED[trump][st.trick[0]] if st.trick else -1
    return st


class Recorded(Protocol):
    def as_dict(self) -> dict[str, Any]: ...


@dataclass(slots=True)
class HandLog:
    """One hand as its record keeps it: the deal, the first bidder, every action, the scores after it."""

    deal: tuple[tuple[Tile, ...], ...]
    first: int
    actions: list[tuple[int, Recorded, bool]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """The game's own parts of the hand's record (Moon's widow; 42's result)."""
    scores: tuple[int, ...] | None = None

    def record(self) -> dict[str, Any]:
        actions = []
        for seat, action, auto in self.actions:
            entry = {"seat": seat, **action.as_dict()}
            if auto:
                entry["auto"] = True
            actions.append(entry)
        out: dict[str, Any] = {"deal": [[list(t) for t in tiles] for tiles in self.deal]}
        out.update({k: v for k, v in self.extra.items() if k == "widow"})
        out["first"] = self.first
        out["actions"] = actions
        out.update({k: v for k, v in self.extra.items() if k != "widow"})
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out


A = TypeVar("A")
V = TypeVar("V")


class TrickGame(Generic[S, A, V]):
    """The shared engine side of a trick-taking game on a lean state ``S``, with actions ``A`` and views
    ``V`` (shape of ``base.Engine``)."""

    game: ClassVar[str]
    NAME: ClassVar[str]
    """The game as messages name it (``Moon``, ``Texas 42``)."""
    PLAYERS: ClassVar[int]
    TILES: ClassVar[tuple[Tile, ...]]
    """The game's set, in the order the dealer is handed it."""
    OVER: ClassVar[int]
    """The lean state's phase once the game is won."""
    PHASE_NAMES: ClassVar[tuple[str, ...]]
    TURN_TO: ClassVar[tuple[str, ...]]
    """What the seat to move is to do, by phase (for the out-of-turn message)."""

    def __init__(self, state: S, dealer: Dealer | None, hold_deals: bool) -> None:
        self._st = state
        self._hold = hold_deals
        """Rest between hands until :meth:`deal_next` (a server pausing between hands); otherwise the
        next hand is dealt at once, in the same ``apply``."""
        self._next_first: int | None = None
        """While resting between hands: the next hand's first bidder."""
        self._dealer: Dealer = RandomDealer() if dealer is None else dealer
        self._log: list[HandLog] = []
        self._played: list[tuple[tuple[int, Tile], ...]] = []
        self._opening = tuple(self._deal(None))

    # -- state ---------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.PLAYERS

    @property
    def to_move(self) -> int | None:
        st = self._st
        return None if st.phase == self.OVER or st.to_move < 0 else st.to_move

    @property
    def is_over(self) -> bool:
        return self._st.phase == self.OVER

    @property
    def winner(self) -> int | None:
        return None if self._st.winner < 0 else self._st.winner

    @property
    def hand_number(self) -> int:
        return self._st.hand_number

    @property
    def phase(self) -> str:
        return self.PHASE_NAMES[self._st.phase]

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

    def fast_state(self) -> S:
        """A copy of the int state for search (omniscient: never give it to a player's bot)."""
        return self._st.copy()

    # -- turns and deals -----------------------------------------------------------------------

    def check_turn(self, seat: int) -> None:
        st = self._st
        if st.phase == self.OVER:
            raise IllegalAction("the game is over", "game_over")
        if self._next_first is not None:
            raise IllegalAction(BETWEEN_HANDS, "not_your_turn")
        if seat != st.to_move:
            whose = f"seat {st.to_move}'s turn to {self.TURN_TO[st.phase]}"
            why = self._not_playing(seat)
            raise IllegalAction(f"it is {whose}, not yours (seat {seat}){why}", "not_your_turn")

    def _not_playing(self, seat: int) -> str:
        """Why ``seat`` has no turn this hand at all, for the out-of-turn message ("" if it has)."""
        return ""

    def _deal_or_hold(self, first: int) -> list[Event]:
        if self._hold:
            self._next_first = first
            return []
        return self._deal(first)

    def _deal(self, first: int | None) -> list[Event]:
        """Deal the next hand; ``first=None``: the first hand, whose first bidder is drawn (M3, T3)."""
        tiles = self.TILES
        order = self._dealer.shuffled(list(tiles))
        try:
            ids = [TILE_IDS[t] for t in order]
        except (KeyError, TypeError):  # a dealer speaking lists or unordered pairs (a replay from JSON)
            ids = [TILE_IDS[normalize(t)] for t in order]
        if len(ids) != len(tiles) or sorted(ids) != sorted(TILE_IDS[t] for t in tiles):
            what = f"{len(tiles)} {self.NAME} tiles"
            raise ValueError(f"dealer.shuffled() must return a permutation of the {what}")
        n = self.PLAYERS
        if first is None:
            first = self._dealer.pick(n)
            if type(first) is not int or not 0 <= first < n:
                raise ValueError(f"dealer.pick({n}) returned {first!r}, not a seat")
        deal = tuple(tuple(ALL_TILES[i] for i in ids[k : k + 7]) for k in range(0, 7 * n, 7))
        self._log.append(HandLog(deal, first))
        self._played = []
        out = self._dealt(ids, first)
        for seat in range(n):
            shown = sorted(ids[seat * 7 : seat * 7 + 7], key=_DEAL_ORDER.__getitem__)
            out.append(HandDealt(seat, tuple(ALL_TILES[i] for i in shown)))
        return out

    def _dealt(self, ids: Sequence[int], first: int) -> list[Event]:
        """Start the hand of tile ids ``ids`` on the lean state; its ``hand_started`` event."""
        raise NotImplementedError

    # -- validation ----------------------------------------------------------------------------

    def _in_hand_order(self, tids: Sequence[int]) -> str:
        """Tiles as an error message lists them: in the order a hand is shown (trumps first)."""
        trump = self._st.trump
        return fmt_tiles(sorted(tids, key=lambda i: display_key(i, trump if trump >= 0 else None)))

    def _held(self, tile: object) -> int:
        """The id of ``tile`` if the seat to move holds it; IllegalAction otherwise."""
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

    # -- record --------------------------------------------------------------------------------

    @property
    def options(self) -> GameOptions:
        raise NotImplementedError

    # -- views ---------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[A]:
        raise NotImplementedError

    def _view_of(self, viewer: int | None, legal: tuple[A, ...]) -> V:
        """The game's view for ``viewer`` with these legal actions."""
        raise NotImplementedError

    def view(self, viewer: Viewer) -> V:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may know, with their legal actions."""
        if viewer is not None and viewer not in range(self.PLAYERS):
            raise ValueError(f"no seat {viewer!r} at a {self.NAME} table")
        legal = tuple(self.legal_actions(viewer)) if viewer is not None else ()
        return self._view_of(viewer, legal)

    @property
    def scores(self) -> tuple[int, ...]:
        """The game's scores so far, per seat or per team, as its ``hand_scored`` counts them."""
        raise NotImplementedError

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game as a ``boneyard-record/1`` object; an unfinished hand has no ``scores`` yet."""
        out: dict[str, Any] = {
            "format": "boneyard-record/1",
            "game": self.game,
            "players": self.PLAYERS,
            "options": self.options.as_dict(),
        }
        if seat_names is not None:
            if len(seat_names) != self.PLAYERS:
                raise ValueError(f"a {self.NAME} record names exactly {self.PLAYERS} seats")
            out["seat_names"] = list(seat_names)
        out["hands"] = [h.record() for h in self._log]
        if self.is_over:
            out["final_scores"] = list(self.scores)
            out["winner"] = self._st.winner
        return out
