"""Who comes to a table and who goes: the commands that seat, unseat and let people watch.

:class:`Seating` belongs to its :class:`~boneyard.server.table.Table` and sees it through
:class:`SeatedTable`, its game through the table's :class:`~boneyard.server.cycle.GameCycle`, and
the server through :class:`~boneyard.server.host.TableServer`. Membership itself is written by the
table's :class:`~boneyard.server.seats.Roster` alone; this module decides who may sit and what
follows: ``seated`` and a ``snapshot`` for whoever arrives, a bot for a seat given up mid-game, the
table's removal once nobody is left.
"""

from __future__ import annotations

import hmac
import logging
from typing import Generic, Protocol, TypeVar

from boneyard.protocol import Seated
from boneyard.protocol.values import CommandId
from boneyard.server.cycle import GameCycle
from boneyard.server.errors import CommandError
from boneyard.server.host import TableServer
from boneyard.server.logs import ids
from boneyard.server.rated import RatedTable, check_signed_in
from boneyard.server.seats import Roster, Seat
from boneyard.server.session import Session
from boneyard.server.wire import body_of

log = logging.getLogger("boneyard.table")


class SeatedTable(Protocol):
    """The table as its seating sees it (``boneyard.server.table.Table``)."""

    @property
    def table_id(self) -> str: ...
    @property
    def roster(self) -> Roster: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def owner(self) -> str | None: ...
    @property
    def invite(self) -> str | None: ...
    @property
    def turn_seconds(self) -> int | None: ...
    @property
    def open_bot_seats(self) -> bool: ...

    def seat_player(self, session: Session, seat: int, *, hand_over: bool = False) -> None: ...
    def snapshot_body(self, viewer: int | None, reply_to: CommandId | None = None) -> bytes: ...
    def changed(self) -> None: ...
    def info_stale(self) -> None:
        """The public description changed, but nothing stored did (who watches)."""
        ...

    @property
    def rated(self) -> RatedTable | None: ...

    def removed_if_empty(self) -> bool: ...


T = TypeVar("T", bound=SeatedTable)
"""The table a :class:`Seating` seats (``Table``), as its server knows it."""


