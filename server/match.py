"""One game at a table: the engine, its seed and moves, the record (its timer: turns.py; what it tells the
table: fanout.py).

A :class:`Match` is owned by its :class:`~boneyard.server.table.Table` (a rematch is a new match)
and sees the table through :class:`~boneyard.server.host.Room` and the server through
:class:`~boneyard.server.host.TableServer`: it imports neither the table nor the lobby.

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
from typing import NamedTuple

from boneyard.protocol import Action, PauseInfo, View
from boneyard.protocol.values import CommandId
from boneyard.server.dealstart import DealStart
from boneyard.server.errors import CommandError, is_error_code
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.fanout import FanOut, Regenerated, Reply
from boneyard.server.games.base import Engine, Event, IllegalAction
from boneyard.server.games.events import GameOver
from boneyard.server.games.registry import GameOptions, GameSpec
from boneyard.server.host import EngineAction, Room, Services
from boneyard.server.logs import ids
from boneyard.server.pause import HandBreak, HandPause
from boneyard.server.record_store import validated
from boneyard.server.seats import Seat
from boneyard.server.session import Session
from boneyard.server.turns import TurnTimer
from boneyard.server.wire import engine_action, ok_body, view_model

log = logging.getLogger("boneyard.table")


class Shown(NamedTuple):
    """What a ``snapshot`` carries of the game for one viewer."""

    view: View | None
    """The engine's view (``None`` before the first deal)."""
    time_left_ms: int | None
    """The turn's time left (``None``: no timer runs)."""
    pause: PauseInfo | None
    """The pause between hands (``None``: no pause)."""


NOT_STARTED = Shown(None, None, None)
"""A table with no game yet shows none."""


