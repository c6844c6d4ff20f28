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

import hashlib
import logging
import random
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from boneyard.server.botrunner import LazyRandom, Thinking
from boneyard.server.errors import CommandError
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.base import Engine, Event, IllegalAction
from boneyard.server.games.registry import GameSpec
from boneyard.server.logs import ids
from boneyard.server.records import validated
from boneyard.server.seats import Seat
from boneyard.server.session import Session
from boneyard.server.wire import EventEncoder, body_of_dict, engine_action, wire_action

if TYPE_CHECKING:
    import asyncio

    from boneyard.server.lobby import Lobby

log = logging.getLogger("boneyard.table")

Listener = tuple[Session, int | None]
"""A session at the table and what it may see: its seat, or ``None`` for a spectator."""


class PlayingTable:
    """Runs the games of one table (the lobby-facing half is :class:`boneyard.server.table.Table`)."""

    __slots__ = (
        "_deadline",
        "_events",
        "_timer",
        "bot_delay_ms",
        "engine",
        "games",
        "lobby",
        "moves",
        "options",
        "record_id",
        "seats",
        "seed",
        "seeds",
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
        self.bot_delay_ms: int | None = None
        """The creator's pause before each bot move; ``None``: the server's ``bot_delay_seconds``, and no
        pause at all while only bots sit at the table."""
        self.seats = [Seat(i) for i in range(spec.players_of(options))]
        self.spectators: set[Session] = set()
        self.status = "waiting"
        self.engine: Engine | None = None
        self.games = 0
        """Games started at this table (rematches included)."""
        self.seed: str | None = None
        """The current game's server seed (``seeds.seed``): secret, stored, so that a restart deals the
        same tiles."""
        self.seeds: GameSeeds | None = None
        """The current game's seeds (:mod:`boneyard.server.fairdeal`): none until a game starts."""
        self.moves = 0
        """Actions accepted in the current game."""
        self.record_id: str | None = None
        """The record id of the last game finished here (public, in the table's description)."""
        self._events = EventEncoder(spec.name, table_id)
        self._timer: asyncio.TimerHandle | asyncio.Handle | AfterCommit | Thinking | None = None
        self._deadline: float | None = None
        """Loop time by which the (human) seat to move must act; ``None``: no timer running."""

    # -- hooks the lobby-facing half provides -------------------------------------------------------

    def changed(self) -> None:
        """The table's public description changed (push ``table_updated``)."""
        raise NotImplementedError

    def stored(self) -> None:
        """Something durable but not public changed (a seat's timeouts): write the table down."""
        raise NotImplementedError

    def snapshot_body(self, viewer: int | None, reply_to: Any = None) -> bytes:
        raise NotImplementedError

    def removed_if_empty(self) -> bool:
        raise NotImplementedError

    def turn_limit(self, seat: Seat) -> int | None:
        """Seconds ``seat`` has for a turn (``None``: no timer)."""
        return self.turn_seconds

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

    def _set_seeds(self, games: int, seeds: GameSeeds) -> None:
        self.games, self.seeds, self.seed, self.moves, self.engine = games, seeds, seeds.seed, 0, None

    def _deal(self) -> Engine:
        """The current game's first deal, from its seeds: no seed is taken after it."""
        assert self.seeds is not None
        self.seeds.dealt = True
        self.engine = self.spec.new_game(self.options, self.seeds.dealer())
        return self.engine

    def replay(self, games: int, seeds: GameSeeds, actions: Iterable[tuple[int, Any, bool]]) -> None:
        """A restore: deal game ``games`` again from its seeds and replay its actions (nothing is sent);
        a game whose first deal was still waiting for seeds waits again (:meth:`resume_turn`)."""
        self._set_seeds(games, seeds)
        if not seeds.dealt:
            return
        engine = self._deal()
        for seat, action, auto in actions:
            engine.apply(seat, action, auto=auto)
            self.moves += 1

    def resume_turn(self, seconds_left: float | None) -> None:
        """After a restore: start the turn of the seat to move (a human's timer runs out at the stored
        deadline: ``seconds_left``; ``None``, a whole turn), or wait for seeds again before the deal."""
        if self.engine is not None and self.engine.to_move is not None:
            self._schedule(self.seats[self.engine.to_move], seconds_left)
        elif self.engine is None and self.seeds is not None and not self.seeds.dealt:
            self._await_seeds()

    def start_game(self) -> None:
        """Every seat is held: commit to the deal (``deal_commitment``), wait briefly for the seated
        humans' seeds, then deal (:meth:`_first_deal`)."""
        fixed = self.lobby.settings.seed
        games = self.games + 1
        # The table's number, not its run tag (random per run): a fixed seed replays across runs.
        derived = None if fixed is None else f"{fixed}/{self.table_id.partition('-')[0]}/{games}"
        seeds = GameSeeds.fresh(len(self.seats), derived)
        self._set_seeds(games, seeds)
        self.status = "playing"
        for seat in self.seats:
            seat.timeouts = 0
        self.changed()  # the seed is stored before its commitment goes out
        self.broadcast(seeds.commitment_body(self.table_id, games, self._seed_seats(), self._seed_wait_ms()))
        self._await_seeds()

    def _seed_seats(self) -> list[int]:
        """The seats that may contribute a seed: those a human holds."""
        return [seat.index for seat in self.seats if seat.session is not None]

    def _seed_wait_ms(self) -> int:
        return self.lobby.settings.deal_seed_wait_ms if self._seed_seats() else 0

    def _await_seeds(self) -> None:
        wait = self._seed_wait_ms()
        if wait and not self.lobby.stopping:
            self._cancel_timer()
            self._timer = self.lobby.loop.call_later(wait / 1000, self._first_deal)
        else:
            self._first_deal()

    def contribute(self, seat: int, seed: str) -> None:
        """A seated human's ``contribute_seed``: stored, announced to the table, and once every human
        seat has one, the deal follows at once."""
        seeds = self.seeds
        if self.status != "playing" or seeds is None:
            raise CommandError("seed_closed", "no game is starting at this table")
        seeds.contribute(seat, seed)
        self.stored()  # stored before anyone hears of it
        self.broadcast(seeds.contributed_body(self.table_id, seat))
        if all(seeds.players[s] is not None for s in self._seed_seats()):
            self._first_deal()

    def _first_deal(self) -> None:
        """Deal, tell everyone (``table_updated``, ``snapshot``, events), first turn."""
        self._cancel_timer()
        if self.status != "playing" or self.engine is not None or self.lobby.stopping:
            return
        if self.lobby.tables.get(self.table_id) is not self:
            return  # removed while it waited
        engine = self._deal()
        self.changed()
        for session, viewer in self.listeners():
            session.deliver(self.snapshot_body(viewer))
        self._fan_out(engine.opening_events())
        self._next_turn()
        log.info("game started", extra=ids(table_id=self.table_id))

    def deal_messages(self, session: Session) -> None:
        """For someone arriving while a game runs: its commitment and the seeds contributed so far."""
        seeds = self.seeds
        if self.status != "playing" or seeds is None or not seeds.fair:
            return
        session.deliver(seeds.commitment_body(self.table_id, self.games, self._seed_seats(), 0))
        for seat, seed in enumerate(seeds.players):
            if seed is not None:
                session.deliver(seeds.contributed_body(self.table_id, seat))

    def act(self, session: Session, seat: int, action_model: Any) -> None:
        """A player's ``act``: the engine alone decides; an error changes nothing."""
        if self.lobby.stopping:
            raise CommandError("unavailable", "the server is shutting down: resume when it is back")
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
        if holder.auto:  # acting takes the seat back from the server
            holder.auto = False
            holder.timeouts = 0
            self.seat_status(holder)
        elif holder.timeouts:
            holder.timeouts = 0
            self.stored()
        self._after(events)

    def _commit(self, seat: int, action: Any, *, auto: bool) -> list[Event]:
        """The one door every accepted action goes through.

        Once the engine has accepted the action, and before anyone hears of it, it is written
        ahead (``lobby.wal``): its events' frames go out only once it is committed, and a restarted
        server replays it.
        """
        assert self.engine is not None
        events = self.engine.apply(seat, action, auto=auto)
        self.lobby.wal.action(self, seat, action, auto)
        self.moves += 1
        return events

    def _after(self, events: list[Event], *, auto: bool = False) -> None:
        engine = self.engine
        assert engine is not None
        record_id = None
        if engine.is_over:
            record_id = self.record_id = self._store_record()
        self._fan_out(events, record_id, auto)
        if engine.is_over and self.seeds is not None and self.seeds.fair:
            self.broadcast(self.seeds.revealed_body(self.table_id, self.games, record_id))
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

    def _fan_out(self, events: list[Event], record_id: str | None = None, auto: bool = False) -> None:
        """Each event to each listener as that listener may see it; each distinct form encoded once
        (``auto``: they are the events of an action the server took for a player)."""
        listeners = self.listeners()
        if not listeners:
            return
        encode = partial(self._events.body, auto=auto)
        for event in events:
            public: bytes | None = None
            private: dict[Event, bytes] = {}
            extra: dict[str, Any] = {"record_id": record_id} if event.type == "game_over" else {}
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
        public = self._turn_body(mover, None)
        for session, viewer in listeners:
            session.deliver(self._turn_body(mover, viewer) if viewer == mover else public)

    def _turn_body(self, mover: int, viewer: int | None) -> bytes:
        """``turn`` as ``viewer`` gets it: with the legal actions if it is the seat to move (and no bot
        plays it through a hand-over)."""
        assert self.engine is not None
        legal = []
        if viewer == mover and not self.seats[mover].handing_over:
            legal = [wire_action(a) for a in self.engine.legal_actions(mover)]
        turn = {
            "type": "turn",
            "seq": 1,
            "table_id": self.table_id,
            "seat": mover,
            "time_left_ms": self.time_left_ms(),
            "legal_actions": legal,
        }
        return body_of_dict(turn)

    def remind_turn(self, session: Session, seat: int) -> None:
        """After a resume: the player's turn again, if they are to move, with the time really left."""
        engine = self.engine
        if self.status == "playing" and engine is not None and engine.to_move == seat:
            session.deliver(self._turn_body(seat, seat))

    def _schedule(self, seat: Seat, seconds: float | None = None) -> None:
        """Arm the table's one timer for the seat to move: a bot's move, or the player's time running out
        (in ``seconds``, by default the table's turn time; its wall-clock deadline is stored)."""
        self._cancel_timer()
        if self.lobby.stopping:
            return  # a stopping server moves no more (its journal may be closed already)
        loop = self.lobby.loop
        settings = self.lobby.settings
        if seat.bot_plays:
            delay = self.bot_delay_ms
            pace = settings.bots_only_move_seconds
            if self.bots_only() and (not delay or delay / 1000 <= pace):
                # One move per loop pass at most, and no faster than moves are committed: a table of
                # bots outrunning the disk would pile up frames held for the commit, without bound.
                # Paced (``bots_only_move_seconds``, whatever bot delay the table asks for): thousands
                # of such tables at full speed would take the CPU from every table with people at it.
                pending = self._timer = AfterCommit(loop, self._bot_move)
                if pace > 0:
                    loop.call_later(pace, self.lobby.wal.after_commit, pending)
                else:
                    self.lobby.wal.after_commit(pending)
            elif seat.auto and seat.connected and not seat.bot:
                # The player is there but timed out: give them a moment to take the seat back by acting.
                self._timer = loop.call_later(settings.auto_turn_seconds, self._bot_move)
            else:
                seconds = settings.bot_delay_seconds if delay is None else delay / 1000
                self._timer = loop.call_later(seconds, self._bot_move)
        elif (limit := self.turn_limit(seat)) is not None:
            seconds = limit if seconds is None else seconds
            self._deadline = loop.time() + seconds
            self._timer = loop.call_later(seconds, self._time_out)
            self.lobby.wal.deadline(self, time.time() + seconds)

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
        if engine is None or engine.to_move is None or self.lobby.stopping:
            return
        seat = self.seats[engine.to_move]
        seat.timeouts += 1
        log.info("turn timed out", extra=ids(table_id=self.table_id, seat=seat.index))
        if seat.timeouts >= self.lobby.settings.timeouts_before_auto and not seat.auto:
            seat.auto = True
            self.seat_status(seat)  # stores the table too
        else:
            self.stored()
        self._play_for(seat)

    def _bot_move(self) -> None:
        self._timer = None
        engine = self.engine
        if engine is None or engine.to_move is None or self.status != "playing" or self.lobby.stopping:
            return
        self._play_for(self.seats[engine.to_move])

    def _play_for(self, seat: Seat) -> None:
        """The bot chooses for ``seat`` (searching levels off the loop: ``server/botrunner.py``); the
        table's timer holds the pending choice, so anything that rearms the timer cancels it."""
        engine = self.engine
        assert engine is not None
        level = seat.level if seat.bot else self.lobby.settings.away_bot_level
        moves = self.moves
        self._timer = self.lobby.bots.choose(
            self.spec.name,
            level,
            engine.view(seat.index),
            self.bot_seed(),
            lambda action: self._bot_chose(engine, seat, moves, action),
            human=not self.bots_only(),
        )

    def _bot_chose(self, engine: Engine, seat: Seat, moves: int, action: Any) -> None:
        """The bot's choice, applied only if the table is still at the move it was made for; marked
        ``auto`` when the seat is a human's."""
        self._timer = None
        if (
            engine is not self.engine
            or engine.to_move != seat.index
            or self.moves != moves
            or self.status != "playing"
            or self.lobby.stopping
        ):
            return
        auto = not seat.bot
        try:
            events = self._commit(seat.index, action, auto=auto)
        except Exception:
            where = ids(table_id=self.table_id, seat=seat.index)
            log.exception("the bot failed; the table stops", extra=where)
            return
        self.lobby.metrics.action("auto" if auto else "bot")
        self._after(events, auto=auto)

    def bot_random(self) -> random.Random:
        """The bot's tie-breaker for this move: drawn from the game's secret seed and the move number,
        so that a restored table's bots choose exactly as they would have (and a fixed
        ``settings.seed`` replays a whole table). The seed only goes in through SHA-256, so the
        choices reveal nothing of it."""
        return LazyRandom(self.bot_seed())

    def bot_seed(self) -> bytes:
        """The seed of :meth:`bot_random` (what a bot worker process seeds its ``random.Random`` with)."""
        return hashlib.sha256(f"bots/{self.seed}/{self.moves}".encode()).digest()

    def _store_record(self) -> str | None:
        """Validate and store the finished game's record; its id goes out in ``game_over``."""
        assert self.engine is not None
        names = [seat.name or f"bot-{seat.index}" for seat in self.seats]
        data = self.engine.record(names)
        if self.seeds is not None and self.seeds.fair:
            data["fairness"] = self.seeds.proof()  # the game is over: the seed may be known
        try:
            record = validated(data)
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


class AfterCommit:
    """A bot move waiting for the commit of the table's last action, then for its turn in the loop
    (one move per table per loop pass); cancelled like a timer handle, at either stage."""

    __slots__ = ("_callback", "_handle", "_loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, callback: Callable[[], object]) -> None:
        self._loop = loop
        self._callback: Callable[[], object] | None = callback
        self._handle: asyncio.Handle | None = None

    def cancel(self) -> None:
        self._callback = None
        if self._handle is not None:
            self._handle.cancel()

    def __call__(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            self._handle = self._loop.call_soon(callback)
