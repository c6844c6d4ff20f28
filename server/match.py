"""One game at a table: the engine, its seed and moves, the turn timer, bots, the events fan-out, the record.

A :class:`Match` is owned by its :class:`~boneyard.server.table.Table` (a rematch is a new match)
and sees the table through :class:`~boneyard.server.host.Room` and the server through
:class:`~boneyard.server.host.TableHost`: it imports neither the table nor the lobby.

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
from collections.abc import Iterable
from functools import partial
from random import Random
from typing import Any

from boneyard.server.botmoves import AfterCommit, bot_random, bot_seed
from boneyard.server.errors import CommandError
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.base import Engine, Event, IllegalAction
from boneyard.server.games.registry import GameSpec
from boneyard.server.host import Cancellable, Room, TableHost
from boneyard.server.logs import ids
from boneyard.server.pause import HandPause, pause_ms
from boneyard.server.records import validated
from boneyard.server.seats import Seat
from boneyard.server.session import Session
from boneyard.server.wire import EventEncoder, engine_action, turn_body, turn_head, view_model

log = logging.getLogger("boneyard.table")


class Match:
    """Game number ``number`` at a table, dealt from ``seeds`` (:class:`~boneyard.server.fairdeal.GameSeeds`).

    A game starts by committing to its deal (``deal_commitment``) and waiting briefly for the seated
    humans' seeds; :meth:`first_deal` makes the engine; until then ``engine`` is ``None``. At game over
    the seeds are revealed (``deal_revealed`` and the record's ``fairness``).
    """

    __slots__ = (
        "_deadline",
        "_events",
        "_timer",
        "_turn_head",
        "engine",
        "host",
        "moves",
        "number",
        "options",
        "pause",
        "room",
        "seats",
        "seeds",
        "spec",
    )

    def __init__(
        self, host: TableHost[Any], room: Room, spec: GameSpec, options: Any, number: int, seeds: GameSeeds
    ) -> None:
        self.host = host
        self.room = room
        self.spec = spec
        self.options = options
        self.seats = room.roster.seats
        self.number = number
        """Games started at the table, this one included (rematches count)."""
        self.seeds = seeds
        """The game's seeds: the server's secret (stored, so that a restart deals the same tiles), the
        players' contributions."""
        self.moves = 0
        """Actions accepted so far."""
        self.engine: Engine | None = None
        """The game, once dealt (:meth:`first_deal`)."""
        self._events = EventEncoder(spec.name, room.table_id)
        self._turn_head = turn_head(room.table_id)
        self._timer: Cancellable | AfterCommit | None = None
        self._deadline: float | None = None
        """Clock time by which the (human) seat to move must act; ``None``: no timer running."""
        self.pause: HandPause | None = None
        """The pause between hands, while the engine rests after a hand (``None``: no pause)."""

    # -- what the table asks of its game ------------------------------------------------------------

    def time_left_ms(self) -> int | None:
        if self._deadline is None:
            return None
        return max(0, int((self._deadline - self.host.clock.time()) * 1000))

    @property
    def seed(self) -> str:
        return self.seeds.seed

    def view_model(self, viewer: int | None) -> Any:
        """The engine's view for ``viewer`` as a protocol model (no legal actions during a hand-over);
        ``None`` before the first deal."""
        if self.engine is None:
            return None
        hand_over = viewer is not None and self.seats[viewer].handing_over
        return view_model(self.spec.name, self.engine.view(viewer), hide_actions=hand_over)

    def replay(self, actions: Iterable[tuple[int, Any, bool]]) -> None:
        """A restore: deal again from the stored seeds and replay the stored actions (nothing is sent or
        written); a game whose first deal was still waiting for seeds waits again (:meth:`resume_turn`)."""
        if not self.seeds.dealt:
            return
        engine = self._deal()
        for seat, action, auto in actions:
            if engine.between_hands:
                engine.deal_next()  # the pause after that hand had ended
            engine.apply(seat, action, auto=auto)
            self.moves += 1
        if engine.between_hands and not engine.is_over:
            self.pause = HandPause(engine.hand_number, 0.0)  # restored mid-pause: armed by resume_turn

    def resume_turn(self, seconds_left: float | None) -> None:
        """After a restore: start the turn of the seat to move (a human's timer runs out at the stored
        deadline: ``seconds_left``; ``None``, a whole turn), or wait for seeds again before the deal; a
        pause between hands goes on to its stored end (``None``: a whole pause)."""
        if self.pause is not None:
            self._arm_pause(self._pause_seconds() if seconds_left is None else seconds_left)
        elif self.engine is not None and self.engine.to_move is not None:
            self._schedule(self.seats[self.engine.to_move], seconds_left)
        elif self.engine is None and not self.seeds.dealt:
            self.await_seeds()

    # -- the deal: commitment, seeds, first deal ----------------------------------------------------

    def seed_seats(self) -> list[int]:
        """The seats that may contribute a seed: those a human holds."""
        return [seat.index for seat in self.seats if seat.session is not None]

    def _seed_wait_ms(self) -> int:
        return self.host.settings.deal_seed_wait_ms if self.seed_seats() else 0

    def commit(self) -> None:
        """Tell the table what the deal is committed to (the seed is stored before this goes out)."""
        body = self.seeds.commitment_body(
            self.room.table_id, self.number, self.seed_seats(), self._seed_wait_ms()
        )
        self._broadcast(body)

    def await_seeds(self) -> None:
        wait = self._seed_wait_ms()
        if wait and not self.host.stopping:
            self._cancel_timer()
            self._timer = self.host.clock.call_later(wait / 1000, self.first_deal)
        else:
            self.first_deal()

    def contribute(self, seat: int, seed: str) -> None:
        """A seated human's ``contribute_seed``: stored, announced to the table, and once every human
        seat has one, the deal follows at once."""
        seeds = self.seeds
        seeds.contribute(seat, seed)
        self.room.stored()  # stored before anyone hears of it
        self._broadcast(seeds.contributed_body(self.room.table_id, seat))
        if all(seeds.players[s] is not None for s in self.seed_seats()):
            self.first_deal()

    def deal_messages(self, session: Session) -> None:
        """For someone arriving while the game runs: its commitment and the seeds contributed so far."""
        seeds = self.seeds
        if not seeds.fair:
            return
        session.deliver(seeds.commitment_body(self.room.table_id, self.number, self.seed_seats(), 0))
        for seat, seed in enumerate(seeds.players):
            if seed is not None:
                session.deliver(seeds.contributed_body(self.room.table_id, seat))

    def _deal(self) -> Engine:
        """The game's first deal, from its seeds: no seed is taken after it."""
        self.seeds.dealt = True
        self.engine = self.spec.new_game(self.options, self.seeds.dealer(), hold_deals=True)
        return self.engine

    def first_deal(self) -> None:
        """Deal, tell everyone (``table_updated``, ``snapshot``, events), first turn."""
        self._cancel_timer()
        if self.engine is not None or self.host.stopping or self.room.removed:
            return  # dealt already, or the server stops, or the table was removed while it waited
        engine = self._deal()
        self.room.changed()
        for session, viewer in self.room.roster.listeners():
            session.deliver(self.room.snapshot_body(viewer))
        self._fan_out(engine.opening_events())
        self._next_turn()
        log.info("game started", extra=ids(table_id=self.room.table_id))

    def _broadcast(self, body: bytes) -> None:
        for session, _ in self.room.roster.listeners():
            session.deliver(body)

    def _dealt(self) -> Engine:
        engine = self.engine
        assert engine is not None, "the game is not dealt yet"
        return engine

    def act(self, seat: int, action_model: Any) -> None:
        """A player's ``act`` (the table checked the server is not stopping): the engine alone decides;
        an error changes nothing."""
        engine = self.engine
        if engine is None:
            raise CommandError("not_your_turn", "the game has not started")
        holder = self.seats[seat]
        if holder.handing_over:
            raise CommandError("not_your_turn", "the bot plays this seat until the hand ends")
        action = engine_action(self.spec, action_model)
        try:
            if action is None:  # no action of this game: refused as the engine refuses out of turn
                engine.check_turn(seat)
                raise IllegalAction(f"not a {self.spec.name} action")
            events = self._commit(seat, action, auto=False)
        except IllegalAction as error:
            raise CommandError(error.code, str(error)) from None  # type: ignore[arg-type]
        self.host.metrics.action("player")
        if holder.auto:  # acting takes the seat back from the server
            holder.auto = False
            holder.timeouts = 0
            self.room.seat_status(holder)
        elif holder.timeouts:
            holder.timeouts = 0
            self.room.stored()
        self._after(events)

    def remind_turn(self, session: Session, seat: int) -> None:
        """After a resume: the player's turn again, if they are to move, with the time really left."""
        if self.engine is not None and self.engine.to_move == seat:
            session.deliver(self._turn_body(seat, seat))

    def restart_turn(self, seat: Seat) -> None:
        """Who plays ``seat`` changed: if it is to move, start its turn afresh."""
        if self.engine is not None and self.engine.to_move == seat.index:
            self._next_turn()

    def stop(self) -> None:
        """Stop the timer for good (game over, shutdown, removal): no bot moves, no timeouts."""
        self._cancel_timer()

    # -- the game's life ----------------------------------------------------------------------------

    def _commit(self, seat: int, action: Any, *, auto: bool) -> list[Event]:
        """The one door every accepted action goes through.

        Once the engine has accepted the action, and before anyone hears of it, it is written
        ahead (``host.table_log``): its events' frames go out only once it is committed, and a restarted
        server replays it.
        """
        events = self._dealt().apply(seat, action, auto=auto)
        self.host.table_log.action(self.room.table_id, self.number, self.moves, seat, action, auto)
        self.moves += 1
        return events

    def _after(self, events: list[Event], *, auto: bool = False) -> None:
        engine = self._dealt()
        record_id = None
        if engine.is_over:
            record_id = self.room.record_id = self._store_record()
        self._fan_out(events, record_id, auto)
        if engine.is_over and self.seeds.fair:
            self._broadcast(self.seeds.revealed_body(self.room.table_id, self.number, record_id))
        if engine.between_hands or any(e.type == "hand_started" for e in events):
            self._finish_hand_overs()
        if engine.is_over:
            self._cancel_timer()
            self.room.game_over()
        elif engine.between_hands:
            self._between_hands()
        else:
            self._next_turn()

    # -- the pause between hands --------------------------------------------------------------------

    def _pause_seconds(self) -> float:
        default = round(self.host.settings.hand_pause_seconds * 1000)
        return pause_ms(self.room.hand_pause_ms, default, self.room.roster.bots_only()) / 1000

    def _between_hands(self) -> None:
        """A hand ended and the engine holds the next deal: pause (``hand_pause`` to the table, no turn,
        no clock), or deal at once when the table does not pause or nobody is to be waited for."""
        pause = HandPause(self._dealt().hand_number, 0.0)
        seconds = self._pause_seconds()
        if seconds <= 0 or pause.done(self.seats):
            self._deal_next()
            return
        self.pause = pause
        if self.host.stopping:
            return  # a restarted server pauses afresh
        self._arm_pause(seconds)
        self.room.stored()  # the pause's ready seats (none yet) are stored with the table
        self._broadcast(pause.body(self.room.table_id, self.seats, self.host.clock.time()))

    def _arm_pause(self, seconds: float) -> None:
        """The one timer ends the pause in ``seconds``; its wall-clock end is stored like a deadline."""
        pause = self.pause
        assert pause is not None
        self._cancel_timer()
        if self.host.stopping:
            return
        clock = self.host.clock
        pause.until = clock.time() + seconds
        self._timer = clock.call_later(seconds, self._end_pause)
        self.host.table_log.deadline(self.room.table_id, self.moves, clock.wall() + seconds)

    def _end_pause(self) -> None:
        self._timer = None
        if self.pause is not None and not self.host.stopping and not self.room.removed:
            self._deal_next()

    def _deal_next(self) -> None:
        """The pause is over (or there is none): deal the held hand, tell everyone, first turn."""
        self._cancel_timer()
        had_pause, self.pause = self.pause is not None, None
        events = self._dealt().deal_next()
        if had_pause:
            self.room.stored()  # no pause any more
        self._fan_out(events)
        self._next_turn()

    def ready(self, seat: int) -> None:
        """A seated player is done looking at the hand's result (nothing outside a pause)."""
        pause = self.pause
        if pause is None or seat in pause.ready:
            return
        pause.ready.add(seat)
        self.pause_changed(announce=True)

    def pause_changed(self, *, announce: bool = False) -> None:
        """Who the pause waits for may have changed (a ``ready``, a seat's player came, went or is played
        for): deal if nobody is left to wait for, else store it and tell the table what changed."""
        pause = self.pause
        if pause is None or self.host.stopping or self.room.removed:
            return
        if pause.done(self.seats):
            self._deal_next()
            return
        if announce or tuple(pause.waiting(self.seats)) != pause.told:
            self.room.stored()
            self._broadcast(pause.body(self.room.table_id, self.seats, self.host.clock.time()))

    def pause_info(self) -> dict[str, object] | None:
        """The pause as a snapshot carries it (``None``: no pause)."""
        if self.pause is None:
            return None
        return self.pause.info(self.seats, self.host.clock.time())

    def _finish_hand_overs(self) -> None:
        """A hand ended: the bots playing on for players who took their seats hand them over."""
        handed = [seat for seat in self.seats if seat.handing_over]
        for seat in handed:
            seat.bot = False
        if handed:
            self.room.changed()

    def _fan_out(self, events: list[Event], record_id: str | None = None, auto: bool = False) -> None:
        """Each event to each listener as that listener may see it; each distinct form encoded once
        (``auto``: they are the events of an action the server took for a player)."""
        listeners = self.room.roster.listeners()
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
        mover = self._dealt().to_move
        if mover is None:
            return
        self._schedule(self.seats[mover])
        listeners = self.room.roster.listeners()
        if not listeners:
            return
        public = self._turn_body(mover, None)
        for session, viewer in listeners:
            session.deliver(self._turn_body(mover, viewer) if viewer == mover else public)

    def _turn_body(self, mover: int, viewer: int | None) -> bytes:
        """``turn`` as ``viewer`` gets it: with the legal actions if it is the seat to move (and no bot
        plays it through a hand-over)."""
        legal: list[Any] = []
        if viewer == mover and not self.seats[mover].handing_over:
            legal = self._dealt().legal_actions(mover)
        return turn_body(self._turn_head, mover, self.time_left_ms(), legal)

    def _schedule(self, seat: Seat, seconds: float | None = None) -> None:
        """Arm the one timer for the seat to move: a bot's move, or the player's time running out
        (in ``seconds``, by default the table's turn time; its wall-clock deadline is stored)."""
        self._cancel_timer()
        host = self.host
        if host.stopping:
            return  # a stopping server moves no more (its journal may be closed already)
        clock = host.clock
        settings = host.settings
        if seat.bot_plays:
            delay = self.room.bot_delay_ms
            pace = settings.bots_only_move_seconds
            if self.room.roster.bots_only() and (not delay or delay / 1000 <= pace):
                # One move per loop pass at most, and no faster than moves are committed: a table of
                # bots outrunning the disk would pile up frames held for the commit, without bound.
                # Paced (``bots_only_move_seconds``, whatever bot delay the table asks for): thousands
                # of such tables at full speed would take the CPU from every table with people at it.
                pending = self._timer = AfterCommit(clock, self._bot_move)
                if pace > 0:
                    clock.call_later(pace, partial(host.table_log.after_commit, pending))
                else:
                    host.table_log.after_commit(pending)
            elif seat.auto and seat.connected and not seat.bot:
                # The player is there but timed out: give them a moment to take the seat back by acting.
                self._timer = clock.call_later(settings.auto_turn_seconds, self._bot_move)
            else:
                seconds = settings.bot_delay_seconds if delay is None else delay / 1000
                self._timer = clock.call_later(seconds, self._bot_move)
        elif (limit := self.room.turn_limit(seat)) is not None:
            seconds = limit if seconds is None else seconds
            self._deadline = clock.time() + seconds
            self._timer = clock.call_later(seconds, self._time_out)
            host.table_log.deadline(self.room.table_id, self.moves, clock.wall() + seconds)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None

    def _time_out(self) -> None:
        self._timer = None
        self._deadline = None
        engine = self.engine
        if engine is None or engine.to_move is None or self.host.stopping:
            return
        seat = self.seats[engine.to_move]
        seat.timeouts += 1
        log.info("turn timed out", extra=ids(table_id=self.room.table_id, seat=seat.index))
        if seat.timeouts >= self.host.settings.timeouts_before_auto and not seat.auto:
            seat.auto = True
            self.room.seat_status(seat)  # stores the table too
        else:
            self.room.stored()
        self._play_for(seat)

    def _bot_move(self) -> None:
        self._timer = None
        engine = self.engine
        if engine is None or engine.to_move is None or self.host.stopping:
            return
        self._play_for(self.seats[engine.to_move])

    def _play_for(self, seat: Seat) -> None:
        """The bot chooses for ``seat``: ``basic`` at once, a searching level off the loop (the host's
        ``bots``; the timer holds the pending choice, so anything that rearms it cancels the choice)."""
        engine = self._dealt()
        level = seat.level if seat.bot else self.host.settings.away_bot_level
        thinker = self.host.bots
        if level != "basic" and thinker is not None:
            moves = self.moves
            self._timer = thinker.choose(
                self.spec.name,
                level,
                engine.view(seat.index),
                bot_seed(self.seed, moves),
                lambda action: self._thought(engine, seat, moves, action),
                human=not self.room.roster.bots_only(),
            )
            return
        try:
            action = self.spec.bot_at(level)(engine.view(seat.index), self.bot_random())
        except Exception:
            log.exception("the bot failed; the table stops", extra=ids(table_id=self.room.table_id))
            return
        self._bot_chose(engine, seat, self.moves, action)

    def _thought(self, engine: Engine, seat: Seat, moves: int, action: Any) -> None:
        self._timer = None  # the pending choice it held is done
        self._bot_chose(engine, seat, moves, action)

    def _bot_chose(self, engine: Engine, seat: Seat, moves: int, action: Any) -> None:
        """Apply the bot's choice if the game is still at the move it was made for; marked ``auto`` when
        the seat is a human's."""
        if (
            engine is not self.engine
            or engine.to_move != seat.index
            or self.moves != moves
            or self.host.stopping
        ):
            return
        auto = not seat.bot
        try:
            events = self._commit(seat.index, action, auto=auto)
        except Exception:
            where = ids(table_id=self.room.table_id, seat=seat.index)
            log.exception("the bot failed; the table stops", extra=where)
            return
        self.host.metrics.action("auto" if auto else "bot")
        self._after(events, auto=auto)

    def bot_random(self) -> Random:
        """The bot's tie-breaker for this move (:func:`~boneyard.server.botmoves.bot_random`)."""
        return bot_random(self.seed, self.moves)

    def _store_record(self) -> str | None:
        """Validate and store the finished game's record; its id goes out in ``game_over``."""
        names = [seat.name or f"bot-{seat.index}" for seat in self.seats]
        data = self._dealt().record(names)
        if self.seeds.fair:
            data["fairness"] = self.seeds.proof()  # the game is over: the seed may be known
        try:
            record = validated(data)
        except Exception:
            log.exception("the record does not validate", extra=ids(table_id=self.room.table_id))
            return None
        record_id = self.host.new_record_id()
        self.host.records.put(record_id, record)
        log.info("game over", extra=ids(table_id=self.room.table_id, record_id=record_id))
        return record_id
