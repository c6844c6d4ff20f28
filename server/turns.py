"""The one timer of a game: a human's turn time, a bot's (or auto-play's) move, the wait for seeds.

A :class:`TurnTimer` belongs to its :class:`~boneyard.server.match.Match` and sees it through
:class:`Timed`, and the table through :class:`~boneyard.server.host.Room`: anything that arms the
timer again cancels what it held (a pending bot move, a searching bot's choice, a deadline), so a
game has at most one thing waiting to happen at any time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from random import Random
from typing import Protocol

from boneyard.server.botmoves import AfterCommit, bot_random, bot_seed
from boneyard.server.games.base import Engine
from boneyard.server.games.registry import GameSpec
from boneyard.server.host import Cancellable, EngineAction, Room, Services
from boneyard.server.logs import ids
from boneyard.server.seats import Seat

log = logging.getLogger("boneyard.table")

_DUE_WITHIN = 1e-6
"""A deadline this close is due: the float residue of its arithmetic, far below any loop's timer
resolution (uvloop's is a millisecond), which would otherwise wait again for nothing."""


class Timed(Protocol):
    """The game as its timer sees it (``boneyard.server.match.Match``)."""

    @property
    def engine(self) -> Engine | None: ...
    @property
    def moves(self) -> int: ...
    @property
    def seed(self) -> str: ...
    @property
    def spec(self) -> GameSpec: ...
    @property
    def seats(self) -> list[Seat]: ...

    def play_for(self, seat: Seat, action: EngineAction) -> None:
        """The move the server chose for ``seat`` (its bot's, or auto-play's for its player), through the
        door every accepted action goes through."""
        ...


class TurnTimer:
    """A game's one timer, armed for the seat to move (:meth:`schedule`) or for the deal (:meth:`later`)."""

    __slots__ = ("_armed", "_deadline", "_timer", "game", "room", "server")

    def __init__(self, server: Services, room: Room, game: Timed) -> None:
        self.server = server
        self.room = room
        self.game = game
        self._timer: Cancellable | AfterCommit | None = None
        self._deadline: float | None = None
        """Clock time by which the (human) seat to move must act; ``None``: no timer running."""
        self._armed: float | None = None
        """When ``_timer``, if it is a deadline's, fires: at or before ``_deadline`` (``None``: it is not)."""

    def time_left_ms(self) -> int | None:
        """The time the seat to move has left (0 once it timed out, while the server chooses its move);
        ``None``: no timer runs for this turn."""
        if self._deadline is None:
            return None
        return max(0, int((self._deadline - self.server.clock.time()) * 1000))

    def later(self, seconds: float, callback: Callable[[], object]) -> None:
        """Arm the timer for ``callback`` in ``seconds`` (the wait for the players' seeds)."""
        self.cancel()
        self._timer = self.server.clock.call_later(seconds, callback)

    def bot_random(self) -> Random:
        """The bot's tie-breaker for this move (:func:`~boneyard.server.botmoves.bot_random`)."""
        return bot_random(self.game.seed, self.game.moves)

    def _engine(self) -> Engine:
        engine = self.game.engine
        assert engine is not None, "the game is not dealt yet"
        return engine

    def schedule(self, seat: Seat, seconds: float | None = None) -> None:
        """Arm the one timer for the seat to move: a bot's move, or the player's time running out
        (in ``seconds``, by default the table's turn time; its wall-clock deadline is stored).

        A player's deadline keeps the timer already armed for an earlier one (it fires, sees the time
        left, and waits again, :meth:`_time_out`): every action sets a deadline, a cancelled timer and
        a new one per action cost more than one wait more per turn time."""
        server = self.server
        if server.stopping or seat.bot_plays:
            self.cancel()
            if not server.stopping:  # a stopping server moves no more (its journal may be closed already)
                self._schedule_bot(seat)
            return
        limit = self.room.turn_limit(seat)
        if limit is None:  # an untimed human to move
            if self._armed is None:
                self.cancel()
            self._deadline = None  # an armed deadline's timer then finds none
            return
        clock = server.clock
        seconds = limit if seconds is None else seconds
        deadline = clock.time() + seconds
        if self._armed is None or self._armed > deadline:
            self.cancel()
            self._timer = clock.call_later(seconds, self._time_out)
            self._armed = deadline
        self._deadline = deadline
        server.table_log.deadline(self.room.table_id, self.game.moves, clock.wall() + seconds)

    def _schedule_bot(self, seat: Seat) -> None:
        server = self.server
        clock = server.clock
        settings = server.settings
        delay = self.room.bot_delay_ms
        pace = settings.bots_only_move_seconds
        roster = self.room.roster
        bots_only = roster.bots_only()
        if bots_only and delay is None and roster.spectators:
            # Watched, and its creator asked no pace: the bots move as at a table where a person sits
            # (``bot_delay_seconds``), so that whoever watches can follow; the floor still holds.
            delay = round(max(settings.bot_delay_seconds, pace) * 1000)
        if bots_only and (not delay or delay / 1000 <= pace):
            # One move per loop pass at most, and no faster than moves are committed: a table of
            # bots outrunning the disk would pile up frames held for the commit, without bound.
            # Paced (``bots_only_move_seconds``, whatever bot delay the table asks for): thousands
            # of such tables at full speed would take the CPU from every table with people at it.
            pending = self._timer = AfterCommit(clock, self._bot_move)
            if pace > 0:
                clock.call_later(pace, partial(server.table_log.after_commit, pending))
            else:
                server.table_log.after_commit(pending)
        elif seat.auto and seat.connected and not seat.bot:
            # The player is there but timed out: give them a moment to take the seat back by acting.
            self._timer = clock.call_later(settings.auto_turn_seconds, self._bot_move)
        else:
            seconds = settings.bot_delay_seconds if delay is None else delay / 1000
            self._timer = clock.call_later(seconds, self._bot_move)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None
        self._armed = None

    def _time_out(self) -> None:
        deadline = self._deadline
        clock = self.server.clock
        if deadline is not None and (left := deadline - clock.time()) > _DUE_WITHIN:
            self._timer = clock.call_later(left, self._time_out)  # armed for an earlier deadline
            self._armed = deadline
            return
        self._timer = None
        self._armed = None
        if deadline is None:
            return  # armed for a deadline that has since gone (an untimed player to move)
        engine = self.game.engine
        if engine is None or engine.to_move is None or self.server.stopping:
            self._deadline = None
            return
        # The deadline stays until the move is made: a searching bot chooses it off the loop, and a
        # player told of their turn meanwhile (a resume) must see no time left, not a whole new turn.
        seat = self.game.seats[engine.to_move]
        seat.timeouts += 1
        self.server.metrics.turn_timed_out()
        log.info("turn timed out", extra=ids(table_id=self.room.table_id, seat=seat.index))
        if seat.timeouts >= self.server.settings.timeouts_before_auto and not seat.auto:
            seat.auto = True
            self.room.seat_status(seat)  # stores the table too
        else:
            self.room.stored()
        self._play_for(seat)

    def _bot_move(self) -> None:
        self._timer = None
        engine = self.game.engine
        if engine is None or engine.to_move is None or self.server.stopping:
            return
        self._play_for(self.game.seats[engine.to_move])

    def _play_for(self, seat: Seat) -> None:
        """The bot chooses for ``seat``: ``basic`` at once, a searching level off the loop (the server's
        ``bots``; the timer holds the pending choice, so anything that rearms it cancels the choice)."""
        engine = self._engine()
        level = seat.level if seat.bot else self.server.settings.away_bot_level
        thinker = self.server.bots
        if level != "basic" and thinker is not None:
            moves = self.game.moves
            self._timer = thinker.choose(
                self.game.spec.name,
                level,
                engine.view(seat.index),
                bot_seed(self.game.seed, moves),
                lambda action: self._thought(engine, seat, moves, action),
                human=not self.room.roster.bots_only(),
            )
            return
        try:
            action = self.game.spec.bot_at(level)(engine.view(seat.index), self.bot_random())
        except Exception:
            log.exception("the bot failed; the table stops", extra=ids(table_id=self.room.table_id))
            return
        self._bot_chose(engine, seat, self.game.moves, action)

    def _thought(self, engine: Engine, seat: Seat, moves: int, action: EngineAction) -> None:
        self._timer = None  # the pending choice it held is done
        self._bot_chose(engine, seat, moves, action)

    def _bot_chose(self, engine: Engine, seat: Seat, moves: int, action: EngineAction) -> None:
        """Apply the bot's choice if the game is still at the move it was made for; marked ``auto`` when
        the seat is a human's."""
        if (
            engine is not self.game.engine
            or engine.to_move != seat.index
            or self.game.moves != moves
            or self.server.stopping
        ):
            return
        self.game.play_for(seat, action)
