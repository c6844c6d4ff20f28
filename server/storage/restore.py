"""Rebuilding the lobby at start from what the database holds.

Every stored table comes back with its seats, names, bots and resume tokens; a game in progress is
dealt again from its stored seed and its stored actions are replayed through a fresh engine, which
reproduces it exactly (the dealer is asked in the same order, so the same tiles come out). The turn
then resumes: a bot moves, or a player's timer runs out at the stored wall-clock deadline.

A restart drops every connection, so each restored session is treated as dropped at that moment:
its seats wait ``grace_seconds`` for the player to resume with the same token. A graceful stop
stores each session's ``seq`` and message log, so a resume after it replays exactly the messages
missed, as any resume does. After a crash there is no stored log (writing every message down would
cost more than the events themselves): the log is made again from the journal, as far as it can be
exactly (:mod:`~boneyard.server.storage.crashlog`), and a resume asking for more gets
``welcome{resumed: true, replayed: 0}`` and a fresh ``snapshot`` of each table (PROTOCOL.md
section 7). Either way the new connection numbers its ``seq`` from its ``hello``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from boneyard.server.games.registry import GameSpec, game_spec
from boneyard.server.storage import crashlog
from boneyard.server.storage.db import StorageError
from boneyard.server.storage.logged import TableLog
from boneyard.server.storage.stored import StoredSession, StoredTable

log = logging.getLogger("boneyard.storage")


class RestoredTable(Protocol):
    """What a restore does to a table (``boneyard.server.table.Table``): the methods that build one live."""

    @property
    def status(self) -> str: ...
    @property
    def moves(self) -> int: ...
    def seat_player(self, session: Any, seat: int, *, hand_over: bool = False) -> None: ...
    def seat_bot(self, seat: int, level: str | None = None) -> None: ...
    def restore_seat(self, seat: int, *, auto: bool, timeouts: int) -> None: ...
    def restore_game(
        self, stored: StoredTable, actions: list[tuple[int, Any, bool]], regenerate_from: int | None = None
    ) -> list[Any]: ...
    def restored(self) -> None: ...
    def resume_turn(self, seconds_left: float | None) -> None: ...


class RestoreTarget(Protocol):
    """Where tables and sessions are restored (``boneyard.server.lobby.Lobby``; not imported here)."""

    def open_table(
        self, spec: GameSpec, options: Any, seconds: int | None, /, *, table_id: str
    ) -> RestoredTable: ...
    def restore_session(self, stored: StoredSession) -> Any: ...
    def continue_ids(self, table_ids: Sequence[str], player_ids: Sequence[str]) -> None: ...
    def session_dropped(self, session: Any) -> None: ...
    @property
    def table_log(self) -> TableLog: ...


def restore(
    target: RestoreTarget,
    tables: list[StoredTable],
    sessions: dict[str, StoredSession],
    now: float,
    grace_seconds: float = 0.0,
    log_frames: int = 0,
) -> int:
    """Put the stored tables and sessions back in ``target`` (``now``: the wall-clock time, which stored
    deadlines are measured against; a turn left gets at least ``grace_seconds``; ``log_frames``: the
    sessions' log size, for logs made again after a crash); the number of tables restored."""
    restored: dict[str, Any] = {}
    turns: list[tuple[RestoredTable, float | None]] = []
    sent: dict[str, list[crashlog.Sent]] = {}
    for stored in tables:
        try:
            table = _table(target, stored, sessions, restored, sent, log_frames)
        except Exception as error:
            raise StorageError(f"table {stored.table_id} does not restore: {error}") from error
        if table.status == "playing":
            left = None
            if stored.deadline is not None and stored.deadline_move == table.moves:
                # The clock ran while the server was down: the player gets at least the grace period
                # to reconnect before anything is played for them.
                left = max(grace_seconds, stored.deadline - now)
            turns.append((table, left))
    target.continue_ids([t.table_id for t in tables], [sessions[token].player_id for token in restored])
    for token, session in restored.items():
        if sessions[token].log is None:
            _rebuild_log(target, session, sent.get(token, []))
    for session in restored.values():
        target.session_dropped(session)  # seats wait grace_seconds for the player to resume
    for table, left in turns:
        table.resume_turn(left)
    if tables:
        log.info("restored %d tables and %d sessions", len(tables), len(restored))
    return len(tables)


def _rebuild_log(target: RestoreTarget, session: Any, sent: list[crashlog.Sent]) -> None:
    """After a crash: the session's log as far as the journal makes it again (it goes on in the same
    numbering); else a new numbering (its seqs from 0 must not pass for the old ones')."""
    rebuilt = crashlog.rebuilt(sent)
    if rebuilt is None:
        session.renumber()
        target.table_log.session(session)
        return
    seq, bodies = rebuilt
    session.start_log(bodies)
    session.seq = seq


def _table(
    target: RestoreTarget,
    stored: StoredTable,
    sessions: dict[str, StoredSession],
    restored: dict[str, Any],
    sent: dict[str, list[crashlog.Sent]],
    log_frames: int,
) -> RestoredTable:
    spec = game_spec(stored.game)
    options = spec.options_from_dict(stored.options)
    table = target.open_table(spec, options, stored.turn_seconds, table_id=stored.table_id)
    for row in stored.seats:
        if row.token is None:
            if row.bot:
                table.seat_bot(row.seat, row.level)
                table.restore_seat(row.seat, auto=row.auto, timeouts=row.timeouts)
            continue
        known = sessions.get(row.token)
        if known is None:  # the token was forgotten as the seat was stored: given up
            if stored.status == "playing":
                table.seat_bot(row.seat)
            continue
        session = restored.get(row.token)
        if session is None:
            session = restored[row.token] = target.restore_session(known)
        table.seat_player(session, row.seat, hand_over=row.bot)
        table.restore_seat(row.seat, auto=row.auto, timeouts=row.timeouts)
    actions = [(seat, spec.action_from_record(action), auto) for seat, action, auto in stored.actions]
    crashed = [
        (row.seat, known)
        for row in stored.seats
        if row.token is not None
        and (known := sessions.get(row.token)) is not None
        and known.log is None
        and known.epoch is not None
    ]
    start = crashlog.regenerate_from(len(actions), log_frames) if crashed and log_frames else None
    regenerated = table.restore_game(stored, actions, start)
    if start is not None:
        actors = [seat for seat, _, _ in actions]
        for seat, known in crashed:
            assert known.epoch is not None
            found = crashlog.sent_to(seat, known.epoch, actors, stored.ends, regenerated, start)
            sent.setdefault(known.token, []).extend(found)
    table.restored()
    return table
