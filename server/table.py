"""One table: its members, its game, and the commands that address it.

A table owns its :class:`~boneyard.server.seats.Roster` (who sits and watches: the one writer of
membership), its :class:`~boneyard.server.seating.Seating` (the commands that seat and unseat
people), its :class:`~boneyard.server.cycle.GameCycle` (its status, and once every seat is held its
current :class:`~boneyard.server.match.Match`: one game) and its
:class:`~boneyard.server.tablechat.TableChat`. It reaches the server only through its
:class:`~boneyard.server.host.TableServer`. A waiting table starts when every seat is held (by a
player or a bot); a finished one starts again when every seated human has asked for a rematch; a
table with nobody left is removed.

Restoring a table after a restart goes through the same methods as building one live:
``seat_player``/``seat_bot`` seat people, :meth:`Table.restore_game` deals the stored game again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence

import msgpack
from pydantic import TypeAdapter

from boneyard.protocol import Action, Snapshot, TableInfo
from boneyard.protocol.values import CommandId
from boneyard.server.cycle import GameCycle
from boneyard.server.errors import CommandError
from boneyard.server.fanout import Regenerated
from boneyard.server.games.base import Engine
from boneyard.server.games.registry import GameOptions, GameSpec
from boneyard.server.host import EngineAction, TableServer
from boneyard.server.match import NOT_STARTED, Match
from boneyard.server.moderation import muted_key
from boneyard.server.rated import RatedTable
from boneyard.server.ratings.kinds import Kind, as_kind
from boneyard.server.seating import Seating
from boneyard.server.seats import Listener, Roster, Seat
from boneyard.server.session import Session
from boneyard.server.storage.stored import StoredTable
from boneyard.server.tablechat import TableChat
from boneyard.server.wire import body_of, body_of_dict

log = logging.getLogger("boneyard.table")

_TABLE_INFO: TypeAdapter[TableInfo] = TypeAdapter(TableInfo)


class Table:
    """A table: its seats, spectators and game, and the commands that address it."""

    __slots__ = (
        "_info_packed",
        "bot_delay_ms",
        "chat_log",
        "cycle",
        "hand_pause_ms",
        "invite",
        "open_bot_seats",
        "options",
        "options_dict",
        "owner",
        "rated",
        "record_id",
        "removed",
        "roster",
        "seating",
        "server",
        "spec",
        "table_id",
        "turn_seconds",
    )

    def __init__(
        self,
        server: TableServer[Table],
        table_id: str,
        spec: GameSpec,
        options: GameOptions,
        turn_seconds: int | None,
        bots: Sequence[int] = (),
        levels: Sequence[str] = (),
    ) -> None:
        self.server = server
        self.table_id = table_id
        self.spec = spec
        self.options = options
        self.options_dict: dict[str, object] = options.as_dict()
        self.turn_seconds = turn_seconds
        self.roster = Roster(self, spec.players_of(options))
        for i, seat in enumerate(bots):
            self.roster.seat_bot(seat, levels[i] if levels else None)
        self.cycle = GameCycle(server, self, spec, options)
        """The table's games: its status, the current match, rematches."""
        self.seating = Seating(server, self, self.cycle)
        """Who comes and goes: the seating commands."""
        self.bot_delay_ms: int | None = None
        """The creator's pause before each bot move; ``None``: the server's (none while only bots sit)."""
        self.hand_pause_ms: int | None = None
        """The creator's pause between hands; ``None``: the server's (none at a table of bots only)."""
        self.record_id: str | None = None
        """The record id of the last game finished here (public, in the table's description)."""
        self.rated: RatedTable | None = None
        """Feature ``ratings``: the table's games are rated (``None``: not a rated table)."""
        self.chat_log = TableChat(server, table_id)
        self.owner: str | None = None
        """The player id of whoever created the table (``None``: from before owners were stored)."""
        self.invite: str | None = None
        """A private table's invite code: seats are taken with it only (``None``: an open table)."""
        self.open_bot_seats = False
        """Anyone may take a bot's seat at this untimed table (else only those the creator admits)."""
        self.removed = False
        self._info_packed: bytes | None = None

    # -- what others read ----------------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def seats(self) -> list[Seat]:
        return self.roster.seats

    @property
    def spectators(self) -> set[Session]:
        return self.roster.spectators

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``finished``."""
        return self.cycle.status

    @property
    def games(self) -> int:
        """Games started at this table (rematches included)."""
        return self.cycle.games

    @property
    def match(self) -> Match | None:
        """The current (or, once finished, the last) game; ``None`` while waiting."""
        return self.cycle.match

    @property
    def rematch(self) -> set[int]:
        return self.cycle.rematch

    @property
    def seed(self) -> str | None:
        """The current game's server seed (secret until the game is over)."""
        return self.match.seed if self.match is not None else None

    @property
    def engine(self) -> Engine | None:
        """The current game's engine, once dealt."""
        return self.match.engine if self.match is not None else None

    @property
    def moves(self) -> int:
        """Actions accepted in the current game."""
        return self.match.moves if self.match is not None else 0

    def listeners(self) -> list[Listener]:
        return self.roster.listeners()

    @property
    def hand_ready(self) -> list[int] | None:
        """The seats ready in a pause between hands, as stored; ``None``: no pause."""
        pause = self.match.pause if self.match is not None else None
        return None if pause is None else sorted(pause.ready)

    def info(self) -> TableInfo:
        """The table's ``TableInfo`` model, validated."""
        return _TABLE_INFO.validate_python(
            {
                "table_id": self.table_id,
                "game": self.spec.name,
                "options": self.options_dict,
                "seats": [seat.info() for seat in self.seats],
                "status": self.status,
                "turn_seconds": self.turn_seconds,
                "spectators": len(self.spectators),
                "rematch": sorted(self.rematch),
                "private": self.invite is not None,
                "bot_delay_ms": self.bot_delay_ms,
                "record_id": self.record_id,
                "hand_pause_ms": self.hand_pause_ms,
                "open_bot_seats": self.open_bot_seats,
                "rated": self.rated is not None,
            }
        )

    def info_packed(self) -> bytes:
        """The ``TableInfo`` as msgpack (cached until the next change): pushes and ``table_list`` are
        assembled from it. Only these bytes are kept, not the model: a model is many objects per table."""
        if self._info_packed is None:
            self._info_packed = msgpack.packb(self.info().model_dump())
        return self._info_packed

    def resync(self, session: Session, viewer: int | None) -> None:
        """Send ``session`` the table afresh: a snapshot, then the game's commitment and seeds so far."""
        session.deliver(self.snapshot_body(viewer))
        self.cycle.deal_messages(session)

    def snapshot_body(self, viewer: int | None, reply_to: CommandId | None = None) -> bytes:
        """A ``snapshot`` of this table as ``viewer`` (a seat, or ``None``) may see it."""
        game = self.match.shown(viewer) if self.match is not None else NOT_STARTED
        snapshot = Snapshot(
            type="snapshot",
            seq=1,
            reply_to=reply_to,
            table=self.info(),
            view=game.view,
            time_left_ms=game.time_left_ms,
            pause=game.pause,
            chat=tuple(self.chat_log.lines),
        )
        return body_of(snapshot)

    def seat_of(self, session: Session) -> int:
        seat = self.roster.seat_of(session)
        if seat is None:
            raise CommandError("not_seated", "you hold no seat at this table")
        return seat

    # -- telling others ------------------------------------------------------------------------------

    def changed(self) -> None:
        """The public description changed: write the table down, ``table_updated`` to everyone."""
        self._info_packed = None
        if not self.removed:  # a removed table is never written back
            self.server.table_log.table(self)
            self.server.table_changed(self)

    def info_stale(self) -> None:
        """The public description changed, but nothing stored did (who watches)."""
        self._info_packed = None

    def stored(self) -> None:
        if not self.removed:
            self.server.table_log.table(self)

    def seat_status(self, seat: Seat) -> None:
        """Tell the table a seat's connection or auto-play changed (and the lobby, via ``changed``)."""
        self.roster.broadcast(
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
        self.cycle.pause_changed()  # a pause between hands may wait for others now

    # -- seating (live and restored alike) -----------------------------------------------------------

    def seat_player(self, session: Session, seat: int, *, hand_over: bool = False) -> None:
        """``session`` holds ``seat`` (``hand_over``: the bot there plays on until the hand ends)."""
        self.roster.sit(session, seat, hand_over=hand_over)
        self._info_packed = None

    def seat_bot(self, seat: int, level: str | None = None) -> None:
        self.roster.seat_bot(seat, level)
        self._info_packed = None

    def restore_seat(self, seat: int, *, auto: bool, timeouts: int) -> None:
        """A restore: the seat's auto-play and timeouts as they were stored."""
        holder = self.seats[seat]
        holder.auto, holder.timeouts = auto, timeouts

    # -- the commands --------------------------------------------------------------------------------

    def turn_limit(self, seat: Seat) -> int | None:
        """Untimed for its owner only: anyone else seated plays on the server's turn timer (no stalling)."""
        if self.turn_seconds is not None:
            return self.turn_seconds
        session = seat.session
        if session is None or session.player_id == self.owner:
            return None
        return self.server.settings.turn_seconds

    def leave(self, session: Session) -> None:
        self._leaving(session)
        self.seating.leave(session)

    def abandon(self, session: Session) -> None:
        self._leaving(session)
        self.seating.abandon(session)

    @property
    def rated_kind(self) -> Kind | None:
        """The kind its games are rated as (stored with the table); ``None``: not rated."""
        return None if self.rated is None else self.rated.kind

    @property
    def rated_left(self) -> Mapping[int, tuple[str, str]]:
        """Who left the rated game in progress (stored: still their loss after a restart)."""
        return {} if self.rated is None else self.rated.left

    def _leaving(self, session: Session) -> None:
        if self.rated is not None and self.status == "playing":
            self.rated.leaving(self.table_id, self.roster, session, self.server.clock.wall())

    def removed_if_empty(self) -> bool:
        """Remove the table once no human sits or watches (a bots-only game plays out first)."""
        if self.status == "playing" or not self.roster.empty():
            return False
        self.server.remove_table(self)
        return True

    def chat(self, session: Session, text: str) -> None:
        if not self.roster.is_member(session):
            raise CommandError("not_seated", "you are not at this table")
        body = self.chat_log.say(session, self.roster.seat_of(session), text)
        speaker = muted_key(session.name)
        for listener, _ in self.listeners():
            if speaker not in listener.muted:  # feature moderation: hidden for those who muted them
                listener.deliver(body)

    def act(self, session: Session, action: Action, reply_to: CommandId | None = None) -> None:
        """A player's ``act`` (the engine decides, in :meth:`Match.act`; it answers ``ok``)."""
        seat = self.seat_of(session)
        if self.server.stopping:
            raise CommandError("unavailable", "the server is shutting down: resume when it is back")
        if self.match is None:
            raise CommandError("not_your_turn", "the game has not started")
        self.match.act(seat, action, reply_to)

    # -- the game (:class:`~boneyard.server.cycle.GameCycle`) ----------------------------------------

    def deal_columns(self) -> tuple[str | None, str | None, bool]:
        """How the current game deals, as stored: algorithm, the players' seeds (JSON), dealt."""
        return self.match.seeds.columns() if self.match is not None else (None, None, True)

    def game_over(self, winner: int, scores: Sequence[int]) -> None:
        if self.rated is not None:
            self.rated.finished(
                self.table_id, self.roster, winner, scores, self.record_id, self.server.clock.wall()
            )
        self.cycle.game_over()

    def restore_game(
        self,
        stored: StoredTable,
        actions: Iterable[tuple[int, EngineAction, bool]],
        regenerate_from: int | None = None,
    ) -> list[Regenerated | None]:
        """A restore: the table's stored settings, then its game (:meth:`GameCycle.restore`)."""
        self.bot_delay_ms, self.record_id = stored.bot_delay_ms, stored.record_id
        self.hand_pause_ms = stored.hand_pause_ms
        self.owner, self.invite = stored.owner, stored.invite
        self.open_bot_seats = stored.open_bot_seats
        if stored.rated is not None:
            self.rated = RatedTable(self.server.ratings, as_kind(stored.rated), stored.rated_left)
        regenerated = self.cycle.restore(stored, actions, regenerate_from)
        self._info_packed = None
        return regenerated

    def restored(self) -> None:
        """The restored table is whole: what is stored is what it is now (nothing to write)."""
        self.server.table_log.table(self, stored=True)

    def resume_turn(self, seconds_left: float | None) -> None:
        self.cycle.resume_turn(seconds_left)

    def clear(self) -> list[Session]:
        """The table is removed: every member leaves it; who was there."""
        self.removed = True
        self.cycle.stop()
        return self.roster.clear()

    # -- connections coming and going (who plays the seat meanwhile: the game's business) -------------

    def seat_connected(self, seat: int) -> None:
        """The seat's player is back: the server stops playing for them."""
        self.cycle.player_back(self.seats[seat])

    def seat_disconnected(self, seat: int) -> None:
        self.seat_status(self.seats[seat])

    def seat_away(self, seat: int) -> None:
        """The player stayed away past the grace period: the server plays for them."""
        self.cycle.player_away(self.seats[seat])
