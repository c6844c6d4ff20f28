"""One websocket connection: the handshake, the command loop, rate limits, and dispatch.

The order of things on a connection is the protocol's (PROTOCOL.md sections 2 and 7): ``hello``;
``identify`` (or ``ping``) within the handshake time; ``welcome``, then replayed messages or
snapshots on a resume; then commands, each handled to its last frame before the next is read.
Every frame is metered by a token bucket; refusals become ``error`` replies, and a client that
keeps misbehaving is closed with the documented code (4001, 4005, 1008).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from boneyard.protocol import (
    REPLIES,
    SUBPROTOCOL,
    DecodeLimits,
    ErrorCode,
    Identify,
    ProtocolError,
    RefusalCode,
    SeatRef,
    Welcome,
    decode_command,
)
from boneyard.protocol.values import CommandId
from boneyard.server.errors import CommandError
from boneyard.server.lobby import Lobby
from boneyard.server.logs import ids
from boneyard.server.outbox import FrameWriter, Outbox
from boneyard.server.session import Session
from boneyard.server.table import Table
from boneyard.server.wire import body_of, body_of_dict, error_body, ok_body, stamp
from boneyard.server.wsconnection import BoneyardConnection

log = logging.getLogger("boneyard.connection")

REFUSALS: frozenset[str] = frozenset(get_args(RefusalCode))
"""Decode errors of well-formed commands (``invalid_options``, ``no_such_seat``)."""

BAD_FRAMES = 10
"""Undecodable frames tolerated (leaking one a second) before closing with 1008."""


@dataclass(slots=True)
class ServerContext:
    """What every connection shares: one object, so a connection costs one reference for all of it."""

    lobby: Lobby
    outbox: Outbox
    limits: DecodeLimits
    hello: bytes
    """The ``hello`` body (the same for every connection)."""


class Client(FrameWriter):
    """A connection's state: its session (once identified), its ``seq`` before that, its meters."""

    __slots__ = ("_bad", "_stamp", "_strikes", "_tokens", "ctx", "seq", "session")

    def __init__(self, ws: ServerConnection, ctx: ServerContext) -> None:
        settings = ctx.lobby.settings
        super().__init__(ws, ctx.outbox, settings.send_queue_frames)
        self.ctx = ctx
        self.session: Session | None = None
        self.seq = 0
        self._tokens = float(settings.command_burst)
        self._strikes = 0.0
        self._bad = 0.0
        self._stamp = time.monotonic()

    # -- sending --------------------------------------------------------------------------------------

    def send(self, body: bytes) -> None:
        """Send a body: through the session once identified (numbered and logged), else directly."""
        if self.session is not None:
            self.session.deliver(body)
        else:
            self.seq += 1
            self.write(stamp(body, self.seq))

    def error(self, code: ErrorCode, message: str, reply_to: CommandId | None) -> None:
        self.ctx.lobby.metrics.error(code)
        self.send(error_body(code, message, reply_to))

    def close_with(self, code: int, reason: str) -> None:
        if not self.closing:
            self.ctx.lobby.metrics.closed(code)
            log.info("closing: %s", reason, extra=ids(peer=self.peer(), code=code))
            self.close(code, reason, self.ctx.lobby.settings.close_seconds)

    def too_slow(self) -> None:
        self.close_with(4004, "too slow: the send queue is full")

    def host(self) -> str:
        """The peer's IP address (what per-address quotas count)."""
        address = self.ws.remote_address
        return str(address[0]) if isinstance(address, tuple) and address else str(address)

    def peer(self) -> str | None:
        player = self.session.player_id if self.session is not None else None
        return player or self.address()

    def address(self) -> str:
        """The peer as ``host:port`` (``[host]:port`` for IPv6)."""
        address = self.ws.remote_address
        if not isinstance(address, tuple) or len(address) < 2:
            return str(address)
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"

    # -- the connection's life ------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it closes; a dropped seated session waits for a resume."""
        ws = self.ws
        ctx = self.ctx
        if ws.subprotocol != SUBPROTOCOL:
            self.close_with(4000, f"offer the websocket subprotocol {SUBPROTOCOL}")
            return
        self.send(ctx.hello)
        ctx.outbox.flush()
        handshake = ws.loop.call_later(ctx.lobby.settings.handshake_seconds, self._handshake_over)
        assert isinstance(ws, BoneyardConnection)  # the server creates only these (``create_connection``)
        ws.direct = self._direct  # frames are handled as they are parsed (server.wsconnection)
        try:
            while not self.closing:
                self.handle(await ws.recv_queued(), time.perf_counter())
        except ConnectionClosed:
            pass
        finally:
            handshake.cancel()
            ws.direct = None
            code = ws.close_code if ws.close_code is not None else 1006
            player = self.session.player_id if self.session is not None else None
            log.info("disconnected", extra=ids(peer=self.address(), player_id=player, code=code))
            self.gone()

    def _direct(self, frame: bytes) -> None:
        if self.closing:
            return  # what a closing connection still sends is not read
        try:
            self.handle(frame, time.perf_counter())
        except Exception:  # never into websockets' parser: it would drop the connection's events
            log.exception("a frame failed", extra=ids(peer=self.peer()))
            self.close_with(1011, "the server failed")

    def _handshake_over(self) -> None:
        if self.session is None and not self.closing:
            self.close_with(4006, "no identify within the handshake time")

    def gone(self) -> None:
        """The socket is closed: the session (if any) drops, and keeps its seats for a grace period."""
        self.closing = True
        session, self.session = self.session, None
        if session is not None and session.client is self:
            self.ctx.lobby.session_dropped(session)

    def replaced(self) -> None:
        """Another connection resumed this one's session."""
        self.session = None
        self.close_with(4003, "another connection resumed this session")

    def handle(self, frame: str | bytes, started: float) -> None:
        """One frame: meter, decode, handle, then write everything it caused."""
        ctx = self.ctx
        if isinstance(frame, str):
            self.close_with(1008, "text frames are not accepted: send msgpack in binary frames")
            return
        problem: ProtocolError | None = None
        command: Any = None
        try:
            command = decode_command(frame, ctx.limits)
            reply_to = command.id
        except ProtocolError as error:
            problem, reply_to = error, error.reply_to
        if not self._admit():
            self.error("rate_limited", "too many commands: slow down", reply_to)
            if self._strikes > self.ctx.lobby.settings.command_burst:
                self.close_with(4005, "commands kept exceeding the rate limit")
        elif problem is not None:
            self.error(problem.code, problem.message, reply_to)
            if self.session is None:
                self.close_with(4001, "the first command must be a valid identify")
            elif problem.code not in REFUSALS:  # a well-formed command refused is no bad frame
                self._bad_frame()
        else:
            ctx.lobby.metrics.command(command.type)
            self._command(command)
        ctx.outbox.flush()
        ctx.lobby.metrics.latency.observe(time.perf_counter() - started)

    def _admit(self) -> bool:
        """The token bucket: ``command_burst`` tokens refilled at ``commands_per_second``.

        Refused commands are strikes, leaking ``command_burst`` per 10 s: a client that keeps
        exceeding the rate piles them up and is closed.
        """
        settings = self.ctx.lobby.settings
        now = time.monotonic()
        elapsed, self._stamp = now - self._stamp, now
        refilled = self._tokens + elapsed * settings.commands_per_second
        self._tokens = min(float(settings.command_burst), refilled)
        self._strikes = max(0.0, self._strikes - elapsed * settings.command_burst / 10)
        self._bad = max(0.0, self._bad - elapsed)
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._strikes += 1
        return False

    def _bad_frame(self) -> None:
        self._bad += 1
        if self._bad > BAD_FRAMES:
            self.close_with(1008, "too many undecodable frames")

    # -- commands -------------------------------------------------------------------------------------

    def _command(self, command: Any) -> None:
        kind = command.type
        reply_to = command.id
        if self.session is None:
            if kind == "ping":
                self.send(body_of_dict({"type": "pong", "seq": 1, "reply_to": reply_to}))
            elif kind == "identify":
                self._identify(command)
            else:
                self.error("not_identified", "identify first", reply_to)
                self.close_with(4001, "the first command must be identify")
            return
        try:
            HANDLERS[kind](self, self.session, command)
        except CommandError as refused:
            self.error(refused.code, refused.message, reply_to)
            return
        except Exception:
            log.exception("command %s failed", kind, extra=ids(peer=self.peer()))
            self.error("internal_error", "the server failed on this command", reply_to)
            return
        if reply_to is not None and kind in OK_REPLIES:
            self.send(ok_body(reply_to))

    def _identify(self, command: Identify) -> None:
        lobby = self.ctx.lobby
        if lobby.stopping:
            self.close_with(1012, "the server is restarting")
            return
        if command.resume is None:
            session = lobby.new_session(command.name)
            self._attach(session)
            self.send(self._welcome(session, command.id, resumed=False, replayed=0))
            lobby.enter_lobby(session)
            log.info("identified", extra=ids(player_id=session.player_id, peer=self.address()))
            return
        resumed = lobby.by_token.get(command.resume.token)
        if resumed is None:
            self.close_with(4002, "unknown or expired resume token")
            return
        session = resumed
        old = session.client
        if isinstance(old, Client):
            old.replaced()
        session.cancel_timer()
        missed = session.missed_since(command.resume.last_seq) or []
        self._attach(session)
        self.send(self._welcome(session, command.id, resumed=True, replayed=len(missed)))
        seats = session.seats()
        for body in missed:
            session.deliver(body)
        if not missed:
            for table, seat in seats:
                session.deliver(table.snapshot_body(seat))
        for table, seat in seats:
            table.seat_connected(seat)
        lobby.enter_lobby(session)
        log.info("resumed, %d replayed", len(missed), extra=ids(player_id=session.player_id))

    def _attach(self, session: Session) -> None:
        self.session = session
        session.client = self
        session.seq = self.seq  # the new connection's numbering goes on from its hello
        if session.token is not None:
            session.start_log()  # a session restored after a restart had none
        if session.log is not None:
            session.log.clear()

    def _welcome(
        self, session: Session, reply_to: CommandId | None, *, resumed: bool, replayed: int
    ) -> bytes:
        seats = tuple(SeatRef(table_id=t.table_id, seat=s) for t, s in session.seats())
        return body_of(
            Welcome(
                type="welcome",
                seq=1,
                reply_to=reply_to,
                player_id=session.player_id,
                name=session.name,
                resumed=resumed,
                replayed=replayed,
                seats=seats,
            )
        )

    def _table(self, table_id: str) -> Table:
        table = self.ctx.lobby.tables.get(table_id)
        if table is None:
            raise CommandError("no_such_table", f"no table {table_id}")
        return table

    def _ping(self, session: Session, command: Any) -> None:
        self.send(body_of_dict({"type": "pong", "seq": 1, "reply_to": command.id}))

    def _again(self, session: Session, command: Any) -> None:
        raise CommandError("already_identified", "this connection is already identified")

    def _list(self, session: Session, command: Any) -> None:
        self.send(self.ctx.lobby.table_list_body(command.id))

    def _create(self, session: Session, command: Any) -> None:
        self.ctx.lobby.create_table(session, command, command.id, self.host())

    def _join(self, session: Session, command: Any) -> None:
        self._table(command.table_id).join(session, command.seat, command.id, command.invite)

    def _take_seat(self, session: Session, command: Any) -> None:
        self._table(command.table_id).take_seat(session, command.seat, command.id, command.invite)

    def _spectate(self, session: Session, command: Any) -> None:
        self._table(command.table_id).spectate(session, command.id)

    def _leave(self, session: Session, command: Any) -> None:
        self._table(command.table_id).leave(session)

    def _rematch(self, session: Session, command: Any) -> None:
        self._table(command.table_id).request_rematch(session)

    def _act(self, session: Session, command: Any) -> None:
        table = self._table(command.table_id)
        table.act(session, table.seat_of(session), command.action)

    def _chat(self, session: Session, command: Any) -> None:
        self._table(command.table_id).chat(session, command.text)

    def _contribute_seed(self, session: Session, command: Any) -> None:
        table = self._table(command.table_id)
        table.contribute(table.seat_of(session), command.seed)

    def _get_record(self, session: Session, command: Any) -> None:
        body = self.ctx.lobby.records.reply(command.record_id, command.id)
        if body is None:
            raise CommandError("no_such_record", f"no finished game has the record {command.record_id}")
        self.send(body)
        self.charge(len(body))

    def charge(self, reply_bytes: int) -> None:
        """A reply of ``reply_bytes`` costs one more command per ``reply_bytes_per_command`` bytes (issue
        #15: fetching big replies in a loop must not be cheaper than sending commands). The bucket may go
        below zero: the commands after wait until it refills."""
        self._tokens -= reply_bytes // self.ctx.lobby.settings.reply_bytes_per_command


HANDLERS: dict[str, Callable[[Client, Session, Any], None]] = {
    "ping": Client._ping,
    "identify": Client._again,
    "list_tables": Client._list,
    "create_table": Client._create,
    "join": Client._join,
    "take_seat": Client._take_seat,
    "spectate": Client._spectate,
    "leave": Client._leave,
    "rematch": Client._rematch,
    "act": Client._act,
    "chat": Client._chat,
    "get_record": Client._get_record,
    "contribute_seed": Client._contribute_seed,
}
"""Each command type's handler, once identified. A handler replies, or raises :class:`CommandError`."""

OK_REPLIES = frozenset(command for command, reply in REPLIES.items() if reply == "ok")
"""Commands whose success is answered with ``ok`` (when they carry an ``id``)."""
