"""The client's picture of the server, built only from the messages the server sends.

:class:`Mirror` holds the lobby (every table's public description) and, per table the
client sits at or watches, a :class:`TableMirror`: the game as a :class:`protocol.View`,
exactly the shape a ``snapshot`` carries. A snapshot replaces a table's view (PROTOCOL.md
section 4); each later ``event`` and ``turn`` turns the view into the next one, so the
view after any message is what a fresh snapshot would say at that moment (the test suite
checks this against the engines, event by event).

Two rules keep a mirror honest:

- an event makes the legal actions stale, so they are cleared until the next ``turn``
  (a client must never act on actions the server has not offered for the current state);
- information the receiver was not sent stays unknown (``null`` tiles are never guessed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.fairness import DealWitness, Verdict
from boneyard.clients.cli.core.rules import Tile, sort_moon_hand, sort_straight_hand
from boneyard.protocol import (
    ChatLine,
    ChatMessage,
    DealCommitment,
    DealRevealed,
    HandPause,
    Hello,
    LobbyChanged,
    MoonEventMessage,
    MoonView,
    PauseInfo,
    Seated,
    SeatStatus,
    SeedContributed,
    Snapshot,
    StraightEventMessage,
    StraightView,
    TableCreated,
    TableInfo,
    TableList,
    TableRemoved,
    TableUpdated,
    Turn,
    Welcome,
)
from boneyard.protocol.deals import FIXED_SEED
from boneyard.protocol.game import (
    BidMade,
    Discarded,
    GameOver,
    HandDealt,
    HandStarted,
    HandThrownIn,
    MoonHandScored,
    MoonTilePlayed,
    Passed,
    StraightHandScored,
    StraightTilePlayed,
    TileDrawn,
    TrickWon,
    TrumpNamed,
    WidowTaken,
)

View = MoonView | StraightView
Clock = Callable[[], float]


@dataclass
class TableMirror:
    """One table as this client knows it."""

    table_id: str
    table: TableInfo | None = None
    view: View | None = None
    """The game; ``None`` until the first snapshot of a started game."""
    seat: int | None = None
    """Our seat here, or ``None`` when only watching."""
    deadline: float | None = None
    """When the seat to move runs out of time, on the mirror's clock; ``None``: no timer."""
    last_trick: tuple[tuple[int, Tile], ...] = ()
    """Moon: the last completed trick as ``(seat, tile)``, kept for display after ``trick_won``."""
    last_trick_winner: int | None = None
    hand_result: MoonHandScored | StraightHandScored | None = None
    """The last ``hand_scored`` event (cleared when the next hand starts)."""
    hands: list[MoonHandScored | StraightHandScored] = field(default_factory=list)
    """Every ``hand_scored`` seen at this table this game, in order: the score sheet."""
    game_over: GameOver | None = None
    chat: list[ChatMessage | ChatLine] = field(default_factory=list)
    """What was said here: the snapshot's history (the last 50 lines), then each ``chat`` message."""
    deals: DealWitness | None = None
    """The current (or last) game's fair-deal check: ``deals.verdict`` once the seeds are revealed."""
    pause: PauseInfo | None = None
    """The table's pause between hands (``hand_pause``, ``snapshot.pause``), until the next hand starts."""
    pause_until: float | None = None
    """When that pause ends at the latest, on the mirror's clock."""

    def pause_left(self, clock: Clock = time.monotonic) -> float | None:
        """Seconds until the next hand at the latest, while the table pauses; ``None`` otherwise."""
        return None if self.pause_until is None else max(0.0, self.pause_until - clock())

    @property
    def ready_awaited(self) -> bool:
        """The table pauses between hands and waits for our ``ready``."""
        return self.pause is not None and self.seat is not None and self.seat in self.pause.waiting

    @property
    def my_turn(self) -> bool:
        return self.view is not None and self.seat is not None and self.view.to_move == self.seat

    def seconds_left(self, clock: Clock = time.monotonic) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - clock())

    def seat_name(self, seat: int) -> str:
        if self.table is not None and seat < len(self.table.seats):
            name = self.table.seats[seat].name
            if name:
                return name
        return f"seat {seat}"


class MirrorError(Exception):
    """A message does not fit the mirror's picture (e.g. a tile played where it cannot go).

    The server is the authority: a client that gets this should ask for a fresh picture
    (reconnecting and resuming does that), not carry on with a wrong one.
    """


