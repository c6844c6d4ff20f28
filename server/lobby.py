"""The lobby: every table and session on the server, and the server its tables run in.

The :class:`Lobby` creates and removes tables (within the quotas), numbers tables and players, and is
the tables' :class:`~boneyard.server.host.TableServer`. Who is connected, in the lobby or dropped
(grace, away, expiry) is its :class:`~boneyard.server.presence.Presence`; the lobby's messages
about tables (batched pushes, ``table_updated``, ``table_list``) are :mod:`~boneyard.server.pushes`.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial

from boneyard.protocol import CreateTable, TableCreated
from boneyard.protocol.values import CommandId
from boneyard.server.botrunner import BotRunner
from boneyard.server.errors import CommandError
from boneyard.server.games.registry import GAMES, GameOptions, GameSpec
from boneyard.server.host import Clock
from boneyard.server.logs import ids
from boneyard.server.matchmaking import Matchmaker, game_of
from boneyard.server.metrics import Metrics
from boneyard.server.moderation import Reports
from boneyard.server.presence import Presence
from boneyard.server.pushes import LobbyPushes, removed_body, table_list_body
from boneyard.server.quota import TableQuota
from boneyard.server.rated import RatedTable, check_signed_in
from boneyard.server.ratings.book import RatingBook
from boneyard.server.ratings.kinds import Kind, kind_of
from boneyard.server.record_bodies import RecordBodies
from boneyard.server.record_store import RecordStore
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.spectators import SpectatorChat
from boneyard.server.storage.logged import NO_LOG, TableLog
from boneyard.server.storage.stored import StoredSession, id_number
from boneyard.server.table import Table
from boneyard.server.wire import body_of

log = logging.getLogger("boneyard.lobby")

DEFAULT_TURN_SECONDS = 30
"""A matched table's turn time on a server whose default is untimed."""


