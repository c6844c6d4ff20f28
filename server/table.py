"""One table: its members, its game, and the commands that address it.

A table owns its :class:`~boneyard.server.seats.Roster` (who sits and watches: the one writer of
membership) and, once every seat is held, its current :class:`~boneyard.server.match.Match` (one
game). It reaches the server only through its :class:`~boneyard.server.host.TableHost`. A waiting
table starts when every seat is held (by a player or a bot); a finished one starts again when every
seated human has asked for a rematch; a table with nobody left is removed.

Restoring a table after a restart goes through the same methods as building one live:
``seat_player``/``seat_bot`` seat people, :meth:`Table.restore_game` deals the stored game again.
"""

from __future__ import annotations

import hmac
import logging
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import msgpack
from pydantic import TypeAdapter

from boneyard.protocol import CHAT_HISTORY_LINES, ChatLine, PauseInfo, Seated, Snapshot, TableInfo
from boneyard.protocol.values import CommandId
from boneyard.server.errors import CommandError
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.base import Engine
from boneyard.server.games.registry import GameSpec
from boneyard.server.host import TableHost
from boneyard.server.logs import ids
from boneyard.server.match import Match
from boneyard.server.seats import Listener, Roster, Seat
from boneyard.server.session import Session
from boneyard.server.storage.store import StoredTable
from boneyard.server.wire import body_of, body_of_dict

log = logging.getLogger("boneyard.table")

_TABLE_INFO: TypeAdapter[Any] = TypeAdapter(TableInfo)