class Match:
    """Game number ``number`` at a table, dealt from ``seeds`` (:class:`~boneyard.server.fairdeal.GameSeeds`).

    A game starts by committing to its deal (``deal_commitment``) and waiting briefly for the seated
    humans' seeds; :meth:`first_deal` makes the engine; until then ``engine`` is ``None``. At game over
    the seeds are revealed (``deal_revealed`` and the record's ``fairness``).
    """

    __slots__ = (
        "breaks",
        "engine",
        "fan_out",
        "moves",
        "number",
        "options",
        "room",
        "seats",
        "seeds",
        "server",
        "spec",
        "start",
        "turns",
    )

    def __init__(
        self,
        server: Services,
        room: Room,
        spec: GameSpec,
        options: GameOptions,
        number: int,
        seeds: GameSeeds,
    ) -> None:
        self.server = server
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
        self.fan_out = FanOut(spec.name, room)
        """Its events and turns to the people at the table."""
        self.turns = TurnTimer(server, room, self)
        """The game's one timer: turn time, bots' moves, the wait for seeds, the pause between hands."""
        self.breaks = HandBreak(server, room, self)
        """The pause between hands."""
        self.start = DealStart(server, room, self, seeds)
        """The commitment and the players' seeds, until the first deal."""

    # -- what the table asks of its game ------------------------------------------------------------

    @property
    def seed(self) -> str:
        return self.seeds.seed

    def shown(self, viewer: int | None) -> Shown:
        """The game as a ``snapshot`` shows it to ``viewer`` (a seat, or ``None``): its view, the time
        left of the turn, the pause between hands."""
        pause = self.breaks.info()
        return Shown(
            self._view_model(viewer),
            self.turns.time_left_ms(),
            None if pause is None else PauseInfo.model_validate(pause),
        )

    def _view_model(self, viewer: int | None) -> View | None:
        """The engine's view for ``viewer`` as a protocol model (no legal actions during a hand-over);
        ``None`` before the first deal."""
        if self.engine is None:
            return None
        hand_over = viewer is not None and self.seats[viewer].handing_over
        model: View = view_model(self.spec.name, self.engine.view(viewer), hide_actions=hand_over)
        return model

    def replay(
        self,
        actions: Iterable[tuple[int, EngineAction, bool]],
        hand_ready: Iterable[int] | None = None,
        regenerate_from: int | None = None,
    ) -> list[Regenerated | None]:
        """A restore: deal again from the stored seeds and replay the stored actions (nothing is sent or
        written); a game whose first deal was still waiting for seeds waits again (:meth:`resume_turn`).
        After a hand's last action the table was pausing if it stored the pause's ready seats
        (``hand_ready``), else it had dealt the next hand, as it is dealt again here.

        From action ``regenerate_from`` on, each action's messages to each seated player are made again
        as the live fan-out made them (events, then the turn; see :meth:`_regenerated`), for exact
        resumes after a crash (:mod:`boneyard.server.storage.crashlog`); the list holds them from there.
        """
        regenerated: list[Regenerated | None] = []
        if not self.seeds.dealt:
            return regenerated
        engine = self._deal()
        seated = [seat.index for seat in self.seats if seat.session is not None]
        for k, (seat, action, auto) in enumerate(actions):
            if engine.between_hands:
                engine.deal_next()  # the pause after that hand had ended
            events = engine.apply(seat, action, auto=auto)
            self.moves += 1
            if regenerate_from is not None and k >= regenerate_from:
                regenerated.append(self.fan_out.regenerate(engine, events, auto, seated))
        if engine.between_hands and not engine.is_over:
            if hand_ready is None:
                engine.deal_next()  # no pause, or it had ended: that hand's first turn resumes
            else:
                self.breaks.restored(engine.hand_number, hand_ready)  # armed again by resume_turn
        return regenerated

    def resume_turn(self, seconds_left: float | None) -> None:
        """After a restore: start the turn of the seat to move (a human's timer runs out at the stored
        deadline: ``seconds_left``; ``None``, a whole turn), or wait for seeds again before the deal; a
        pause between hands goes on to its stored end (``None``: a whole pause)."""
        if self.pause is not None:
            self.breaks.resume(seconds_left)
        elif self.engine is not None and self.engine.to_move is not None:
            self.turns.schedule(self.seats[self.engine.to_move], seconds_left)
        elif self.engine is None and not self.seeds.dealt:
            self.start.await_seeds()

    # -- the first deal (after :class:`~boneyard.server.dealstart.DealStart`) -----------------------

    def _deal(self) -> Engine:
        """The game's first deal, from its seeds: no seed is taken after it."""
        self.seeds.dealt = True
        self.engine = self.spec.new_game(self.options, self.seeds.dealer(), hold_deals=True)
        return self.engine

    def first_deal(self) -> None:
        """Deal, tell everyone (``table_updated``, ``snapshot``, events), first turn."""
        self.turns.cancel()
        if self.engine is not None or self.server.stopping or self.room.removed:
            return  # dealt already, or the server stops, or the table was removed while it waited
        engine = self._deal()
        self.room.changed()
        for session, viewer in self.room.roster.listeners():
            session.deliver(self.room.snapshot_body(viewer))
        self._play_on(engine.opening_events())
        log.info("game started", extra=ids(table_id=self.room.table_id))

    def _dealt(self) -> Engine:
        engine = self.engine
        assert engine is not None, "the game is not dealt yet"
        return engine

    def act(self, seat: int, action_model: Action, reply_to: CommandId | None = None) -> None:
        """A player's ``act`` (the table checked the server is not stopping): the engine alone decides;
        an error changes nothing. Accepted, it is answered ``ok`` after its messages (when it has an id)."""
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
            code = (
                error.code if is_error_code(error.code) else "illegal_action"
            )  # every engine code is in the spec
            raise CommandError(code, str(error)) from None
        self.server.metrics.action("player")
        if holder.auto:  # acting takes the seat back from the server
            holder.auto = False
            holder.timeouts = 0
            self.room.seat_status(holder)
        elif holder.timeouts:
            holder.timeouts = 0
            self.room.stored()
        actor = holder.session
        reply = None if reply_to is None or actor is None else (actor, reply_to)
        if not self._after(events, reply=reply) and reply is not None:
            reply[0].deliver(ok_body(reply[1]))  # not folded into the events (turn_in_event)
        self._note_ends(reply_to)

    def remind_turn(self, session: Session, seat: int) -> None:
        """After a resume: the player's turn again, if they are to move, with the time really left."""
        if self.engine is not None and self.engine.to_move == seat:
            turn = self.fan_out.next_turn(self.engine, seat, self.turns.time_left_ms())
            session.deliver(self.fan_out.turn_body(turn, seat))

    def restart_turn(self, seat: Seat) -> None:
        """Who plays ``seat`` changed: if it is to move, start its turn afresh."""
        if self.engine is not None and self.engine.to_move == seat.index:
            self._next_turn()

    # -- the game's life ----------------------------------------------------------------------------

    def _commit(self, seat: int, action: EngineAction, *, auto: bool) -> list[Event]:
        """The one door every accepted action goes through.

        Once the engine has accepted the action, and before anyone hears of it, it is written
        ahead (``host.table_log``): its events' frames go out only once it is committed, and a restarted
        server replays it.
        """
        events = self._dealt().apply(seat, action, auto=auto)
        self.server.table_log.action(self.room.table_id, self.number, self.moves, seat, action, auto)
        self.moves += 1
        return events

    def _note_ends(self, reply_to: CommandId | None) -> None:
        """The last action's messages are all queued: journal where they end in each seated player's
        numbering (and the ``ok`` it was answered with), so that a resume after a crash can replay them."""
        if self.room.removed:
            return
        ends = [(s.session.epoch, s.session.seq) if s.session is not None else None for s in self.seats]
        if all(end is None for end in ends):
            return  # bots only: nobody to resume
        self.server.table_log.action_end(self.room.table_id, self.number, self.moves - 1, reply_to, ends)

    def _after(self, events: list[Event], *, auto: bool = False, reply: Reply | None = None) -> bool:
        """An accepted action's messages, and what follows it: the next turn, or the hand's or game's
        end. Whether ``reply`` (the actor's ``act`` id) went out inside its last event."""
        engine = self._dealt()
        if not (engine.is_over or engine.between_hands or any(e.type == "hand_started" for e in events)):
            return self._play_on(events, auto=auto, reply=reply)  # the common case: the turn follows
        record_id = None
        if engine.is_over:
            record_id = self.room.record_id = self._store_record()
            self.server.metrics.game_finished(self.spec.name)
        self.fan_out.send(events, self.room.roster.listeners(), record_id=record_id, auto=auto)
        if engine.is_over and self.seeds.fair:
            self.room.roster.broadcast(self.seeds.revealed_body(self.room.table_id, self.number, record_id))
        if engine.between_hands or any(e.type == "hand_started" for e in events):
            self._finish_hand_overs()
        if engine.is_over:
            self.turns.cancel()
            over = next(e for e in events if isinstance(e, GameOver))
            self.room.game_over(over.winner, over.scores)
        elif engine.between_hands:
            return self._between_hands(reply)
        else:
            self._next_turn()
        return False

    # -- the pause between hands (:class:`~boneyard.server.pause.HandBreak`) -------------------------

    @property
    def pause(self) -> HandPause | None:
        """The pause between hands, while the engine rests after a hand (``None``: no pause)."""
        return self.breaks.pause

    def _between_hands(self, reply: Reply | None = None) -> bool:
        """A hand ended and the engine holds the next deal: pause, or deal at once (no pause asked, or
        nobody to wait for). Whether ``reply`` went out inside the new deal's last event."""
        if self.breaks.start(self._dealt().hand_number):
            return False
        return self._deal_next(reply)

    def deal_next(self) -> None:
        """The pause is over (or there is none): deal the held hand, tell everyone, first turn."""
        self._deal_next(None)

    def _deal_next(self, reply: Reply | None) -> bool:
        self.turns.cancel()
        had_pause = self.breaks.end()
        events = self._dealt().deal_next()
        if had_pause:
            self.room.stored()  # no pause any more
        return self._play_on(events, reply=reply)

    def _finish_hand_overs(self) -> None:
        """A hand ended: the bots playing on for players who took their seats hand them over."""
        handed = [seat for seat in self.seats if seat.handing_over]
        for seat in handed:
            seat.bot = False
        if handed:
            self.room.changed()

    def _play_on(self, events: list[Event], *, auto: bool = False, reply: Reply | None = None) -> bool:
        """Events followed by the next turn: the seat to move's timer (or bot) starts, then everyone
        hears the events and the turn (inside the last event, where the listener accepted
        ``turn_in_event``). Whether ``reply`` went out inside the actor's last event."""
        engine = self._dealt()
        mover = engine.to_move
        listeners = self.room.roster.listeners()
        if mover is None:
            self.fan_out.send(events, listeners, auto=auto)
            return False
        self.turns.schedule(self.seats[mover])  # no message: a bot's move comes on a later loop pass
        turn = self.fan_out.next_turn(engine, mover)
        return self.fan_out.send(events, listeners, auto=auto, turn=turn, reply=reply)

    def _next_turn(self) -> None:
        """Start the seat to move's turn (timer or bot) and send everyone ``turn``."""
        engine = self._dealt()
        mover = engine.to_move
        if mover is None:
            return
        self.turns.schedule(self.seats[mover])
        self.fan_out.turn(self.fan_out.next_turn(engine, mover), self.room.roster.listeners())

    def play_for(self, seat: Seat, action: EngineAction) -> None:
        """The move the server chose for ``seat`` (its bot, or auto-play for its player: marked ``auto``)."""
        auto = not seat.bot
        try:
            events = self._commit(seat.index, action, auto=auto)
        except Exception:
            where = ids(table_id=self.room.table_id, seat=seat.index)
            log.exception("the bot failed; the table stops", extra=where)
            return
        self.server.metrics.action("auto" if auto else "bot")
        self._after(events, auto=auto)
        self._note_ends(None)

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
        record_id = self.server.new_record_id()
        self.server.records.put(record_id, record)
        log.info("game over", extra=ids(table_id=self.room.table_id, record_id=record_id))
        return record_id