class Seating(Generic[T]):
    """The seating commands of one table: ``join``, ``take_seat``, ``spectate``, ``leave``, and a
    dropped session's leaving (``abandon``). It tells the lobby of its table itself (spectator counts,
    the table's removal), through the table's :class:`~boneyard.server.host.TableServer`."""

    __slots__ = ("cycle", "server", "table")

    def __init__(self, server: TableServer[T], table: T, cycle: GameCycle) -> None:
        self.server = server
        self.table = table
        self.cycle = cycle

    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.table.seats):
            raise CommandError("no_such_seat", f"seats are 0..{len(self.table.seats) - 1}")
        return self.table.seats[seat]

    def _seat_for(self, session: Session, seat: int, invite: str | None) -> Seat:
        """The seat ``session`` asks for, if it may sit at this table at all (it may still be taken)."""
        if self.table.rated is not None:
            check_signed_in(session)  # a rated table seats signed-in players only
        holder = self._seat(seat)
        self._check_can_sit(session)
        self._check_invited(session, invite)
        return holder

    def _check_can_sit(self, session: Session) -> None:
        if self.table.roster.seat_of(session) is not None:
            raise CommandError("already_seated", "you already hold a seat at this table")
        if self.server.stopping:
            raise CommandError("unavailable", "the server is shutting down")

    def _check_invited(self, session: Session, invite: str | None) -> None:
        if self.table.invite is None or session.player_id == self.table.owner:
            return
        if invite is None or not hmac.compare_digest(invite, self.table.invite):
            raise CommandError("not_invited", "this table is private: sit with its invite code")

    def _check_admitted(self, session: Session) -> None:
        # A bot's seat at an untimed table: a stranger in it could hold the creator's game up, so only
        # those the creator admits (the invite code of a private table, or bot seats opened to all).
        table = self.table
        opened = table.turn_seconds is not None or table.invite is not None or table.open_bot_seats
        if not opened and session.player_id != table.owner:
            raise CommandError("not_invited", "the bots' seats of this untimed table are its creator's")

    def join(
        self, session: Session, seat: int, reply_to: CommandId | None, invite: str | None = None
    ) -> None:
        """Sit in an empty seat: ``seated``, ``snapshot``; the game starts once every seat is held."""
        holder = self._seat_for(session, seat, invite)
        if holder.held:
            raise CommandError("seat_taken", f"seat {seat} is taken")
        self.table.seat_player(session, seat)
        self._seated(session, seat, reply_to)
        if not self.cycle.maybe_start():
            self.table.changed()

    def take_seat(
        self, session: Session, seat: int, reply_to: CommandId | None, invite: str | None = None
    ) -> None:
        """Take a bot's seat; mid-game the bot plays on until the hand ends."""
        holder = self._seat_for(session, seat, invite)
        if holder.session is not None:
            raise CommandError("seat_taken", f"seat {seat} is taken")
        if not holder.bot:
            raise CommandError("not_a_bot", f"no bot holds seat {seat}")
        self._check_admitted(session)
        # Between hands there is no hand for the bot to finish: the seat is the player's at once.
        mid_hand = self.cycle.status == "playing" and not self.cycle.between_hands
        self.table.seat_player(session, seat, hand_over=mid_hand)
        self._seated(session, seat, reply_to)
        self.table.changed()
        self.cycle.pause_changed()

    def _seated(self, session: Session, seat: int, reply_to: CommandId | None) -> None:
        self.server.at_table(session)
        token = self.server.token_for(session)
        seated = Seated(
            type="seated", seq=1, reply_to=reply_to, table_id=self.table.table_id, seat=seat, token=token
        )
        session.deliver(body_of(seated))
        session.deliver(self.table.snapshot_body(seat))
        self.cycle.deal_messages(session)
        log.info("seated", extra=ids(table_id=self.table.table_id, seat=seat, player_id=session.player_id))

    def spectate(self, session: Session, reply_to: CommandId | None) -> None:
        """Watch: a ``snapshot`` without hidden tiles, then the table's messages."""
        if self.table.roster.seat_of(session) is not None:
            raise CommandError("already_seated", "you hold a seat at this table")
        limit = self.server.settings.max_spectators
        if session not in self.table.roster.spectators and len(self.table.roster.spectators) >= limit:
            raise CommandError("unavailable", f"this table has its {limit} spectators (max_spectators)")
        fresh = self.table.roster.watch(session)
        self.server.at_table(session)
        self.table.info_stale()
        session.deliver(self.table.snapshot_body(None, reply_to))
        if fresh:
            self.cycle.deal_messages(session)
            self.server.spectators_changed(self.table)

    def leave(self, session: Session) -> None:
        """Stop watching, or give up a seat: during a game a bot takes it over."""
        if not self.table.roster.is_member(session):
            raise CommandError("not_seated", "you are not at this table")
        playing = self.cycle.status == "playing"
        seat = self.table.roster.leave(session, bot_level=self._replacement(playing))
        self.server.left_table(session)
        self._parted(seat, playing)
        if seat is not None:
            log.info("left", extra=ids(table_id=self.table.table_id, seat=seat, player_id=session.player_id))

    def abandon(self, session: Session) -> None:
        """A dropped session leaves: it stops watching, and (once expired) gives up its seat."""
        if self.table.roster.is_member(session):
            playing = self.cycle.status == "playing"
            self._parted(self.table.roster.leave(session, bot_level=self._replacement(playing)), playing)

    def _replacement(self, playing: bool) -> str | None:
        """The level of the bot that takes over a seat given up mid-game (the server's away level, like
        the bot that plays for an away player), or ``None`` when the seat just empties."""
        return self.server.settings.away_bot_level if playing else None

    def _parted(self, seat: int | None, playing: bool) -> None:
        """Someone left: a spectator, or the player of ``seat`` (a bot holds it now if ``playing``)."""
        if seat is None:
            self.table.info_stale()
            if not self.table.removed_if_empty():
                self.server.spectators_changed(self.table)  # counts are pushed coalesced
            return
        if not playing:
            self.cycle.rematch.discard(seat)
        self.table.changed()
        if playing and self.table.roster.empty():
            self.server.remove_table(self.table)  # the last human left: the game is abandoned
        elif playing:
            self.cycle.restart_turn(self.table.seats[seat])
            self.cycle.pause_changed()
        elif not self.table.removed_if_empty():
            self.cycle.check_rematch()
