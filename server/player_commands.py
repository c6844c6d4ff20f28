"""The handlers of the commands about players rather than tables: accounts (``link_device``), ratings
(``get_profile``, ``get_leaderboard``), matchmaking (``seek``, ``cancel_seek``) and moderation (``mute``,
``unmute``, ``report``). :mod:`~boneyard.server.commands` dispatches to them like to its own."""

from __future__ import annotations

from typing import Protocol

from boneyard.protocol import LinkCodeMessage
from boneyard.protocol.accounts import LinkDevice
from boneyard.protocol.moderation import Mute, Report, Unmute
from boneyard.protocol.ratings import GetLeaderboard, GetProfile
from boneyard.protocol.seeks import CancelSeek, Seek
from boneyard.server.accounts.signin import LINK_CODE_SECONDS, SignInDesk
from boneyard.server.errors import CommandError
from boneyard.server.lobby import Lobby
from boneyard.server.moderation import muted_key
from boneyard.server.ratings.replies import leaderboard_body, profile_body
from boneyard.server.routes import Handler, Route
from boneyard.server.session import Session
from boneyard.server.wire import body_of


class Front(Protocol):
    """What these handlers need of :class:`~boneyard.server.commands.CommandSeam`."""

    @property
    def lobby(self) -> Lobby: ...

    @property
    def accounts(self) -> SignInDesk: ...


class Charged(Protocol):
    def charge(self, reply_bytes: int) -> None: ...


def _link_device(front: Front, link: Charged, session: Session, command: LinkDevice) -> None:
    account = None if session.account is None else front.accounts.book.get(session.account)
    if account is None:
        raise CommandError("not_signed_in", "sign in first: link_device adds a key to your account")
    code = front.accounts.link_code(account)
    expires_ms = round(LINK_CODE_SECONDS * 1000)
    reply = LinkCodeMessage(type="link_code", seq=1, reply_to=command.id, code=code, expires_ms=expires_ms)
    session.deliver(body_of(reply))


def _mute(front: Front, link: Charged, session: Session, command: Mute) -> None:
    session.muted = session.muted | {muted_key(command.player)}
    front.accounts.book.keep_mutes(session.account, session.muted)  # a signed-in player's outlive the session


def _unmute(front: Front, link: Charged, session: Session, command: Unmute) -> None:
    session.muted = session.muted - {muted_key(command.player)}
    front.accounts.book.keep_mutes(session.account, session.muted)


def _report(front: Front, link: Charged, session: Session, command: Report) -> None:
    clock = front.lobby.clock
    front.lobby.reports.report(session, command.player, command.reason, clock.time(), clock.wall())


def _seek(front: Front, link: Charged, session: Session, command: Seek) -> None:
    front.lobby.matchmaker.seek(session, command)


def _cancel_seek(front: Front, link: Charged, session: Session, command: CancelSeek) -> None:
    front.lobby.matchmaker.cancel(session)


def _get_profile(front: Front, link: Charged, session: Session, command: GetProfile) -> None:
    body = profile_body(front.lobby.ratings, front.accounts.book, command)
    session.deliver(body)
    link.charge(len(body))


def _get_leaderboard(front: Front, link: Charged, session: Session, command: GetLeaderboard) -> None:
    body = leaderboard_body(front.lobby.ratings, front.accounts.book, command)
    session.deliver(body)
    link.charge(len(body))


PLAYER_HANDLERS: dict[str, Handler[Front]] = {
    "link_device": Route((LinkDevice,), _link_device),
    "get_profile": Route((GetProfile,), _get_profile),
    "get_leaderboard": Route((GetLeaderboard,), _get_leaderboard),
    "mute": Route((Mute,), _mute),
    "unmute": Route((Unmute,), _unmute),
    "report": Route((Report,), _report),
    "seek": Route((Seek,), _seek),
    "cancel_seek": Route((CancelSeek,), _cancel_seek),
}
"""Each player command type's handler (a reply, or :class:`CommandError`)."""