class Mirror:
    """Every table the client knows of, updated by :meth:`apply` for each server message."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.lobby: dict[str, TableInfo] = {}
        self.tables: dict[str, TableMirror] = {}
        self.player_id: str | None = None
        self.name: str | None = None
        self.fixed_seed = False
        """The server said its deals come from a fixed seed (``hello.features``: ``fixed_seed``)."""
        self.unverified: dict[tuple[str, int], Verdict] = {}
        """Every game whose deals this client checked and found NOT verified, by table and game number
        (kept when the table is left or a rematch starts: ``boneyard play`` exits non-zero for them)."""

    def table(self, table_id: str) -> TableMirror:
        """The mirror of a table, created on first use."""
        if table_id not in self.tables:
            self.tables[table_id] = TableMirror(table_id, table=self.lobby.get(table_id))
        return self.tables[table_id]

    def forget(self, table_id: str) -> None:
        """Stop following a table (after ``leave``)."""
        self.tables.pop(table_id, None)

    def apply(self, message: Any) -> None:
        """Update from one server message; messages that change nothing here are ignored."""
        match message:
            case Hello():
                self.fixed_seed = FIXED_SEED in message.features
            case Welcome():
                self.player_id, self.name = message.player_id, message.name
                for ref in message.seats:
                    self.table(ref.table_id).seat = ref.seat
            case TableList():
                self.lobby = {t.table_id: t for t in message.tables}
                for tid, mirror in self.tables.items():
                    if tid in self.lobby:
                        mirror.table = self.lobby[tid]
            case TableCreated() | TableUpdated():
                self._table_info(message.table)
            case Seated():
                self.table(message.table_id).seat = message.seat
            case TableRemoved():
                self.lobby.pop(message.table_id, None)
            case LobbyChanged():
                for table in message.tables:
                    self._table_info(table)
                for table_id in message.removed:
                    self.lobby.pop(table_id, None)
            case Snapshot():
                self._table_info(message.table)
                mirror = self.table(message.table.table_id)
                # A game this client cannot show yet (texas42) is a table without a view.
                shown = message.view if isinstance(message.view, MoonView | StraightView) else None
                mirror.view = _sorted(shown) if shown is not None else None
                if message.chat or not mirror.chat:
                    mirror.chat = list(message.chat)  # the table's own history replaces ours
                self._set_deadline(mirror, message.time_left_ms)
                self._set_pause(mirror, message.pause)
                if mirror.deals is not None:
                    mirror.deals.resync(message.view.hand_number if message.view is not None else None)
            case Turn():
                mirror = self.table(message.table_id)
                if mirror.view is not None:
                    mirror.view = mirror.view.model_copy(
                        update={"to_move": message.seat, "legal_actions": tuple(message.legal_actions)}
                    )
                self._set_deadline(mirror, message.time_left_ms)
            case MoonEventMessage() | StraightEventMessage():
                mirror = self.table(message.table_id)
                self._event(mirror, message.event)
                if mirror.deals is not None:
                    mirror.deals.apply(message.event, message.game)
            case DealCommitment():
                mirror = self.table(message.table_id)
                known = mirror.deals.commitment if mirror.deals is not None else None
                if mirror.deals is None or known is None or known.commitment != message.commitment:
                    mirror.deals = DealWitness(mirror.seat, message)  # a new game
                else:  # the same game's commitment again (we sat down at a table we watch)
                    mirror.deals.seat = mirror.seat
            case SeedContributed() | DealRevealed():
                mirror = self.table(message.table_id)
                if mirror.deals is None:  # joined after the commitment: the check will say so
                    mirror.deals = DealWitness(mirror.seat, None)
                if mirror.table is not None:
                    mirror.deals.players = len(mirror.table.seats)
                mirror.deals.fixed_seed = self.fixed_seed
                mirror.deals.apply(message)
                verdict = mirror.deals.verdict
                if isinstance(message, DealRevealed) and verdict is not None and not verdict.ok:
                    self.unverified[(message.table_id, message.game_number)] = verdict
            case HandPause():
                self._set_pause(self.table(message.table_id), message.pause)
            case SeatStatus():
                self._seat_status(message)
            case ChatMessage():
                self.table(message.table_id).chat.append(message)

    # --- lobby ---------------------------------------------------------------------------

    def _table_info(self, table: TableInfo) -> None:
        self.lobby[table.table_id] = table
        if table.table_id in self.tables:
            self.tables[table.table_id].table = table

    def _seat_status(self, message: SeatStatus) -> None:
        table = self.lobby.get(message.table_id)
        if table is None or message.seat >= len(table.seats):
            return
        seats = list(table.seats)
        seats[message.seat] = seats[message.seat].model_copy(
            update={"connected": message.connected, "auto": message.auto}
        )
        self._table_info(table.model_copy(update={"seats": tuple(seats)}))

    def _set_deadline(self, mirror: TableMirror, time_left_ms: int | None) -> None:
        mirror.deadline = None if time_left_ms is None else self.clock() + time_left_ms / 1000

    def _set_pause(self, mirror: TableMirror, pause: PauseInfo | None) -> None:
        mirror.pause = pause
        mirror.pause_until = None if pause is None else self.clock() + pause.time_left_ms / 1000

    # --- game events ---------------------------------------------------------------------

    def _event(self, mirror: TableMirror, event: Any) -> None:
        if isinstance(event, GameOver):
            mirror.game_over = event
        if isinstance(event, HandStarted) and event.hand == 0:
            mirror.hands, mirror.game_over = [], None  # a new game (e.g. a rematch)
        if isinstance(event, HandStarted | GameOver):
            self._set_pause(mirror, None)  # the pause (if any) is over
        if isinstance(event, HandStarted):
            mirror.hand_result, mirror.last_trick, mirror.last_trick_winner = None, (), None
        if isinstance(event, MoonHandScored | StraightHandScored):
            mirror.hand_result = event
            mirror.hands.append(event)
        if isinstance(event, TrickWon):
            seats = _seats_from(event.leader, len(event.tiles))
            mirror.last_trick = tuple(zip(seats, event.tiles, strict=True))
            mirror.last_trick_winner = event.seat
        view = mirror.view
        if view is None:
            if not isinstance(event, HandStarted) or mirror.table is None:
                return  # nothing to build on: the snapshot that follows a game start will fill in
            view = _blank_view(mirror.table, mirror.seat)
        # Whatever happened, the actions offered before it are stale until the next ``turn``.
        update: dict[str, Any] = {"legal_actions": ()}
        if isinstance(view, MoonView):
            update.update(_moon(view, event))
        else:
            update.update(_straight(view, event))
        mirror.view = _sorted(view.model_copy(update=update))


def _seats_from(first: int, n: int, players: int = 3) -> list[int]:
    return [(first + i) % players for i in range(n)]


def _sorted(view: View) -> View:
    if isinstance(view, MoonView):
        # One order for the whole hand, trump or not: naming trump must not renumber the hand a player
        # has been reading (the trumps are marked where it is shown).
        return view.model_copy(update={"hand": tuple(sort_moon_hand(view.hand, None))})
    return view.model_copy(update={"hand": tuple(sort_straight_hand(view.hand))})


def _bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


def _without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    out = list(hand)
    if tile in out:
        out.remove(tile)
    return tuple(out)


def _blank_view(table: TableInfo, seat: int | None) -> View:
    """An empty view to start from when a hand starts without a snapshot before it."""
    n = table.players
    if table.game == "moon":
        return MoonView(
            game="moon", viewer=seat, hand_number=0, phase="bidding", hand=(), tile_counts=(0,) * n,
            first=0, bids=(None,) * n, high_bidder=None, high_bid=None, trump=None, trick=(), leader=None,
            played=(), tricks=(0,) * n, scores=(0,) * n, target=table.options.target, to_move=None,
            legal_actions=(), discard=None, winner=None,
        )  # fmt: skip
    options = table.options
    teams = bool(getattr(options, "partnerships", False))
    return StraightView(
        game="straight", viewer=seat, hand_number=0, players=n, partnerships=teams, target=options.target,
        hand=(), tile_counts=(0,) * n, boneyard=0, layout=layouts.EMPTY, count=0,
        scores=(0,) * (2 if teams else n), leader=0, to_move=None, legal_actions=(), is_over=False,
        winner=None,
    )  # fmt: skip


def _hand_started(view: View, event: HandStarted) -> dict[str, Any]:
    n = len(event.tile_counts)
    common: dict[str, Any] = {"hand_number": event.hand, "tile_counts": tuple(event.tile_counts), "hand": ()}
    if isinstance(view, MoonView):
        return common | {
            "phase": "bidding", "first": event.first, "bids": (None,) * n, "high_bidder": None,
            "high_bid": None, "trump": None, "trick": (), "leader": None, "played": (), "tricks": (0,) * n,
            "discard": None, "to_move": event.first,
        }  # fmt: skip
    return common | {
        "boneyard": event.boneyard, "layout": layouts.EMPTY, "count": 0, "leader": event.first,
        "to_move": event.first,
    }  # fmt: skip


def _moon(view: MoonView, event: Any) -> dict[str, Any]:
    match event:
        case HandStarted():
            return _hand_started(view, event)
        case HandDealt(seat=seat, tiles=tiles) if tiles is not None and seat == view.viewer:
            return {"hand": tuple(tiles)}
        case BidMade(seat=seat, bid=bid):
            bids = list(view.bids)
            bids[seat] = bid
            return {"bids": tuple(bids), "high_bidder": seat, "high_bid": bid}
        case Passed(seat=seat):
            bids = list(view.bids)
            bids[seat] = "pass"
            return {"bids": tuple(bids)}
        case HandThrownIn():
            return {"phase": "thrown_in", "to_move": None}  # nobody moves until the next deal
        case WidowTaken(seat=seat, tile=tile):
            hand = (*view.hand, tile) if tile is not None and seat == view.viewer else view.hand
            return {"phase": "discarding", "hand": hand, "tile_counts": _bump(view.tile_counts, seat, 1)}
        case Discarded(seat=seat, tile=tile):
            mine = tile is not None and seat == view.viewer
            return {
                "phase": "naming_trump",
                "hand": _without(view.hand, tile) if mine and tile is not None else view.hand,
                "discard": tile if mine else view.discard,
                "tile_counts": _bump(view.tile_counts, seat, -1),
            }
        case TrumpNamed(seat=seat, trump=trump):
            return {"phase": "playing", "trump": trump, "leader": seat}
        case MoonTilePlayed(seat=seat, tile=tile):
            return {
                "trick": (*view.trick, (seat, tile)),
                "leader": seat if not view.trick else view.leader,
                "hand": _without(view.hand, tile) if seat == view.viewer else view.hand,
                "tile_counts": _bump(view.tile_counts, seat, -1),
            }
        case TrickWon(seat=seat, tricks=tricks):
            played = (*view.played, view.trick)
            return {"played": played, "trick": (), "leader": seat, "tricks": tuple(tricks)}
        case MoonHandScored(tricks=tricks, scores=scores):
            return {"phase": "scored", "tricks": tuple(tricks), "scores": tuple(scores), "to_move": None}
        case GameOver(winner=winner, scores=scores):
            return {"phase": "over", "winner": winner, "scores": tuple(scores), "to_move": None}
    return {}


def _straight(view: StraightView, event: Any) -> dict[str, Any]:
    match event:
        case HandStarted():
            return _hand_started(view, event)
        case HandDealt(seat=seat, tiles=tiles) if tiles is not None and seat == view.viewer:
            return {"hand": tuple(tiles)}
        case StraightTilePlayed(seat=seat, tile=tile, end=end, count=count, scores=scores):
            try:
                layout = layouts.play(view.layout, tile, end)
            except ValueError as error:
                raise MirrorError(f"tile_played does not fit the mirrored layout: {error}") from None
            return {
                "layout": layout.model_copy(update={"count": count}),
                "count": count,
                "scores": tuple(scores),
                "hand": _without(view.hand, tile) if seat == view.viewer else view.hand,
                "tile_counts": _bump(view.tile_counts, seat, -1),
            }
        case TileDrawn(seat=seat, tile=tile, boneyard=boneyard):
            mine = tile is not None and seat == view.viewer
            return {
                "boneyard": boneyard,
                "hand": (*view.hand, tile) if mine else view.hand,
                "tile_counts": _bump(view.tile_counts, seat, 1),
            }
        case StraightHandScored(scores=scores):
            return {"scores": tuple(scores), "to_move": None}  # nobody moves until the next deal
        case GameOver(winner=winner, scores=scores):
            return {"is_over": True, "winner": winner, "scores": tuple(scores), "to_move": None}
    return {}
