"""What the durable state's writers are handed, and what they read: :class:`TableLog`, called by the lobby
and the tables at the moments their durable state changes, and the table, seat and session as it reads them
(:class:`LoggedTable`, :class:`LoggedSeat`, :class:`LoggedSession`). :data:`NO_LOG` keeps nothing
(``durable = false``); :mod:`~boneyard.server.storage.store` writes to SQLite, and the cluster's table log
to its journal."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from boneyard.protocol.values import CommandId
from boneyard.server.storage.crashlog import SeatEnds


class LoggedSeat(Protocol):
    """A seat as it is stored (``boneyard.server.seats.Seat``)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str | None: ...
    @property
    def bot(self) -> bool: ...
    @property
    def auto(self) -> bool: ...
    @property
    def timeouts(self) -> int: ...
    @property
    def level(self) -> str: ...
    @property
    def token(self) -> str | None:
        """The resume token of the player holding the seat, if one does."""
        ...


class LoggedTable(Protocol):
    """A table as it is stored (``boneyard.server.table.Table``; this module does not import it)."""

    @property
    def table_id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def options_dict(self) -> dict[str, Any]: ...
    @property
    def turn_seconds(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def seed(self) -> str | None: ...
    @property
    def rematch(self) -> set[int]: ...
    @property
    def bot_delay_ms(self) -> int | None: ...
    @property
    def record_id(self) -> str | None: ...
    @property
    def seats(self) -> Sequence[LoggedSeat]: ...

    def deal_columns(self) -> tuple[str | None, str | None, bool]:
        """How the current game deals: algorithm, the players' seeds (JSON), whether it is dealt."""
        ...

    @property
    def owner(self) -> str | None: ...
    @property
    def invite(self) -> str | None: ...
    @property
    def hand_pause_ms(self) -> int | None: ...
    @property
    def open_bot_seats(self) -> bool: ...
    @property
    def rated_kind(self) -> str | None: ...
    @property
    def rated_left(self) -> Mapping[int, tuple[str, str]]:
        """Who left the rated game in progress: seat -> (account, name)."""
        ...

    @property
    def hand_ready(self) -> list[int] | None:
        """The seats ready in a pause between hands; ``None``: no pause."""
        ...


class LoggedSession(Protocol):
    """A session as it is stored (``boneyard.server.session.Session``)."""

    @property
    def token(self) -> str | None: ...
    @property
    def player_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def epoch(self) -> int: ...
    @property
    def account(self) -> str | None:
        """The key of the account it is signed in to (``None``: a guest)."""
        ...

    @property
    def log(self) -> Sequence[bytes] | None: ...
    @property
    def folds(self) -> bool:
        """Its log holds messages in the shape of feature ``turn_in_event``: not stored (a restored
        session's connection has no features, so it resumes by snapshot)."""
        ...


class TableLog(Protocol):
    """Where the lobby and the tables note every durable change.

    Calls do not wait: a write is queued, and made durable in the background. What makes it
    write-ahead is the backend's ``Gate`` (``boneyard.server.outbox``): every frame made after a write
    waits there until that write is committed, so no client hears of a change that could be lost."""

    def table(self, table: LoggedTable, *, stored: bool = False) -> None:
        """The table's row and seats as they are now (``stored``: they already are, after a restore)."""
        ...

    def table_removed(self, table_id: str) -> None: ...

    def action(self, table_id: str, game: int, move: int, seat: int, action: Any, auto: bool) -> None:
        """An accepted action: move ``move`` (from 0) of game ``game`` at the table."""
        ...

    def action_end(
        self, table_id: str, game: int, move: int, reply_to: CommandId | None, ends: SeatEnds
    ) -> None:
        """Move ``move``'s messages are all queued: by seat, the ``(epoch, seq)`` they end at for the
        player there (``None``: no player), and the ``ok`` it was answered with (``reply_to``)."""
        ...

    def deadline(self, table_id: str, move: int, when: float) -> None:
        """The seat to move (at move ``move``) must act by ``when`` (wall-clock seconds)."""
        ...

    def session(self, session: LoggedSession) -> None:
        """A session holding a resume token."""
        ...

    def session_gone(self, token: str) -> None: ...

    def session_logs(self, sessions: Iterable[LoggedSession]) -> None:
        """At a graceful stop: each session's ``seq`` and message log, for exact resumes after the restart."""
        ...

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once everything written so far is committed (at once, if nothing waits)."""
        ...


class NoLog:
    """A :class:`TableLog` that keeps nothing (``durable = false``)."""

    def table(self, table: LoggedTable, *, stored: bool = False) -> None:
        pass

    def table_removed(self, table_id: str) -> None:
        pass

    def action(self, table_id: str, game: int, move: int, seat: int, action: Any, auto: bool) -> None:
        pass

    def action_end(
        self, table_id: str, game: int, move: int, reply_to: CommandId | None, ends: SeatEnds
    ) -> None:
        pass

    def deadline(self, table_id: str, move: int, when: float) -> None:
        pass

    def session(self, session: LoggedSession) -> None:
        pass

    def session_gone(self, token: str) -> None:
        pass

    def session_logs(self, sessions: Iterable[LoggedSession]) -> None:
        pass

    def after_commit(self, callback: Callable[[], None]) -> None:
        callback()


NO_LOG = NoLog()
