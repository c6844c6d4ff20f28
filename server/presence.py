"""Who is here: sessions by resume token, those in the lobby, and a dropped session's life.

A session whose connection closes stops watching at once; its seats wait ``grace_seconds`` for a
resume with its token; past the grace period the server plays for it (its seats go *away*), and
after ``session_seconds`` more it expires: its seats are given up and its token forgotten.
"In the lobby" means identified, connected, and at no table: those sessions get the lobby's pushes.
"""

from __future__ import annotations

import logging
import secrets
from functools import partial

from boneyard.protocol.values import cleaned_name
from boneyard.server.host import Clock
from boneyard.server.logs import ids
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.storage.logged import TableLog
from boneyard.server.storage.stored import StoredSession

log = logging.getLogger("boneyard.lobby")


class Presence:
    """Sessions by token, the sessions in the lobby, and the grace, away and expiry of dropped ones."""

    __slots__ = ("by_account", "by_token", "clock", "idle", "settings", "table_log")

    def __init__(self, settings: Settings, clock: Clock, table_log: TableLog) -> None:
        self.settings = settings
        self.clock = clock
        self.table_log = table_log
        self.idle: set[Session] = set()
        """Connected sessions at no table: they get every table's changes."""
        self.by_token: dict[str, Session] = {}
        self.by_account: dict[str, Session] = {}
        """Feature ``accounts``: each signed-in account's session (by account key): signing in again
        takes it back, as a resume does."""

    def restore_session(self, stored: StoredSession) -> Session:
        """A stored session holding seats and a token, with its message log if the server stopped
        gracefully (without one, it is made again from the journal: see ``storage.crashlog``)."""
        session = Session(stored.player_id, cleaned_name(stored.name), self.settings.resume_buffer_frames)
        session.token = stored.token
        session.epoch = stored.epoch or 0
        if stored.account is not None:
            self.signed_in(session, stored.account)
        if stored.log is not None:
            session.start_log(stored.log)
            session.seq = stored.seq
        self.by_token[stored.token] = session
        return session

    def token_for(self, session: Session) -> str:
        """The session's secret resume token, made when it first sits down (``secrets``: unguessable)."""
        if session.token is None:
            session.token = secrets.token_urlsafe(24)
            self.by_token[session.token] = session
            session.start_log()
            self.table_log.session(session)
        return session.token

    def signed_in(self, session: Session, account: str) -> None:
        """``session`` is the account's (its key): the account's next sign-in takes it back."""
        session.account = account
        self.by_account[account] = session

    def forget(self, session: Session) -> None:
        """The session is over: its token no longer resumes anything (nor its account's sign-in)."""
        session.cancel_timer()
        if session.account is not None and self.by_account.get(session.account) is session:
            del self.by_account[session.account]
        if session.token is not None:
            self.by_token.pop(session.token, None)
            self.table_log.session_gone(session.token)
        self.idle.discard(session)

    def session_dropped(self, session: Session) -> None:
        """A session's connection closed: it stops watching; its seats wait ``grace_seconds`` for a resume."""
        session.client = None
        self.idle.discard(session)
        for place, seat in list(session.tables.items()):
            if seat is None:
                place.abandon(session)
        seats = session.seats()
        if not seats:
            self.forget(session)
            return
        for table, seat in seats:
            table.seat_disconnected(seat)
        session.timer = self.clock.call_later(self.settings.grace_seconds, partial(self._grace_over, session))

    def _grace_over(self, session: Session) -> None:
        # Away past the grace period: the server plays for them until they come back or expire.
        for table, seat in session.seats():
            table.seat_away(seat)
        session.timer = self.clock.call_later(self.settings.session_seconds, partial(self._expired, session))

    def _expired(self, session: Session) -> None:
        session.timer = None
        log.info("session expired", extra=ids(player_id=session.player_id))
        for table in list(session.tables):
            table.abandon(session)
        self.forget(session)

    def enter_lobby(self, session: Session) -> None:
        """A connected session at no table is in the lobby (it gets the lobby's pushes)."""
        if session.client is not None and not session.tables and not session.relayed:
            self.idle.add(session)

    def at_table(self, session: Session) -> None:
        self.idle.discard(session)

    def left_table(self, session: Session) -> None:
        self.enter_lobby(session)