class Lobby:
    """Tables by id, sessions by token, and the sessions in the lobby: the tables'
    :class:`~boneyard.server.host.TableServer`."""

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        records: RecordStore,
        clock: Clock,
        table_log: TableLog = NO_LOG,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.records = records
        self.clock = clock
        self.bots: BotRunner | None = None
        """Where searching bots think, off the loop (set by the server; ``None``: inline)."""
        self.tables: dict[str, Table] = {}
        self.ratings = RatingBook()
        """Feature ``ratings``: every rating (in memory unless the server sets a stored book)."""
        self.presence = Presence(settings, clock, table_log)
        self.matchmaker = Matchmaker(self, clock, lambda: self.ratings)
        self.reports = Reports()
        """Feature ``moderation``: players' reports to the operator."""
        """Feature ``seeks``: the seekers' pools, and the tables made for them."""
        """Sessions by token, those in the lobby, dropped sessions' grace, away and expiry."""
        self.by_token = self.presence.by_token
        self.stopping = False
        self._table_ids = itertools.count(1)
        self._player_ids = itertools.count(1)
        self._run = run_tag()
        """This run's tag in every table and player id: a restarted server numbers from 1 again, and
        a client holding an old id must not land on a different table (issue #15, item 8)."""
        self.spectator_chat = SpectatorChat(settings.spectator_chat_per_minute)
        self.pushes = LobbyPushes(clock, settings.lobby_push_seconds, self.tables, self.presence.idle)
        """Table changes to the lobby (batched) and to the tables' members."""
        self.record_bodies = RecordBodies(records.get, on_encode=metrics.records_encoded.inc)
        """``get_record`` replies, each record encoded once."""
        self.quota = TableQuota(
            per_session=settings.tables_per_session,
            per_address=settings.tables_per_address,
            bots_per_session=settings.bot_tables_per_session,
            bots_max=settings.max_bot_tables,
        )

    @property
    def table_log(self) -> TableLog:
        """Where tables, seats, tokens and actions are written ahead (``boneyard.server.storage``)."""
        return self.presence.table_log

    @table_log.setter
    def table_log(self, table_log: TableLog) -> None:
        self.presence.table_log = table_log

    # -- sessions -------------------------------------------------------------------------------------

    def new_session(self, name: str) -> Session:
        return Session(f"p{next(self._player_ids)}-{self._run}", name, self.settings.resume_buffer_frames)

    def restore_session(self, stored: StoredSession) -> Session:
        return self.presence.restore_session(stored)

    def token_for(self, session: Session) -> str:
        return self.presence.token_for(session)

    def session_dropped(self, session: Session) -> None:
        self.presence.session_dropped(session)

    def enter_lobby(self, session: Session) -> None:
        was_there = session in self.presence.idle
        self.presence.enter_lobby(session)
        if not was_there and session in self.presence.idle and self.matchmaker.seekers:
            # Pushes say only what changes: one who comes in while others seek hears the counts now.
            session.deliver(self.matchmaker.counts_body())

    def at_table(self, session: Session) -> None:
        self.presence.at_table(session)

    def left_table(self, session: Session) -> None:
        self.enter_lobby(session)

    # -- tables ---------------------------------------------------------------------------------------

    def new_record_id(self) -> str:
        return "r" + secrets.token_urlsafe(12)

    def continue_ids(self, table_ids: Sequence[str], player_ids: Sequence[str]) -> None:
        """After a restore: new table and player ids start past the restored ones (of this run's tag;
        other runs' ids cannot collide with this one's anyway)."""
        mine = f"-{self._run}"
        tables = (id_number(i) for i in table_ids if i.endswith(mine))
        players = (id_number(i) for i in player_ids if i.endswith(mine))
        self._table_ids = itertools.count(1 + max(tables, default=0))
        self._player_ids = itertools.count(1 + max(players, default=0))

    def create_table(
        self,
        session: Session,
        command: CreateTable,
        reply_to: CommandId | None,
        address: str = "",
    ) -> Table:
        """``create_table``: the table, its bots, and the creator's seat if asked (``address``: the
        creator's, for the per-address quota)."""
        settings = self.settings
        self._check_room()
        spec = GAMES[command.game]
        bots_only = command.seat is None and len(command.bots) == command.players
        self.quota.check(session.player_id, address, bots_only=bots_only)
        options = command.options  # the game's own model, checked as the command was read
        turn_seconds = command.turn_seconds
        if "turn_seconds" not in command.model_fields_set:
            turn_seconds = settings.turn_seconds
        if turn_seconds is None and not settings.allow_untimed_tables:
            raise CommandError("invalid_options", "this server requires a turn timer")
        rated = kind_of(spec.name, options.as_dict()) if command.rated else None
        if rated is not None:
            check_signed_in(session)
            if turn_seconds is None:
                raise CommandError("invalid_options", "a rated table has a turn timer")
            if bots_only:  # its games would rate a bot level against itself
                raise CommandError("invalid_options", "a rated table seats a player: bots only play unrated")
        invite = secrets.token_urlsafe(18) if command.private else None
        table = self.open_table(
            spec,
            options,
            turn_seconds,
            command.bots,
            bot_levels=command.bot_levels,
            bot_delay_ms=command.bot_delay_ms,
            hand_pause_ms=command.hand_pause_ms,
            owner=session.player_id,
            invite=invite,
            open_bot_seats=command.open_bot_seats,
            rated=rated,
        )
        self.quota.add(table.table_id, session.player_id, address, bots_only=bots_only)
        reply = TableCreated(
            type="table_created", seq=1, reply_to=reply_to, table=table.info(), invite=table.invite
        )
        session.deliver(body_of(reply))
        log.info("table created", extra=ids(table_id=table.table_id, player_id=session.player_id))
        if command.seat is not None:
            table.seating.join(session, command.seat, None)
        elif not table.cycle.maybe_start():
            self.remove_if_left_empty(table)
        return table

    @property
    def idle(self) -> set[Session]:
        """The sessions in the lobby (at no table, connected)."""
        return self.presence.idle

    def seat_group(self, kind: Kind, rated: bool, players: list[Session], bots: int, level: str) -> None:
        """A table of ``kind`` for a group the matchmaker formed: the players in the first seats, bots of
        ``level`` in the rest; on the server's turn timer (a rated game needs one)."""
        self._check_room()
        game, options = game_of(kind)
        spec = GAMES[game]
        bot_seats = list(range(len(players), len(players) + bots))
        table = self.open_table(
            spec,
            spec.options_from_dict(options),
            self.settings.turn_seconds or DEFAULT_TURN_SECONDS,
            bot_seats,
            bot_levels=[level] * bots,
            rated=kind if rated else None,
        )
        log.info("seekers seated", extra=ids(table_id=table.table_id))
        for seat, session in enumerate(players):
            table.seating.join(session, seat, None)

    def _check_room(self) -> None:
        """A new table may open (``unavailable`` if not): the server is not stopping, nor full."""
        if self.stopping:
            raise CommandError("unavailable", "the server is shutting down")
        if len(self.tables) >= self.settings.max_tables:
            raise CommandError("unavailable", f"the server is full ({self.settings.max_tables} tables)")

    def remove_if_left_empty(self, table: Table) -> None:
        """In ``empty_table_seconds``, remove the table if nobody sits at it or watches it by then."""
        remove = partial(self._remove_if_empty, table.table_id)
        self.clock.call_later(self.settings.empty_table_seconds, remove)

    def _remove_if_empty(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and not self.stopping and table.removed_if_empty():
            log.info("empty table removed", extra=ids(table_id=table_id))

    def open_table(
        self,
        spec: GameSpec,
        options: GameOptions,
        turn_seconds: int | None,
        bots: Sequence[int] = (),
        table_id: str | None = None,
        bot_delay_ms: int | None = None,
        owner: str | None = None,
        invite: str | None = None,
        bot_levels: Sequence[str] = (),
        hand_pause_ms: int | None = None,
        open_bot_seats: bool = False,
        rated: Kind | None = None,
    ) -> Table:
        """A new table in the lobby, written down; ``table_id``: a restored table, already stored (it is
        noted once it is whole, by :meth:`Table.restored`)."""
        restoring = table_id is not None
        table_id = table_id or f"t{next(self._table_ids)}-{self._run}"
        table = Table(self, table_id, spec, options, turn_seconds, bots, bot_levels)
        table.bot_delay_ms, table.owner, table.invite = bot_delay_ms, owner, invite
        table.hand_pause_ms, table.open_bot_seats = hand_pause_ms, open_bot_seats
        table.rated = None if rated is None else RatedTable(self.ratings, rated)
        self.tables[table.table_id] = table
        if not restoring:
            self.table_log.table(table)
        self.pushes.note(table.table_id, "updated")
        return table

    def table_changed(self, table: Table) -> None:
        """Push ``table_updated`` to everyone at the table now, and to the lobby soon."""
        self.pushes.table_changed(table)

    def spectators_changed(self, table: Table) -> None:
        self.pushes.spectators_changed(table)

    def table_list_body(self, reply_to: CommandId | None) -> bytes:
        remote = self.pushes.remote
        if remote is None:
            return table_list_body(self.tables.values(), reply_to)
        return table_list_body([*self.tables.values(), *remote.listed()], reply_to)

    def remove_table(self, table: Table) -> None:
        if self.tables.pop(table.table_id, None) is None:
            return
        self.quota.removed(table.table_id)
        self.spectator_chat.forget(table.table_id)
        members = table.clear()
        self.table_log.table_removed(table.table_id)
        body = removed_body(table.table_id)
        self.pushes.note(table.table_id, "removed")
        for session in members:
            session.deliver(body)
            self.enter_lobby(session)
        log.info("table removed", extra=ids(table_id=table.table_id))

    def table_counts(self) -> Iterable[tuple[str, str, int]]:
        counts = Counter((t.spec.name, t.status) for t in self.tables.values())
        for game in GAMES:
            for status in ("waiting", "playing", "finished"):
                yield game, status, counts.get((game, status), 0)

    def stop(self) -> None:
        """No new tables or seats; every table's timer stops (no bot moves during shutdown)."""
        self.stopping = True
        for table in self.tables.values():
            table.cycle.stop()
        if self.bots is not None:
            self.bots.close()


def run_tag() -> str:
    """A random tag for one run of the server: 8 characters of ``a-z0-9`` (41 bits).

    >>> tag = run_tag(); len(tag), tag.isalnum(), tag == tag.lower()
    (8, True, True)
    """
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))