class Table:
    """A table: its seats, spectators and game, and the commands that address it."""

    __slots__ = (
        "_info_packed",
        "bot_delay_ms",
        "chat_log",
        "games",
        "hand_pause_ms",
        "host",
        "invite",
        "match",
        "options",
        "options_dict",
        "owner",
        "record_id",
        "rematch",
        "removed",
        "roster",
        "spec",
        "status",
        "table_id",
        "turn_seconds",
    )

    def __init__(
        self,
        host: TableHost[Table],
        table_id: str,
        spec: GameSpec,
        options: Any,
        turn_seconds: int | None,
        bots: Sequence[int] = (),
        levels: Sequence[str] = (),
    ) -> None:
        self.host = host
        self.table_id = table_id
        self.spec = spec
        self.options = options
        self.options_dict: dict[str, Any] = options.as_dict()
        self.turn_seconds = turn_seconds
        self.roster = Roster(self, spec.players_of(options))
        for i, seat in enumerate(bots):
            self.roster.seat_bot(seat, levels[i] if levels else None)
        self.status = "waiting"
        self.games = 0
        """Games started at this table (rematches included)."""
        self.match: Match | None = None
        """The current (or, once finished, the last) game; ``None`` while waiting."""
        self.rematch: set[int] = set()
        self.bot_delay_ms: int | None = None
        """The creator's pause before each bot move; ``None``: the server's ``bot_delay_seconds``, and no
        pause at all while only bots sit at the table."""
        self.hand_pause_ms: int | None = None
        """The creator's pause between hands; ``None``: the server's ``hand_pause_seconds`` where a human
        sits, none at a table of bots only."""
        self.record_id: str | None = None
        """The record id of the last game finished here (public, in the table's description)."""
        self.chat_log: deque[ChatLine] = deque(maxlen=CHAT_HISTORY_LINES)
        """The latest chat lines, for snapshots (in memory only: a restart forgets them)."""
        self.owner: str | None = None
        """The player id of whoever created the table (``None``: from before owners were stored)."""
        self.invite: str | None = None
        """A private table's invite code: seats are taken with it only (``None``: an open table)."""
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

    def time_left_ms(self) -> int | None:
        return self.match.time_left_ms() if self.match is not None else None

    @property
    def hand_ready(self) -> list[int] | None:
        """The seats ready in a pause between hands, as stored; ``None``: no pause."""
        pause = self.match.pause if self.match is not None else None
        return None if pause is None else sorted(pause.ready)

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
                "hand_pause_ms": self.hand_pause_ms,
            }
        )

    def info_packed(self) -> bytes:
        """The ``TableInfo`` as msgpack (cached until the next change): pushes and ``table_list`` are
        assembled from it. Only these bytes are kept, not the model: a model is many objects per table."""
        if self._info_packed is None:
            self._info_packed = msgpack.packb(self.info().model_dump())
        return self._info_packed

    def snapshot_body(self, viewer: int | None, reply_to: CommandId | None = None) -> bytes:
        """A ``snapshot`` of this table as ``viewer`` (a seat, or ``None``) may see it."""
        match = self.match
        pause = match.pause_info() if match is not None else None
        snapshot = Snapshot(
            type="snapshot",
            seq=1,
            reply_to=reply_to,
            table=self.info(),
            view=match.view_model(viewer) if match is not None else None,
            time_left_ms=self.time_left_ms(),
            pause=None if pause is None else PauseInfo.model_validate(pause),
            chat=tuple(self.chat_log),
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
            self.host.table_log.table(self)
            self.host.table_changed(self)

    def stored(self) -> None:
        if not self.removed:
            self.host.table_log.table(self)

    def broadcast(self, body: bytes) -> None:
        for session, _ in self.listeners():
            session.deliver(body)

    def seat_status(self, seat: Seat) -> None:
        """Tell the table a seat's connection or auto-play changed (and the lobby, via ``changed``)."""
        self.broadcast(
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
        self._pause_changed()

    def _pause_changed(self) -> None:
        """Someone came, went or is played for: a pause between hands may wait for others now."""
        if self.match is not None and self.status == "playing":
            self.match.pause_changed()

    # -- seating (live and restored alike) -----------------------------------------------------------

    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise CommandError("no_such_seat", f"seats are 0..{len(self.seats) - 1}")
        return self.seats[seat]

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

    def _check_can_sit(self, session: Session) -> None:
        if self.roster.seat_of(session) is not None:
            raise CommandError("already_seated", "you already hold a seat at this table")
        if self.host.stopping:
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
        return self.host.settings.turn_seconds

    def join(
        self, session: Session, seat: int, reply_to: CommandId | None, invite: str | None = None
    ) -> None:
        """Sit in an empty seat: ``seated``, ``snapshot``; the game starts once every seat is held."""
        holder = self._seat(seat)
        self._check_can_sit(session)
        self._check_invited(session, invite)
        if holder.held:
            raise CommandError("seat_taken", f"seat {seat} is taken")
        self.seat_player(session, seat)
        self._seated(session, seat, reply_to)
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
        # Between hands there is no hand for the bot to finish: the seat is the player's at once.
        mid_hand = self.status == "playing" and not (self.match is not None and self.match.pause is not None)
        self.seat_player(session, seat, hand_over=mid_hand)
        self._seated(session, seat, reply_to)
        self.changed()
        self._pause_changed()

    def _seated(self, session: Session, seat: int, reply_to: CommandId | None) -> None:
        self.host.at_table(session)
        token = self.host.token_for(session)
        seated = Seated(
            type="seated", seq=1, reply_to=reply_to, table_id=self.table_id, seat=seat, token=token
        )
        session.deliver(body_of(seated))
        session.deliver(self.snapshot_body(seat))
        self._deal_messages(session)
        log.info("seated", extra=ids(table_id=self.table_id, seat=seat, player_id=session.player_id))

    def spectate(self, session: Session, reply_to: CommandId | None) -> None:
        """Watch: a ``snapshot`` without hidden tiles, then the table's messages."""
        if self.roster.seat_of(session) is not None:
            raise CommandError("already_seated", "you hold a seat at this table")
        limit = self.host.settings.max_spectators
        if session not in self.spectators and len(self.spectators) >= limit:
            raise CommandError("unavailable", f"this table has its {limit} spectators (max_spectators)")
        fresh = self.roster.watch(session)
        self.host.at_table(session)
        self._info_packed = None
        session.deliver(self.snapshot_body(None, reply_to))
        if fresh:
            self._deal_messages(session)
            self.host.spectators_changed(self)

    def leave(self, session: Session) -> None:
        """Stop watching, or give up a seat: during a game a bot takes it over."""
        if not self.roster.is_member(session):
            raise CommandError("not_seated", "you are not at this table")
        playing = self.status == "playing"
        seat = self.roster.leave(session, bot_level=self._replacement(playing))
        self.host.left_table(session)
        self._parted(seat, playing)
        if seat is not None:
            log.info("left", extra=ids(table_id=self.table_id, seat=seat, player_id=session.player_id))

    def abandon(self, session: Session) -> None:
        """A dropped session leaves: it stops watching, and (once expired) gives up its seat."""
        if self.roster.is_member(session):
            playing = self.status == "playing"
            self._parted(self.roster.leave(session, bot_level=self._replacement(playing)), playing)

    def _replacement(self, playing: bool) -> str | None:
        """The level of the bot that takes over a seat given up mid-game (the server's away level, like
        the bot that plays for an away player), or ``None`` when the seat just empties."""
        return self.host.settings.away_bot_level if playing else None

    def _parted(self, seat: int | None, playing: bool) -> None:
        """Someone left: a spectator, or the player of ``seat`` (a bot holds it now if ``playing``)."""
        if seat is None:
            self._info_packed = None
            if not self.removed_if_empty():
                self.host.spectators_changed(self)  # counts are pushed coalesced
            return
        if not playing:
            self.rematch.discard(seat)
        self.changed()
        if playing and self.roster.empty():
            self.host.remove_table(self)  # the last human left: the game is abandoned
        elif playing:
            self.restart_turn(self.seats[seat])
            self._pause_changed()
        elif not self.removed_if_empty():
            self._check_rematch()

    def removed_if_empty(self) -> bool:
        """Remove the table once no human sits or watches (a bots-only game plays out first)."""
        if self.status == "playing" or not self.roster.empty():
            return False
        self.host.remove_table(self)
        return True

    def chat(self, session: Session, text: str) -> None:
        settings = self.host.settings
        if not self.roster.is_member(session):
            raise CommandError("not_seated", "you are not at this table")
        if len(text) > settings.chat_max_chars:
            limit = settings.chat_max_chars
            raise CommandError("chat_too_long", f"chat lines are at most {limit} characters")
        now = self.host.clock.time()
        if not session.take_chat_token(now, settings.chat_per_minute):
            raise CommandError("rate_limited", f"at most {settings.chat_per_minute} chat lines a minute")
        if self.roster.seat_of(session) is None and not self.host.spectator_chat.take(self.table_id, now):
            limit = settings.spectator_chat_per_minute
            raise CommandError(
                "rate_limited", f"this table's spectators may chat {limit} lines a minute in all"
            )
        line = ChatLine(seat=self.roster.seat_of(session), name=session.name, text=text)
        self.chat_log.append(line)
        chat = {"type": "chat", "seq": 1, "table_id": self.table_id, **line.model_dump()}
        self.broadcast(body_of_dict(chat))

    def act(self, session: Session, action: Any) -> None:
        """A player's ``act`` (the engine decides, in :meth:`Match.act`)."""
        seat = self.seat_of(session)
        if self.host.stopping:
            raise CommandError("unavailable", "the server is shutting down: resume when it is back")
        if self.match is None:
            raise CommandError("not_your_turn", "the game has not started")
        self.match.act(seat, action)

    def ready(self, session: Session) -> None:
        """``ready``: a seated player is done looking at the hand's result (nothing outside a pause)."""
        seat = self.seat_of(session)
        if self.match is not None and self.status == "playing":
            self.match.ready(seat)

    def request_rematch(self, session: Session) -> None:
        seat = self.seat_of(session)
        if self.status != "finished":
            raise CommandError("game_in_progress", "a rematch can be asked for once the game is over")
        self.rematch.add(seat)
        if not self._check_rematch():
            self.changed()

    def _check_rematch(self) -> bool:
        """Every seated human asked: back to waiting, and start at once if every seat is held."""
        humans = {seat.index for seat in self.roster.humans()}
        if self.status != "finished" or not humans or not humans <= self.rematch:
            return False
        self.status = "waiting"
        self.match = None
        self.rematch.clear()
        if not self.maybe_start():
            self.changed()
        return True

    # -- the game ------------------------------------------------------------------------------------

    def maybe_start(self) -> bool:
        if self.status != "waiting" or not all(seat.held for seat in self.seats):
            return False
        self.start_game()
        return True

    def _new_match(self, games: int, seeds: GameSeeds) -> Match:
        self.games = games
        self.match = Match(self.host, self, self.spec, self.options, games, seeds)
        return self.match

    def start_game(self) -> None:
        """Every seat is held: commit to the deal (``deal_commitment``), wait briefly for the seated
        humans' seeds, then deal (:meth:`Match.first_deal`)."""
        games = self.games + 1
        fixed = self.host.settings.seed
        # The table's number, not its run tag (random per run): a fixed seed replays across runs.
        derived = None if fixed is None else f"{fixed}/{self.table_id.partition('-')[0]}/{games}"
        match = self._new_match(games, GameSeeds.fresh(len(self.seats), derived))
        self.status = "playing"
        for seat in self.seats:
            seat.timeouts = 0
        self.changed()  # the seed is stored before its commitment goes out
        match.commit()
        match.await_seeds()

    def contribute(self, session: Session, seed: str) -> None:
        """``contribute_seed``: a seated human's seed for the deal of the game starting."""
        seat = self.seat_of(session)
        if self.status != "playing" or self.match is None:
            raise CommandError("seed_closed", "no game is starting at this table")
        self.match.contribute(seat, seed)

    def deal_columns(self) -> tuple[str | None, str | None, bool]:
        """How the current game deals, as stored: algorithm, the players' seeds (JSON), dealt."""
        return self.match.seeds.columns() if self.match is not None else (None, None, True)

    def _deal_messages(self, session: Session) -> None:
        if self.status == "playing" and self.match is not None:
            self.match.deal_messages(session)

    def game_over(self) -> None:
        self.status = "finished"
        self.changed()
        self.removed_if_empty()

    def restore_game(self, stored: StoredTable, actions: Iterable[tuple[int, Any, bool]]) -> None:
        """A restore: the stored state, and the stored game dealt again and replayed (nothing is sent)."""
        self.status = stored.status
        self.rematch = set(stored.rematch)
        self.games = stored.games
        self.bot_delay_ms, self.record_id = stored.bot_delay_ms, stored.record_id
        self.hand_pause_ms = stored.hand_pause_ms
        self.owner, self.invite = stored.owner, stored.invite
        if stored.seed is not None and stored.status != "waiting":
            players, seeds = len(self.seats), stored.player_seeds
            stored_seeds = GameSeeds.stored(players, stored.seed, stored.deal_algorithm, seeds, stored.dealt)
            match = self._new_match(stored.games, stored_seeds)
            match.replay(actions)
            if match.pause is not None:
                match.pause.ready = set(stored.hand_ready or ())
        self._info_packed = None

    def restored(self) -> None:
        """The restored table is whole: what is stored is what it is now (nothing to write)."""
        self.host.table_log.table(self, stored=True)

    def resume_turn(self, seconds_left: float | None) -> None:
        """After a restore: the turn of the seat to move goes on (to its stored deadline)."""
        if self.match is not None and self.status == "playing":
            self.match.resume_turn(seconds_left)

    def restart_turn(self, seat: Seat) -> None:
        """Who plays ``seat`` changed: if it is to move, start its turn afresh."""
        if self.match is not None and self.status == "playing":
            self.match.restart_turn(seat)

    def stop(self) -> None:
        """Stop the table's timer for good (shutdown, removal): no bot moves, no timeouts."""
        if self.match is not None:
            self.match.stop()

    def clear(self) -> list[Session]:
        """The table is removed: every member leaves it; who was there."""
        self.removed = True
        self.stop()
        return self.roster.clear()

    # -- connections coming and going ----------------------------------------------------------------

    def seat_connected(self, seat: int) -> None:
        """The seat's player is back: the server stops playing for them."""
        holder = self.seats[seat]
        was_auto, holder.auto, holder.timeouts = holder.auto, False, 0
        self.seat_status(holder)
        if was_auto:
            self.restart_turn(holder)  # the server was playing for them: their turn starts afresh
        elif holder.session is not None and self.match is not None and self.status == "playing":
            # Their timer runs on to its deadline (reconnecting buys no time); they are reminded of it.
            self.match.remind_turn(holder.session, seat)

    def seat_disconnected(self, seat: int) -> None:
        self.seat_status(self.seats[seat])

    def seat_away(self, seat: int) -> None:
        """The player stayed away past the grace period: the server plays for them."""
        holder = self.seats[seat]
        if not holder.auto:
            holder.auto = True
            self.seat_status(holder)
            self.restart_turn(holder)
