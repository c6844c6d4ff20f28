"""The game half of a table: the engine, turns, the turn timer, bots, the events fan-out, the record.

Everything here runs synchronously from a command or a timer callback to the last frame queued, and
nothing awaits, so a table handles its commands strictly one at a time (the event loop runs one
callback at a time) and needs no lock. Tables share no mutable state: each touches only its own
seats, engine, timer and the sessions at it.

Hidden information is decided in exactly two places, both the engine's: ``event.seen_by(viewer)``
for events and ``engine.view(viewer)`` for snapshots. Nothing else that holds tiles is serialized,
except the record, which is stored (and fetchable) only once the game is over.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from server.errors import CommandError
from server.games.base import Dealer, Engine, Event, IllegalAction, RandomDealer
from server.games.registry import GameSpec
from server.games.tiles import Tile
from server.logs import ids
from server.records import validated
from server.seats import Seat
from server.session import Session
from server.wire import EventEncoder, body_of_dict, engine_action, wire_action

if TYPE_CHECKING:
    import asyncio

    from server.lobby import Lobby

log = logging.getLogger("boneyard.table")

_SYSTEM_RANDOM = random.SystemRandom()
_BOTS_RANDOM = random.Random()


class SystemDealer:
    """Deals from the operating system's randomness (``os.urandom``).

    Unlike a seeded Mersenne Twister, whose future output can be computed from enough observed
    deals, these deals cannot be predicted; and a dealer holds no state, so tables share one.
    """

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        out = list(tiles)
        _SYSTEM_RANDOM.shuffle(out)
        return out

    def pick(self, n: int) -> int:
        return _SYSTEM_RANDOM.randrange(n)


_SYSTEM_DEALER = SystemDealer()

Listener = tuple[Session, int | None]
"""A session at the table and what it may see: its seat, or ``None`` for a spectator."""


class PlayingTable:
    """Runs the games of one table (the lobby-facing half is :class:`server.table.Table`)."""

    __slots__ = (
        "_deadline",
        "_events",
        "_timer",
        "engine",
        "games",
        "lobby",
        "options",
        "rng",
        "seats",
        "spec",
        "spectators",
        "status",
        "table_id",
        "turn_seconds",
    )

    def __init__(
        self, lobby: Lobby, table_id: str, spec: GameSpec, options: Any, turn_seconds: int | None
    ) -> None:
        self.lobby = lobby
        self.table_id = table_id
        self.spec = spec
        self.options = options
        self.turn_seconds = turn_seconds
        self.seats = [Seat(i) for i in range(spec.players_of(options))]
        self.spectators: set[Session] = set()
        self.status = "waiting"
        self.engine: Engine | None = None
        self.games = 0
        """Games started at this table (rematches included)."""
        self.rng = _BOTS_RANDOM
        """The bots' tie-breaker: shared by all tables, unless ``settings.seed`` asks for reproducibility."""
        self._events = EventEncoder(spec.name, table_id)
        self._timer: asyncio.TimerHandle | asyncio.Handle | None = None
        self._deadline: float | None = None
        """Loop time by which the (human) seat to move must act; ``None``: no timer running."""

    # -- hooks the lobby-facing half provides -------------------------------------------------------

    def changed(self) -> None:
        """The table's public description changed (push ``table_updated``)."""
        raise NotImplementedError

    def snapshot_body(self, viewer: int | None, reply_to: Any = None) -> bytes:
        raise NotImplementedError

    def removed_if_empty(self) -> bool:
        raise NotImplementedError

    # -- who is here --------------------------------------------------------------------------------

    def listeners(self) -> list[Listener]:
        out: list[Listener] = [(s.session, s.index) for s in self.seats if s.session is not None]
        out.extend((spectator, None) for spectator in self.spectators)
        return out

    def broadcast(self, body: bytes) -> None:
        for session, _ in self.listeners():
            session.deliver(body)

    def bots_only(self) -> bool:
        return all(seat.session is None for seat in self.seats)

    def time_left_ms(self) -> int | None:
        if self._deadline is None:
            return None
        return max(0, int((self._deadline - self.lobby.loop.time()) * 1000))

    def seat_status(self, seat: Seat) -> None:
        """Tell the table a seat's connection or auto-play changed (and the lobby, via ``changed``)."""
        self.broadcast(
            body_of_dict(
                {
                    "type": "seat_status",
                    "seq": 1,
                    "table_id": self.table_id,
                    "seat": seat.index,
                    "connected": seat.connected,
                    "auto": seat.auto,
                }
            )
        )
        self.changed()

    # -- a game's life ------------------------------------------------------------------------------

    def start_game(self) -> None:
        """Every seat is held: deal, tell everyone (``table_updated``, ``snapshot``, events), first turn."""
        self.games += 1
        seed = self.lobby.settings.seed
        dealer: Dealer = _SYSTEM_DEALER
        if seed is not None:
            dealer = RandomDealer(f"{seed}/{self.table_id}/{self.games}")
            self.rng = random.Random(f"{seed}/{self.table_id}/{self.games}/bots")
        self.engine = self.spec.new_game(self.options, dealer)
        self.status = "playing"
        for seat in self.seats:
            seat.timeouts = 0
        self.changed()
        for session, viewer in self.listeners():
            session.deliver(self.snapshot_body(viewer))
        self._fan_out(self.engine.opening_events())
        self._next_turn()
        log.info("game started", extra=ids(table_id=self.table_id))

    def act(self, session: Session, seat: int, action_model: Any) -> None:
        """A player's ``act``: the engine alone decides; an error changes nothing."""
        engine = self.engine
        if engine is None:
            raise CommandError("not_your_turn", "the game has not started")
        holder = self.seats[seat]
        if holder.handing_over:
            raise CommandError("not_your_turn", "the bot plays this seat until the hand ends")
        action = engine_action(self.spec, action_model)
        if action is None:
            if engine.is_over:
                raise CommandError("game_over", "the game is over")
            if engine.to_move != seat:
                raise CommandError("not_your_turn", f"it is seat {engine.to_move}'s turn")
            raise CommandError("illegal_action", f"not a {self.spec.name} action")
        try:
            events = self._commit(seat, action, auto=False)
        except IllegalAction as error:
            raise CommandError(error.code, str(error)) from None  # type: ignore[arg-type]
        self.lobby.metrics.action("player")
        holder.timeouts = 0
        if holder.auto:  # acting takes the seat back from the server
            holder.auto = False
            self.seat_status(holder)
        self._after(events)

    def _commit(self, seat: int, action: Any, *, auto: bool) -> list[Event]:
        """The one door every accepted action goes through.

        A write-ahead log hooks in here, once the engine has accepted the action and before anyone
        hears of it, so that a restarted server can replay the table's actions.
        """
        assert self.engine is not None
        return self.engine.apply(seat, action, auto=auto)

    def _after(self, events: list[Event]) -> None:
        engine = self.engine
        assert engine is not None
        record_id = self._store_record() if engine.is_over else None
        self._fan_out(events, record_id)
        if any(e.type == "hand_started" for e in events):
            self._finish_hand_overs()
        if engine.is_over:
            self._finish()
        else:
            self._next_turn()

    def _finish_hand_overs(self) -> None:
        handed = [seat for seat in self.seats if seat.handing_over]
        for seat in handed:
            seat.bot = False
        if handed:
            self.changed()

    def _fan_out(self, events: list[Event], record_id: str | None = None) -> None:
        """Each event to each listener as that listener may see it; each distinct form encoded once."""
        listeners = self.listeners()
        if not listeners:
            return
        encode = self._events.body
        for event in events:
            public: bytes | None = None
            private: dict[Event, bytes] = {}
            extra = {"record_id": record_id} if event.type == "game_over" else {}
            for session, viewer in listeners:
                seen = event.seen_by(viewer)
                if seen is None:
                    continue
                if seen is event:
                    if public is None:
                        public = encode(event, **extra)
                    body = public
                else:
                    body = private.get(seen) or private.setdefault(seen, encode(seen, **extra))
                session.deliver(body)

    def _next_turn(self) -> None:
        """Start the seat to move's turn (timer or bot) and send everyone ``turn``."""
        engine = self.engine
        assert engine is not None
        mover = engine.to_move
        if mover is None:
            return
        self._schedule(self.seats[mover])
        listeners = self.listeners()
        if not listeners:
            return
        turn: dict[str, Any] = {
            "type": "turn",
            "seq": 1,
            "table_id": self.table_id,
            "seat": mover,
            "time_left_ms": self.time_left_ms(),
            "legal_actions": [],
        }
        public = body_of_dict(turn)
        for session, viewer in listeners:
            if viewer == mover and not self.seats[mover].handing_over:
                turn["legal_actions"] = [wire_action(a) for a in engine.legal_actions(mover)]
                session.deliver(body_of_dict(turn))
            else:
                session.deliver(public)

    def _schedule(self, seat: Seat) -> None:
        """Arm the table's one timer for the seat to move: a bot's move, or the player's time running out."""
        self._cancel_timer()
        loop = self.lobby.loop
        settings = self.lobby.settings
        if seat.bot_plays:
            if self.bots_only():
                self._timer = loop.call_soon(self._bot_move)  # flat out, but one move per loop pass
            elif seat.auto and seat.connected and not seat.bot:
                # The player is there but timed out: give them a moment to take the seat back by acting.
                self._timer = loop.call_later(settings.auto_turn_seconds, self._bot_move)
            else:
                self._timer = loop.call_later(settings.bot_delay_seconds, self._bot_move)
        elif self.turn_seconds is not None:
            self._deadline = loop.time() + self.turn_seconds
            self._timer = loop.call_later(self.turn_seconds, self._time_out)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None

    def restart_turn(self, seat: Seat) -> None:
        """Who plays ``seat`` changed: if it is to move, start its turn afresh."""
        if self.engine is not None and self.status == "playing" and self.engine.to_move == seat.index:
            self._next_turn()

    def _time_out(self) -> None:
        self._timer = None
        self._deadline = None
        engine = self.engine
        if engine is None or engine.to_move is None:
            return
        seat = self.seats[engine.to_move]
        seat.timeouts += 1
        log.info("turn timed out", extra=ids(table_id=self.table_id, seat=seat.index))
        if seat.timeouts >= self.lobby.settings.timeouts_before_auto and not seat.auto:
            seat.auto = True
            self.seat_status(seat)
        self._play_for(seat)

    def _bot_move(self) -> None:
        self._timer = None
        engine = self.engine
        if engine is None or engine.to_move is None or self.status != "playing":
            return
        self._play_for(self.seats[engine.to_move])

    def _play_for(self, seat: Seat) -> None:
        """The bot chooses for ``seat``; marked ``auto`` when the seat is a human's."""
        engine = self.engine
        assert engine is not None
        auto = not seat.bot
        try:
            action = self.spec.bot(engine.view(seat.index), self.rng)
            events = self._commit(seat.index, action, auto=auto)
        except Exception:
            where = ids(table_id=self.table_id, seat=seat.index)
            log.exception("the bot failed; the table stops", extra=where)
            return
        self.lobby.metrics.action("auto" if auto else "bot")
        self._after(events)

    def _store_record(self) -> str | None:
        """Validate and store the finished game's record; its id goes out in ``game_over``."""
        assert self.engine is not None
        names = [seat.name or f"bot-{seat.index}" for seat in self.seats]
        try:
            record = validated(self.engine.record(names))
        except Exception:
            log.exception("the record does not validate", extra=ids(table_id=self.table_id))
            return None
        record_id = self.lobby.new_record_id()
        self.lobby.store.put(record_id, record)
        log.info("game over", extra=ids(table_id=self.table_id, record_id=record_id))
        return record_id

    def _finish(self) -> None:
        self._cancel_timer()
        self.status = "finished"
        self.changed()
        self.removed_if_empty()

    def stop(self) -> None:
        """Stop the table's timer for good (shutdown, removal): no bot moves, no timeouts."""
        self._cancel_timer()
