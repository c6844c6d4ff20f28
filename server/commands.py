"""The seam between the socket tier and the table tier: typed commands in, frames to sessions out.

A connection (:mod:`~boneyard.server.connection`) turns each frame into a typed command (or a
refusal: undecodable, rate-limited) and hands it to :class:`CommandSeam`, with the :class:`Link` it
came on. Nothing else crosses: the table tier answers with frames, written to the link or, once it
is identified, delivered to its :class:`~boneyard.server.session.Session` (numbered, logged for
resume); and it may ask the link to close, with a documented code. In one process the hand-over is
a direct call on the connection object itself (it is the link: no copy, no extra object); a table
tier in another process would hold a link per remote connection and put the same calls on a bus.

Here are identification and resume (PROTOCOL.md section 7), the routing of each command type to
the lobby or the table it names, and the replies: ``ok``, or ``error`` with its code.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Protocol

import msgpack

from boneyard.protocol import (
    FEATURE_TURN_IN_EVENT,
    REPLIES,
    Act,
    ChatCommand,
    ContributeSeed,
    ErrorCode,
    Identify,
    Join,
    Leave,
    ListTables,
    Ping,
    Rematch,
    SeatRef,
    Spectate,
    TakeSeat,
    Welcome,
)
from boneyard.protocol.codec import HotAct
from boneyard.protocol.pause import Ready
from boneyard.protocol.records import GetRecord
from boneyard.protocol.tables import BaseCreateTable
from boneyard.protocol.values import CommandId
from boneyard.server.accounts.book import AccountBook
from boneyard.server.accounts.signin import SignInDesk
from boneyard.server.errors import CommandError
from boneyard.server.lobby import Lobby
from boneyard.server.logs import ids
from boneyard.server.player_commands import PLAYER_HANDLERS
from boneyard.server.routes import Command as Command  # re-exported: what a transport hands over
from boneyard.server.routes import Handler, Route
from boneyard.server.routes import Link as Link  # re-exported: where transports and the cluster import it
from boneyard.server.session import Session, new_epoch
from boneyard.server.table import Table
from boneyard.server.wire import body_of, body_of_dict, error_body, ok_body, stamp, with_fields

log = logging.getLogger("boneyard.connection")

_PONG = {"type": "pong", "seq": 1}
_NONCE_KEY = msgpack.packb("nonce")


class Router(Protocol):
    """Where a cluster node sends commands for tables it does not own (``boneyard.server.cluster``)."""

    def forwards(self, link: Link, session: Session, command: Command) -> bool:
        """Forward ``command`` if another node owns the table it names, or hold it to handle later
        (with ``dispatch``, on ``link``); whether it did either."""
        ...

    def fetch_record(self, session: Session, record_id: str, reply_to: CommandId | None) -> None:
        """Reply to ``get_record`` from the cluster's records (this node has not got it)."""
        ...

    def resume(self, link: Link, command: Identify) -> None:
        """Resume a token this node does not know from the cluster's tokens (or close with 4002)."""
        ...

    def dropped(self, session: Session) -> None:
        """The session's connection closed (after the lobby heard of it)."""
        ...


