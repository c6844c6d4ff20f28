"""Matchmaking (feature ``seeks``): seekers grouped by kind of game and rating, their tables made.

Every seeker waits in the pool of its kind (rated and unrated apart). Its rating window (the rating
points either side of its own rating it accepts) starts at ``SEEK_WINDOW`` and widens by
``SEEK_WIDENING`` a second, as chess servers' pools do; a group forms when every member's window holds
the whole group's spread. A seeker who asked for bots gets them once its time is up: the table is made
with whoever in its pool its window holds, and bots of its level in the other seats. The pools are looked
at again on each seek and every ``TICK_SECONDS`` while anyone waits.

>>> a, b, c = (Seeker(None, "moon", False, r, 0.0, None, "basic") for r in (1500, 1600, 1900))  # type: ignore
>>> groups([a, b, c], 2, now=0.0) == [[a, b]], groups([a, c], 2, now=7.0)  # 400 apart: windows of 100, 275
(True, [])
>>> groups([a, c], 2, now=12.0) == [[a, c]]  # windows of 400 after 12 s
True
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from boneyard.protocol.seeks import SEEK_WIDENING, SEEK_WINDOW, Seek, SeekCount, Seeks
from boneyard.server.errors import CommandError
from boneyard.server.host import Cancellable, Clock
from boneyard.server.rated import check_signed_in
from boneyard.server.ratings.book import RatingBook
from boneyard.server.ratings.kinds import Kind, game_of, players_of
from boneyard.server.session import Session
from boneyard.server.wire import body_of, error_body

log = logging.getLogger("boneyard.lobby")

TICK_SECONDS = 0.5

__all__ = ["Matchmaker", "Seeker", "game_of", "groups"]
"""``game_of`` (the game and options of a kind, declared by the game) is the lobby's, from here."""


@dataclass(slots=True)
class Seeker:
    session: Session
    kind: Kind
    rated: bool
    rating: int
    since: float
    bots_after: float | None
    bot_level: str

    def window(self, now: float) -> float:
        return SEEK_WINDOW + SEEK_WIDENING * (now - self.since)

    def due(self, now: float) -> bool:
        """It asked for bots, and its time is up."""
        return self.bots_after is not None and now - self.since >= self.bots_after

    def holds(self, group: list[Seeker], now: float) -> bool:
        return max(s.rating for s in group) - min(s.rating for s in group) <= self.window(now)


def groups(seekers: Iterable[Seeker], size: int, now: float) -> list[list[Seeker]]:
    """Groups of ``size`` seekers of close rating, each member's window holding the group: neighbours
    by rating, taken greedily from the lowest."""
    ordered = sorted(seekers, key=lambda s: (s.rating, s.since))
    found: list[list[Seeker]] = []
    i = 0
    while i + size <= len(ordered):
        group = ordered[i : i + size]
        if all(member.holds(group, now) for member in group):
            found.append(group)
            i += size
        else:
            i += 1
    return found


class Tables(Protocol):
    """What the matchmaker asks of the lobby: a table for a group, and the sessions in the lobby."""

    def seat_group(self, kind: Kind, rated: bool, players: list[Session], bots: int, level: str) -> None: ...

    @property
    def idle(self) -> set[Session]: ...

    @property
    def stopping(self) -> bool: ...


class Matchmaker:
    """The pools of seekers, their matching, and what the lobby hears of them."""

    __slots__ = ("_tick", "clock", "ratings", "seekers", "tables")

    def __init__(self, tables: Tables, clock: Clock, ratings: Callable[[], RatingBook]) -> None:
        self.tables = tables
        self.clock = clock
        self.ratings = ratings
        self.seekers: dict[Session, Seeker] = {}
        self._tick: Cancellable | None = None

    def seek(self, session: Session, command: Seek) -> None:
        if command.rated:
            check_signed_in(session)
        if session.seats():
            raise CommandError("already_seated", "leave your seats first: a seek ends at a new table")
        player = session.account or session.player_id
        rating = self.ratings().get(player, command.kind).shown if session.account else 1500
        after = None if command.bots_after_ms is None else command.bots_after_ms / 1000
        now = self.clock.time()
        self.seekers[session] = Seeker(
            session, command.kind, command.rated, rating, now, after, command.bot_level
        )
        self._counts_changed()
        self.clock.call_soon(self.match)  # after the seek's ok

    def cancel(self, session: Session) -> None:
        if self.seekers.pop(session, None) is not None:
            self._counts_changed()

    def signed_out(self, session: Session, why: str) -> None:
        """``session`` is signed in no more (its account renamed on a cluster): a rated seek ends, told
        ``why`` (left in the pool, it would be seated as a guest a rated table refuses, with its group)."""
        seeker = self.seekers.get(session)
        if seeker is not None and seeker.rated:
            self.cancel(session)
            session.deliver(error_body("not_signed_in", why))

    def match(self) -> None:
        """Form every group that can be formed now, and fill with bots whoever's time is up."""
        if self.tables.stopping:
            return  # no new tables while the server stops: the seekers' connections close
        now = self.clock.time()
        made = False
        pools = itertools.groupby(sorted(self.seekers.values(), key=_pool), key=_pool)
        for (kind, _), pool in pools:
            waiting = list(pool)
            size = players_of(kind)
            for group in groups(waiting, size, now):
                self._seat(group, size, group[0].bot_level)
                waiting = [s for s in waiting if s not in group]
                made = True
            for seeker in sorted(waiting, key=lambda s: s.since):
                if seeker in waiting and seeker.due(now):
                    group = _with_bots(seeker, waiting, size, now)
                    self._seat(group, size, seeker.bot_level)
                    waiting = [s for s in waiting if s not in group]
                    made = True
        if made:
            self._counts_changed()
        if self._tick is not None:
            self._tick.cancel()
        self._tick = self.clock.call_later(TICK_SECONDS, self.match) if self.seekers else None

    def _seat(self, group: list[Seeker], size: int, level: str) -> None:
        for seeker in group:
            del self.seekers[seeker.session]
        first = group[0]
        try:
            self.tables.seat_group(
                first.kind, first.rated, [s.session for s in group], size - len(group), level
            )
        except CommandError as refused:  # a seat refused (the server filling up): they may seek again
            log.warning("seekers not seated: %s", refused.message)
            said = error_body(refused.code, f"{refused.message}: your seek ended, seek again later")
            for seeker in group:  # told, not left waiting for a seat that will not come
                seeker.session.deliver(said)

    def counts_body(self) -> bytes:
        counts: dict[tuple[Kind, bool], int] = {}
        for seeker in self.seekers.values():
            counts[_pool(seeker)] = counts.get(_pool(seeker), 0) + 1
        seeking = tuple(
            SeekCount(kind=kind, rated=rated, players=n) for (kind, rated), n in sorted(counts.items())
        )
        return body_of(Seeks(type="seeks", seq=1, seeking=seeking))

    def _counts_changed(self) -> None:
        body = self.counts_body()
        for session in self.tables.idle:
            session.deliver(body)


def _with_bots(seeker: Seeker, waiting: list[Seeker], size: int, now: float) -> list[Seeker]:
    """``seeker`` (its time for bots up) and whoever nearest in its pool every window holds, up to
    ``size``: the rest of the seats go to bots."""
    group = [seeker]
    for other in sorted((s for s in waiting if s is not seeker), key=lambda s: abs(s.rating - seeker.rating)):
        if len(group) < size and all(member.holds([*group, other], now) for member in (*group, other)):
            group.append(other)
    return group


def _pool(seeker: Seeker) -> tuple[Kind, bool]:
    return seeker.kind, seeker.rated
