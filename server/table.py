"""One table as the lobby sees it: joining, taking a bot's seat, watching, leaving, chat, rematch.

The game itself (engine, turns, timers, bots, fan-out, record) is :class:`boneyard.server.play.PlayingTable`.
A waiting table starts when every seat is held (by a player or a bot); a finished one starts again
when every seated human has asked for a rematch; a table with nobody left is removed.
"""

from __future__ import annotations

import hmac
import logging
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgpack
from pydantic import TypeAdapter

from boneyard.protocol import CHAT_HISTORY_LINES, ChatLine, Seated, Snapshot, TableInfo
from boneyard.protocol.values import CommandId
from boneyard.server.errors import CommandError
from boneyard.server.games.registry import GameSpec
from boneyard.server.logs import ids
from boneyard.server.play import PlayingTable
from boneyard.server.seats import Seat
from boneyard.server.session import Session
from boneyard.server.wire import body_of, body_of_dict, view_model

if TYPE_CHECKING:
    from boneyard.server.lobby import Lobby

log = logging.getLogger("boneyard.table")

_TABLE_INFO: TypeAdapter[Any] = TypeAdapter(TableInfo)


class Table(PlayingTable):
    """A table: its seats, spectators and game, and the commands that address it."""

    __slots__ = ("_info_packed", "chat_log", "invite", "options_dict", "owner", "rematch")

    def __init__(
        self,
        lobby: Lobby,
        table_id: str,
        spec: GameSpec,
        options: Any,
        turn_seconds: int | None,
        bots: Sequence[int] = (),
        levels: Sequence[str] = (),
    ) -> None:
        super().__init__(lobby, table_id, spec, options, turn_seconds)
        self.options_dict: dict[str, Any] = options.as_dict()
        for i, seat in enumerate(bots):
            self.seats[seat].make_bot(levels[i] if levels else None)
        self.rematch: set[int] = set()
        self._info_packed: bytes | None = None
        self.owner: str | None = None
        """The player id of whoever created the table (``None``: from before owners were stored)."""
        self.invite: str | None = None
        """A private table's invite code: seats are taken with it only (``None``: an open table)."""
        self.chat_log: deque[ChatLine] = deque(maxlen=CHAT_HISTORY_LINES)
        """The latest chat lines, for snapshots (in memory only: a restart forgets them)."""

    # -- description ---------------------------------------------------------------------------------

    def info(self) -> Any:
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
            }
        )

    def info_packed(self) -> bytes:
        """The ``TableInfo`` as msgpack (cached until the next change): pushes and ``table_list`` are
        assembled from it. Only these bytes are kept, not the model: a model is many objects per table."""
        if self._info_packed is None:
            self._info_packed = msgpack.packb(self.info().model_dump())
        return self._info_packed

    def changed(self) -> None:
        self._info_packed = None
        self.lobby.wal.table(self)
        self.lobby.table_changed(self)

    def stored(self) -> None:
        self.lobby.wal.table(self)

    def snapshot_body(self, viewer: int | None, reply_to: CommandId | None = None) -> bytes:
        """A ``snapshot`` of this table as ``viewer`` (a seat, or ``None``) may see it."""
        view = None
        if self.engine is not None:
            hand_over = viewer is not None and self.seats[viewer].handing_over
            view = view_model(self.spec.name, self.engine.view(viewer), hide_actions=hand_over)
        snapshot = Snapshot(
            type="snapshot",
            seq=1,
            reply_to=reply_to,
            table=self.info(),
            view=view,
            time_left_ms=self.time_left_ms(),
            chat=tuple(self.chat_log),
        )
        return body_of(snapshot)

    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise CommandError("no_such_seat", f"seats are 0..{len(self.seats) - 1}")
        return self.seats[seat]

    def seat_of(self, session: Session) -> int:
        seat = session.tables.get(self)
        if seat is None:
            raise CommandError("not_seated", "you hold no seat at this table")
        return seat

    # -- sitting, watching, leaving ------------------------------------------------------------------

    def _check_can_sit(self, session: Session) -> None:
        if session.tables.get(self) is not None:
            raise CommandError("already_seated", "you already hold a seat at this table")
        if self.lobby.stopping:
            raise CommandError("unavailable", "the server is shutting down")

    def _check_invited(self, session: Session, invite: str | None) -> None:
        if self.invite is None or session.player_id == self.owner:
            return
        if invite is None or not hmac.compare_digest(invite, self.invite):
            raise CommandError("not_invited", "this table is private: sit with its invite code")

    def turn_limit(self, seat: Seat) -> int | None:
        """The owner's turn policy: an untimed open table is untimed for its owner only; anyone else
        who sits plays on the server's turn timer (a stranger must not stall the owner's table)."""
        if self.turn_seconds is not None or self.invite is not None:
            return self.turn_seconds
        session = seat.session
        if session is None or session.player_id == self.owner:
            return None
        return self.lobby.settings.turn_seconds

    def join(
        self, session: Session, seat: int, reply_to: CommandId | None, invite: str | None = None
    ) -> None:
        """Sit in an empty seat: ``seated``, ``snapshot``; the game starts once every seat is held."""
        holder = self._seat(seat)
        self._check_can_sit(session)
        self._check_invited(session, invite)
        if holder.held:
            raise CommandError("seat_taken", f"seat {seat} is taken")
        holder.seat_human(session)
        self._sit(session, seat, reply_to)
        if not self.maybe_start():
            self.changed()

    def take_seat(
        self, session: Session, seat: int, reply_to: CommandId | None, invite: str | None = None
    ) -> None:
        """Take a bot's seat; mid-game the bot plays on until the hand ends."""
        holder = self._seat(seat)
        self._check_can_sit(session)
        self._check_invited(session, invite)
        if holder.session is not None:
            raise CommandError("seat_taken", f"seat {seat} is taken")
        if not holder.bot:
            raise CommandError("not_a_bot", f"no bot holds seat {seat}")
        holder.seat_human(session, hand_over=self.status == "playing")
        self._sit(session, seat, reply_to)
        self.changed()

    def _sit(self, session: Session, seat: int, reply_to: CommandId | None) -> None:
        self.spectators.discard(session)
        session.tables[self] = seat
        self.lobby.leave_lobby(session)
        token = self.lobby.token_for(session)
        self._info_packed = None
        seated = Seated(
            type="seated", seq=1, reply_to=reply_to, table_id=self.table_id, seat=seat, token=token
        )
        session.deliver(body_of(seated))
        session.deliver(self.snapshot_body(seat))
        self.deal_messages(session)
        log.info("seated", extra=ids(table_id=self.table_id, seat=seat, player_id=session.player_id))

    def spectate(self, session: Session, reply_to: CommandId | None) -> None:
        """Watch: a ``snapshot`` without hidden tiles, then the table's messages."""
        if session.tables.get(self) is not None:
            raise CommandError("already_seated", "you hold a seat at this table")
        fresh = session not in self.spectators
        limit = self.lobby.settings.max_spectators
        if fresh and len(self.spectators) >= limit:
            raise CommandError("unavailable", f"this table has its {limit} spectators (max_spectators)")
        self.spectators.add(session)
        session.tables[self] = None
        self.lobby.leave_lobby(session)
        self._info_packed = None
        session.deliver(self.snapshot_body(None, reply_to))
        if fresh:
            self.deal_messages(session)
            self.lobby.spectators_changed(self)

    def leave(self, session: Session) -> None:
        """Stop watching, or give up a seat: during a game a bot takes it over."""
        if self not in session.tables:
            raise CommandError("not_seated", "you are not at this table")
        seat = session.tables.pop(self)
        self.lobby.enter_lobby(session)
        if seat is None:
            self.spectators.discard(session)
            self._info_packed = None
            if not self.removed_if_empty():
                self.lobby.spectators_changed(self)
            return
        self._give_up(self.seats[seat])
        log.info("left", extra=ids(table_id=self.table_id, seat=seat, player_id=session.player_id))

    def _give_up(self, holder: Seat) -> None:
        playing = self.status == "playing"
        if playing:
            holder.make_bot(self.lobby.settings.away_bot_level)
        else:
            holder.empty()
            self.rematch.discard(holder.index)
        self.changed()
        if playing and not any(s.session for s in self.seats) and not self.spectators:
            self.lobby.remove_table(self)  # the last human left: the game is abandoned
            return
        if playing:
            self.restart_turn(holder)
        elif not self.removed_if_empty():
            self._check_rematch()

    def abandon(self, session: Session) -> None:
        """A dropped session leaves: it stops watching, and (once expired) gives up its seat."""
        if self not in session.tables:
            return
        seat = session.tables.pop(self)
        if seat is not None:
            self._give_up(self.seats[seat])
        elif session in self.spectators:
            self.spectators.discard(session)
            self._info_packed = None
            if not self.removed_if_empty():
                self.lobby.spectators_changed(self)

    def removed_if_empty(self) -> bool:
        """Remove the table once no human sits or watches (a bots-only game plays out first)."""
        if self.status == "playing" or self.spectators or any(s.session for s in self.seats):
            return False
        self.lobby.remove_table(self)
        return True

    def maybe_start(self) -> bool:
        if self.status != "waiting" or not all(seat.held for seat in self.seats):
            return False
        self.start_game()
        return True

    # -- connections coming and going ----------------------------------------------------------------

    def seat_connected(self, seat: int) -> None:
        """The seat's player is back: the server stops playing for them."""
        holder = self.seats[seat]
        was_auto, holder.auto, holder.timeouts = holder.auto, False, 0
        self.seat_status(holder)
        if was_auto:
            self.restart_turn(holder)  # the server was playing for them: their turn starts afresh
        elif holder.session is not None:
            # Their timer runs on to its deadline (reconnecting buys no time); they are reminded of it.
            self.remind_turn(holder.session, seat)

    def seat_disconnected(self, seat: int) -> None:
        self.seat_status(self.seats[seat])

    def seat_away(self, seat: int) -> None:
        """The player stayed away past the grace period: the server plays for them."""
        holder = self.seats[seat]
        if not holder.auto:
            holder.auto = True
            self.seat_status(holder)
            self.restart_turn(holder)

    # -- chat and rematch ----------------------------------------------------------------------------

    def chat(self, session: Session, text: str) -> None:
        settings = self.lobby.settings
        if self not in session.tables:
            raise CommandError("not_seated", "you are not at this table")
        if len(text) > settings.chat_max_chars:
            limit = settings.chat_max_chars
            raise CommandError("chat_too_long", f"chat lines are at most {limit} characters")
        if not session.take_chat_token(self.lobby.loop.time(), settings.chat_per_minute):
            raise CommandError("rate_limited", f"at most {settings.chat_per_minute} chat lines a minute")
        if session.tables[self] is None and not self.lobby.spectator_chat.take(
            self.table_id, self.lobby.loop.time()
        ):
            limit = settings.spectator_chat_per_minute
            raise CommandError(
                "rate_limited", f"this table's spectators may chat {limit} lines a minute in all"
            )
        line = ChatLine(seat=session.tables[self], name=session.name, text=text)
        self.chat_log.append(line)
        chat = {"type": "chat", "seq": 1, "table_id": self.table_id, **line.model_dump()}
        self.broadcast(body_of_dict(chat))

    def request_rematch(self, session: Session) -> None:
        seat = self.seat_of(session)
        if self.status != "finished":
            raise CommandError("game_in_progress", "a rematch can be asked for once the game is over")
        self.rematch.add(seat)
        if not self._check_rematch():
            self.changed()

    def _check_rematch(self) -> bool:
        """Every seated human asked: back to waiting, and start at once if every seat is held."""
        humans = {seat.index for seat in self.seats if seat.session is not None}
        if self.status != "finished" or not humans or not humans <= self.rematch:
            return False
        self.status = "waiting"
        self.engine = None
        self.rematch.clear()
        if not self.maybe_start():
            self.changed()
        return True
