"""The table tier's ports: what a table and its match need from wherever they run.

The table tier (:mod:`~boneyard.server.table`, :mod:`~boneyard.server.match`, seats and sessions) is
sans-I/O: it reads no clock, arms no timer and writes no socket by itself. It is handed a
:class:`Clock` (time and timers: the event loop's in a server, a manual one in unit tests) and a
:class:`TableServer` (the table log, the record store, the lobby's notifications); frames reach
players through their :class:`~boneyard.server.session.Session`, whose live connection is a
:class:`~boneyard.server.session.Peer`.

>>> clock = ManualClock()
>>> fired = []
>>> _ = clock.call_later(2.0, lambda: fired.append(clock.time()))
>>> clock.advance(1.0); fired
[]
>>> clock.advance(1.5); fired
[2.0]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from boneyard.server.ratings.book import RatingBook
from boneyard.server.record_store import RecordStore
from boneyard.server.seats import Roster, Seat
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.spectators import SpectatorChat
from boneyard.server.storage.logged import TableLog

T = TypeVar("T", contravariant=True)
"""The table type a :class:`TableServer` serves (``Table``: this module is below it, imports it not)."""


class Cancellable(Protocol):
    """A timer handle."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Time and timers for the table tier."""

    def time(self) -> float:
        """Monotonic seconds (the event loop's time): what deadlines are measured in."""
        ...

    def wall(self) -> float:
        """Wall-clock seconds (``time.time()``): what is stored, to outlive a restart."""
        ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable: ...

    def call_soon(self, callback: Callable[[], object]) -> Cancellable: ...


class LoopClock:
    """The event loop as a :class:`Clock`."""

    __slots__ = ("_loop",)

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def time(self) -> float:
        return self._loop.time()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable:
        return self._loop.call_later(delay, callback)

    def call_soon(self, callback: Callable[[], object]) -> Cancellable:
        return self._loop.call_soon(callback)


class _ManualTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A :class:`Clock` that moves only when told to (``advance``, ``run_soon``): for unit tests and
    simulations. ``wall`` is ``time`` plus a fixed offset."""

    def __init__(self, start: float = 0.0, wall_offset: float = 1_800_000_000.0) -> None:
        self.now = start
        self.wall_offset = wall_offset
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now + self.wall_offset

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable:
        timer = _ManualTimer(self.now + max(0.0, delay), callback)
        heapq.heappush(self._timers, (timer.when, next(self._order), timer))
        return timer

    def call_soon(self, callback: Callable[[], object]) -> Cancellable:
        return self.call_later(0.0, callback)

    def pending(self) -> list[float]:
        """When the timers still armed will fire."""
        return sorted(t.when for _, _, t in self._timers if not t.cancelled)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, firing every timer due by then, in order."""
        until = self.now + seconds
        while self._timers and self._timers[0][0] <= until:
            when, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.now = max(self.now, when)
            timer.callback()
        self.now = until

    def run_soon(self) -> None:
        """Fire what is due now (``call_soon`` callbacks and anything they schedule for now)."""
        self.advance(0.0)


class ActionCounter(Protocol):
    """What tables count (``boneyard.server.metrics.Metrics``)."""

    def action(self, kind: str) -> None:
        """Count an accepted action: ``player``, ``bot`` or ``auto``."""
        ...

    def game_finished(self, game: str) -> None:
        """Count a game played to its end."""
        ...

    def turn_timed_out(self) -> None:
        """Count a turn whose time ran out."""
        ...


class BotThinker(Protocol):
    """Where searching bots think off the event loop (``boneyard.server.botrunner.BotRunner``)."""

    def choose(
        self,
        game: str,
        level: str,
        view: object,
        seed: bytes,
        done: Callable[[EngineAction], None],
        *,
        human: bool,
    ) -> Cancellable:
        """``done(action)`` later, on the loop, unless cancelled first."""
        ...


class Services(Protocol):
    """What a table and its parts need from the server they run in (the lobby implements it)."""

    @property
    def bots(self) -> BotThinker | None:
        """Where searching bots think; ``None``: every bot moves inline, on the loop."""
        ...

    @property
    def settings(self) -> Settings: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def table_log(self) -> TableLog:
        """Where the table's durable changes are written ahead."""
        ...

    @property
    def records(self) -> RecordStore: ...

    @property
    def metrics(self) -> ActionCounter: ...

    @property
    def stopping(self) -> bool:
        """The server is shutting down: no new seats, no moves."""
        ...

    def new_record_id(self) -> str: ...

    @property
    def ratings(self) -> RatingBook:
        """Feature ``ratings``: where rated tables' games are rated."""
        ...

    def token_for(self, session: Session) -> str:
        """The session's resume token (made when it first sits down)."""
        ...

    @property
    def spectator_chat(self) -> SpectatorChat:
        """The chat lines a table's spectators may send in all (one bucket per table)."""
        ...

    def at_table(self, session: Session) -> None:
        """The session sat down or started watching: it is no longer in the lobby."""
        ...

    def left_table(self, session: Session) -> None:
        """The session left a table: back in the lobby if it is at no other."""
        ...


class TableServer(Services, Protocol[T]):
    """The server as a table sees it: its :class:`Services`, and the lobby's notifications about the
    table itself (the lobby implements it)."""

    def table_changed(self, table: T) -> None:
        """The table's public description changed: ``table_updated`` to its members, the lobby soon."""
        ...

    def remove_table(self, table: T) -> None:
        """Nobody is left at the table: remove it (``table_removed``)."""
        ...

    def spectators_changed(self, table: T) -> None:
        """A spectator came or went: the new count goes out soon, coalesced."""
        ...


class EngineAction(Protocol):
    """An engine's action as the table tier passes it on (to the engine, the table log, the record)."""

    def as_dict(self) -> dict[str, object]: ...


class Room(Protocol):
    """The table as its match sees it (``boneyard.server.table.Table``)."""

    record_id: str | None
    """The record id of the last game finished at the table (public: it is in the table's description)."""

    @property
    def table_id(self) -> str: ...
    @property
    def turn_seconds(self) -> int | None: ...
    @property
    def bot_delay_ms(self) -> int | None:
        """The creator's pause before each bot move; ``None``: the server's ``bot_delay_seconds``, and no
        pause at all while only bots sit at the table."""
        ...

    @property
    def hand_pause_ms(self) -> int | None:
        """The creator's pause between hands; ``None``: the server's ``hand_pause_seconds`` where a human
        sits, none at a table of bots only."""
        ...

    @property
    def roster(self) -> Roster: ...

    def changed(self) -> None:
        """The table's public description changed (``table_updated``; written down)."""
        ...

    def stored(self) -> None:
        """Something durable but not public changed (a seat's timeouts): write the table down."""
        ...

    def seat_status(self, seat: Seat) -> None:
        """A seat's connection or auto-play changed: ``seat_status`` to everyone, then ``changed``."""
        ...

    def turn_limit(self, seat: Seat) -> int | None:
        """Seconds ``seat`` has for a turn (``None``: no timer)."""
        ...

    def game_over(self, winner: int, scores: Sequence[int]) -> None:
        """The game is over (its record is stored and ``game_over`` sent): its winner and final scores,
        per seat or per partnership, as the ``game_over`` event says."""
        ...

    @property
    def removed(self) -> bool:
        """The table was removed (a game still waiting for seeds is never dealt)."""
        ...

    def snapshot_body(self, viewer: int | None) -> bytes:
        """A ``snapshot`` of the table as ``viewer`` may see it."""
        ...