class CommandSeam:
    """The table tier's front door: what a connection hands every decoded command to."""

    __slots__ = ("_nonces", "_waiting", "accounts", "cluster", "hello", "lobby")

    def __init__(self, lobby: Lobby, hello: bytes, accounts: AccountBook | None = None) -> None:
        self.lobby = lobby
        self.hello = hello
        """The ``hello`` body, but its ``nonce`` (the same for every connection)."""
        self.cluster: Router | None = None
        """On a cluster node: forwards commands for other nodes' tables (``None``: a single node)."""
        clock = lobby.clock
        self.accounts = SignInDesk(
            AccountBook() if accounts is None else accounts,
            lobby.settings.sign_ins_per_minute,
            clock.time,
            clock.wall,
        )
        """Feature ``accounts``: checks ``identify.sign_in`` (an in-memory book unless one is given)."""
        self._nonces: dict[Link, str] = {}
        """Each connection's ``hello.nonce`` until its ``identify`` spends it (or it closes)."""
        self._waiting: set[Link] = set()
        """Connections whose ``identify`` waits for a cluster's accounts to be brought up to date."""

    # -- what the socket tier calls --------------------------------------------------------------------

    def connected(self, link: Link) -> None:
        """A new connection: ``hello``, with a fresh nonce to sign in with."""
        nonce = self._nonces[link] = self.accounts.nonce()
        send(link, with_fields(self.hello, _NONCE_KEY + msgpack.packb(nonce), 1))

    def refuse(self, link: Link, code: ErrorCode, message: str, reply_to: CommandId | None) -> bool:
        """A frame the socket tier refused (undecodable, over the rate): an ``error`` reply. ``False``
        when the link is not identified yet (it was closed with 4001 for an undecodable first frame)."""
        self._error(link, code, message, reply_to)
        if link.session is None and code != "rate_limited":
            link.close_with(4001, "the first command must be a valid identify")
            return False
        return True

    def handle(self, link: Link, command: Command) -> None:
        """One decoded command, handled to its last frame queued (nothing awaits)."""
        kind = command.type
        reply_to = command.id
        self.lobby.metrics.command(kind)
        session = link.session
        if session is None:
            if kind == "ping":
                send(link, body_of_dict({**_PONG, "reply_to": reply_to}))
            elif isinstance(command, Identify):
                # a cluster's accounts are brought up to date first (on one node: at once)
                self._waiting.add(link)
                self.accounts.ready(command, self._nonces.get(link), partial(self._when_ready, link, command))
            else:
                self._error(link, "not_identified", "identify first", reply_to)
                link.close_with(4001, "the first command must be identify")
            return
        cluster = self.cluster
        if cluster is not None and cluster.forwards(link, session, command):
            return  # the table's owner handles it and replies (through this session)
        self.dispatch(link, session, command)

    def dispatch(self, link: Link, session: Session, command: Command) -> None:
        """An identified session's command, handled here: its reply or ``error`` (a command forwarded
        by another node comes in here too, for a relay session)."""
        kind = command.type
        reply_to = command.id
        try:
            HANDLERS[kind](self, link, session, command)
        except CommandError as refused:
            self._error(link, refused.code, refused.message, reply_to)
            return
        except Exception:
            log.exception("command %s failed", kind, extra=ids(peer=link.peer()))
            self._error(link, "internal_error", "the server failed on this command", reply_to)
            return
        if reply_to is not None and kind in OK_REPLIES:
            session.deliver(ok_body(reply_to))

    def disconnected(self, link: Link) -> None:
        """The connection is closed: its session (if any) drops, and keeps its seats for a grace period."""
        self._nonces.pop(link, None)
        self._waiting.discard(link)
        session, link.session = link.session, None
        if session is not None and session.client is link:
            self.lobby.matchmaker.cancel(session)
            self.lobby.session_dropped(session)
            if self.cluster is not None:
                self.cluster.dropped(session)

    # -- identification and resume ---------------------------------------------------------------------

    def _error(self, link: Link, code: ErrorCode, message: str, reply_to: CommandId | None) -> None:
        self.lobby.metrics.error(code)
        send(link, error_body(code, message, reply_to))

    def _when_ready(self, link: Link, command: Identify) -> None:
        # A connection closed while it waited is not identified: its session would hold a dead
        # connection (an account shown online, a seat never away) and nobody would ever drop it.
        if link in self._waiting:
            self._waiting.discard(link)
            self._identify(link, command)

    def _identify(self, link: Link, command: Identify) -> None:
        lobby = self.lobby
        nonce = self._nonces.pop(link, None)  # spent by this identify, whatever comes of it
        if lobby.stopping:
            link.close_with(1012, "the server is restarting")
            return
        account, name = None, command.name
        if command.sign_in is not None:
            try:
                signed = self.accounts.sign_in(command.sign_in, nonce, link.client_address())
            except CommandError as refused:
                self._error(link, refused.code, refused.message, command.id)
                link.close_with(4001, "sign-in refused")
                return
            account, name = signed.key, signed.name
            if (back := lobby.presence.by_account.get(account)) is not None:
                self.resumed(link, back, command)  # the account's session, wherever it was left
                return
        if command.resume is None and account is None and self.accounts.book.alike(name) is not None:
            # A guest may not pass for an account's holder (the name, or one that looks like it).
            self._error(
                link, "name_taken", f"{name!r} is an account's name: sign in, or pick another", command.id
            )
            link.close_with(4001, "the name is an account's")
            return
        if command.resume is None or account is not None:
            session = lobby.new_session(name)
            if account is not None:
                lobby.presence.signed_in(session, account)
                session.muted = self.accounts.book.mutes_of(account)
            peer = link.peer()
            _attach(link, session, command)
            session.deliver(_welcome(session, command.id, resumed=False, replayed=0))
            lobby.enter_lobby(session)
            log.info("identified", extra=ids(player_id=session.player_id, peer=peer))
            return
        resumed = lobby.by_token.get(command.resume.token)
        if resumed is None and self.cluster is not None:
            self.cluster.resume(link, command)  # its home may have been another node
            return
        if resumed is None:
            link.close_with(4002, "unknown or expired resume token")
            return
        self.resumed(link, resumed, command)

    def resumed(self, link: Link, session: Session, command: Identify) -> None:
        """``session`` resumes on ``link``: the messages it missed, or a snapshot of each of its tables
        (always, for a signed-in session taken back without its token)."""
        lobby = self.lobby
        resume = command.resume
        if (
            resume is not None
            and session.account is not None
            and lobby.by_token.get(resume.token) is not session
        ):
            resume = None  # signed in, with a token of another session: it counts for nothing here
        old = session.client
        if isinstance(old, Link) and old is not link:  # another connection resumed this one's session
            old.session = None
            old.close_with(4003, "another connection resumed this session")
        session.cancel_timer()
        # What it missed was sent in its last connection's shape: replayed only in the same one.
        same_shape = session.folds == _folds(command)
        missed = (session.missed_since(resume.last_seq) if same_shape and resume else None) or []
        _attach(link, session, command)
        lobby.table_log.session(session)  # its new epoch
        session.deliver(_welcome(session, command.id, resumed=True, replayed=len(missed)))
        seats = session.seats()
        for body in missed:
            session.deliver(body)
        if not missed:
            for table, seat in seats:
                table.resync(session, seat)
        for table, seat in seats:
            table.seat_connected(seat)
        lobby.enter_lobby(session)
        log.info("resumed, %d replayed", len(missed), extra=ids(player_id=session.player_id))

    # -- the commands of an identified session ---------------------------------------------------------

    def _table(self, table_id: str) -> Table:
        table = self.lobby.tables.get(table_id)
        if table is None:
            raise CommandError("no_such_table", f"no table {table_id}")
        return table

    def _ping(self, link: Link, session: Session, command: Ping) -> None:
        session.deliver(body_of_dict({**_PONG, "reply_to": command.id}))

    def _again(self, link: Link, session: Session, command: Identify) -> None:
        raise CommandError("already_identified", "this connection is already identified")

    def _list(self, link: Link, session: Session, command: ListTables) -> None:
        session.deliver(self.lobby.table_list_body(command.id))

    def _create(self, link: Link, session: Session, command: BaseCreateTable) -> None:
        self.lobby.create_table(session, command, command.id, link.client_address())

    def _join(self, link: Link, session: Session, command: Join) -> None:
        self._table(command.table_id).seating.join(session, command.seat, command.id, command.invite)

    def _take_seat(self, link: Link, session: Session, command: TakeSeat) -> None:
        self._table(command.table_id).seating.take_seat(session, command.seat, command.id, command.invite)

    def _spectate(self, link: Link, session: Session, command: Spectate) -> None:
        self._table(command.table_id).seating.spectate(session, command.id)

    def _leave(self, link: Link, session: Session, command: Leave) -> None:
        self._table(command.table_id).leave(session)

    def _rematch(self, link: Link, session: Session, command: Rematch) -> None:
        table = self._table(command.table_id)
        table.cycle.request_rematch(table.seat_of(session))

    def _ready(self, link: Link, session: Session, command: Ready) -> None:
        table = self._table(command.table_id)
        seat = table.seat_of(session)
        if (pause := table.cycle.breaks) is not None:
            pause.ready(seat)

    def _act(self, link: Link, session: Session, command: Act | HotAct) -> None:
        self._table(command.table_id).act(session, command.action, command.id)

    def _chat(self, link: Link, session: Session, command: ChatCommand) -> None:
        self._table(command.table_id).chat(session, command.text)

    def _contribute_seed(self, link: Link, session: Session, command: ContributeSeed) -> None:
        table = self._table(command.table_id)
        table.cycle.contribute(table.seat_of(session), command.seed)

    def _get_record(self, link: Link, session: Session, command: GetRecord) -> None:
        body = self.lobby.record_bodies.reply(command.record_id, command.id)
        if body is None and self.cluster is not None:
            self.cluster.fetch_record(session, command.record_id, command.id)
            return
        if body is None:
            raise CommandError("no_such_record", f"no finished game has the record {command.record_id}")
        session.deliver(body)
        link.charge(len(body))


