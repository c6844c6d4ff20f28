"""The pause between hands at one table: who is ready, until when, and when it ends.

A :class:`HandPause` is the state of one pause: who the table still waits for, and whether it may
end now. A :class:`HandBreak` belongs to a :class:`~boneyard.server.match.Match` (seen through
:class:`Paused`) and runs its pauses while its engine rests between hands (``hold_deals``): it arms
the game's one timer to the pause's end, stores it, tells the table, and has the match deal the
next hand once every human is ready or the time is up.

>>> from boneyard.server.seats import Seat
>>> seats = [Seat(0), Seat(1)]
>>> seats[1].make_bot()
>>> pause = HandPause(hand_number=0, until=10.0)
>>> pause.waiting(seats), pause.done(seats)  # no human seated: the pause runs its whole length
([], False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from boneyard.server.host import Room, Services
from boneyard.server.seats import Seat
from boneyard.server.wire import body_of_dict


def waits_for(seat: Seat) -> bool:
    """A seat whose ``ready`` a pause waits for: a human the server does not play for, connected or
    dropped within the grace period (a bot is always ready, and so is a seat the server plays for: its
    player away, or timed out)."""
    return not seat.bot_plays


def pause_ms(asked: int | None, default_ms: int, bots_only: bool) -> int:
    """How long a table pauses between hands: what its creator asked for, else the server's default
    where a human sits and none at a table of bots only.

    >>> pause_ms(None, 10_000, False), pause_ms(None, 10_000, True), pause_ms(2500, 10_000, True)
    (10000, 0, 2500)
    """
    if asked is not None:
        return asked
    return 0 if bots_only else default_ms


@dataclass(slots=True)
class HandPause:
    """A pause after hand ``hand_number``, ending at clock time ``until`` at the latest."""

    hand_number: int
    until: float
    ready: set[int] = field(default_factory=set)
    told: tuple[int, ...] = ()
    """The seats ``waiting`` as last announced (a seat's change that changes nothing is not)."""

    def waiting(self, seats: Sequence[Seat]) -> list[int]:
        return [s.index for s in seats if waits_for(s) and s.index not in self.ready]

    def done(self, seats: Sequence[Seat]) -> bool:
        """Every human the pause waits for is ready (at a table where a human sits: a bots-only table's
        pause, asked for its spectators, runs its whole length)."""
        humans = any(s.session is not None for s in seats)
        return humans and not self.waiting(seats)

    def time_left_ms(self, now: float) -> int:
        return max(0, int((self.until - now) * 1000))

    def info(self, seats: Sequence[Seat], now: float) -> dict[str, object]:
        """The pause as ``PauseInfo`` (in ``hand_pause`` and ``snapshot.pause``)."""
        return {
            "hand_number": self.hand_number,
            "time_left_ms": self.time_left_ms(now),
            "ready": sorted(self.ready),
            "waiting": self.waiting(seats),
        }

    def body(self, table_id: str, seats: Sequence[Seat], now: float) -> bytes:
        """The ``hand_pause`` message (noting what it announced)."""
        info = self.info(seats, now)
        self.told = tuple(self.waiting(seats))
        return body_of_dict({"type": "hand_pause", "seq": 1, "table_id": table_id, "pause": info})


class Timer(Protocol):
    """The game's one timer (``boneyard.server.turns.TurnTimer``)."""

    def later(self, seconds: float, callback: Callable[[], object]) -> None: ...
    def cancel(self) -> None: ...


class Paused(Protocol):
    """The game as its pauses see it (``boneyard.server.match.Match``)."""

    @property
    def moves(self) -> int: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def turns(self) -> Timer: ...

    def deal_next(self) -> None:
        """Deal the hand held back, tell everyone, start its first turn."""
        ...


class HandBreak:
    """A game's pauses between hands, one at a time (``pause``: the current one, or ``None``)."""

    __slots__ = ("game", "pause", "room", "server")

    def __init__(self, server: Services, room: Room, game: Paused) -> None:
        self.server = server
        self.room = room
        self.game = game
        self.pause: HandPause | None = None

    def seconds(self) -> float:
        """How long this table pauses (``hand_pause_ms``, else the server's default, none for bots)."""
        default = round(self.server.settings.hand_pause_seconds * 1000)
        return pause_ms(self.room.hand_pause_ms, default, self.room.roster.bots_only()) / 1000

    def start(self, hand_number: int) -> bool:
        """Hand ``hand_number`` ended: pause (``hand_pause`` to the table, no turn, no clock); ``False``
        when the table does not pause or nobody is to be waited for (the caller deals at once)."""
        pause = HandPause(hand_number, 0.0)
        seconds = self.seconds()
        if seconds <= 0 or pause.done(self.game.seats):
            return False
        self.pause = pause
        self.room.stored()  # the pause's ready seats (none yet) are stored with the table
        if self.server.stopping:
            return True  # a restarted server pauses afresh
        self._arm(seconds)
        self._tell()
        return True

    def restored(self, hand_number: int, ready: Iterable[int]) -> None:
        """A restore stopped in a pause between hands: it is back with its ready seats, armed by
        :meth:`resume`."""
        self.pause = HandPause(hand_number, 0.0, set(ready))

    def resume(self, seconds_left: float | None) -> None:
        """After a restore: the pause goes on to its stored end (``None``: a whole pause)."""
        self._arm(self.seconds() if seconds_left is None else seconds_left)

    def end(self) -> bool:
        """The pause is over (the next hand is being dealt); whether there was one."""
        had, self.pause = self.pause is not None, None
        return had

    def ready(self, seat: int) -> None:
        """A seated player is done looking at the hand's result (nothing outside a pause)."""
        pause = self.pause
        if pause is None or seat in pause.ready:
            return
        pause.ready.add(seat)
        self.changed(announce=True)

    def changed(self, *, announce: bool = False) -> None:
        """Who the pause waits for may have changed (a ``ready``, a seat's player came, went or is played
        for): deal if nobody is left to wait for, else store it and tell the table what changed."""
        pause = self.pause
        if pause is None or self.server.stopping or self.room.removed:
            return
        if pause.done(self.game.seats):
            self.game.deal_next()
            return
        if announce or tuple(pause.waiting(self.game.seats)) != pause.told:
            self.room.stored()
            self._tell()

    def info(self) -> dict[str, object] | None:
        """The pause as a snapshot carries it (``None``: no pause)."""
        if self.pause is None:
            return None
        return self.pause.info(self.game.seats, self.server.clock.time())

    def _arm(self, seconds: float) -> None:
        """The one timer ends the pause in ``seconds``; its wall-clock end is stored like a deadline."""
        pause = self.pause
        assert pause is not None
        self.game.turns.cancel()
        if self.server.stopping:
            return
        clock = self.server.clock
        pause.until = clock.time() + seconds
        self.game.turns.later(seconds, self._time_up)
        self.server.table_log.deadline(self.room.table_id, self.game.moves, clock.wall() + seconds)

    def _time_up(self) -> None:
        if self.pause is not None and not self.server.stopping and not self.room.removed:
            self.game.deal_next()

    def _tell(self) -> None:
        assert self.pause is not None
        body = self.pause.body(self.room.table_id, self.game.seats, self.server.clock.time())
        self.room.roster.broadcast(body)