def send(link: Link, body: bytes) -> None:
    """A body to a link: through its session once identified (numbered and logged), else numbered here."""
    if link.session is not None:
        link.session.deliver(body)
    else:
        link.seq += 1
        link.write(stamp(body, link.seq))


def _folds(identify: Identify) -> bool:
    return FEATURE_TURN_IN_EVENT in identify.accept


def _attach(link: Link, session: Session, identify: Identify) -> None:
    link.session = session
    session.client = link
    session.folds = _folds(identify)  # the features are the connection's
    session.seq = link.seq  # the new connection's numbering goes on from its hello
    session.epoch = new_epoch()
    if session.token is not None:
        session.start_log()  # a session restored after a restart had none
    if session.log is not None:
        session.log.clear()


def _welcome(session: Session, reply_to: CommandId | None, *, resumed: bool, replayed: int) -> bytes:
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
            accepted=(FEATURE_TURN_IN_EVENT,) if session.folds else (),
            account=None if session.account is None else session.name,
        )
    )


HANDLERS: dict[str, Handler[CommandSeam]] = {
    "ping": Route((Ping,), CommandSeam._ping),
    "identify": Route((Identify,), CommandSeam._again),
    "list_tables": Route((ListTables,), CommandSeam._list),
    "create_table": Route[CommandSeam, BaseCreateTable]((BaseCreateTable,), CommandSeam._create),
    "join": Route((Join,), CommandSeam._join),
    "take_seat": Route((TakeSeat,), CommandSeam._take_seat),
    "spectate": Route((Spectate,), CommandSeam._spectate),
    "leave": Route((Leave,), CommandSeam._leave),
    "rematch": Route((Rematch,), CommandSeam._rematch),
    "act": Route[CommandSeam, Act | HotAct]((Act, HotAct), CommandSeam._act),
    "chat": Route((ChatCommand,), CommandSeam._chat),
    "get_record": Route((GetRecord,), CommandSeam._get_record),
    "contribute_seed": Route((ContributeSeed,), CommandSeam._contribute_seed),
    "ready": Route((Ready,), CommandSeam._ready),
    **PLAYER_HANDLERS,
}
"""Each command type's handler, once identified. A handler replies, or raises :class:`CommandError`."""

OK_REPLIES = frozenset(command for command, reply in REPLIES.items() if reply == "ok") - {"act"}
"""CommandSeam whose success is answered with ``ok`` here (when they carry an ``id``). An ``act`` is
answered by the match, right after the action's messages, so that the journal knows where they end."""
