"""Rebuilding the lobby at start from what the database holds.

Every stored table comes back with its seats, names, bots and resume tokens; a game in progress is
dealt again from its stored seed and its stored actions are replayed through a fresh engine, which
reproduces it exactly (the dealer is asked in the same order, so the same tiles come out). The turn
then resumes: a bot moves, or a player's timer runs out at the stored wall-clock deadline.

A restart drops every connection, so each restored session is treated as dropped at that moment:
its seats wait ``grace_seconds`` for the player to resume with the same token. A graceful stop
stores each session's ``seq`` and message log, so a resume after it replays exactly the messages
missed, as any resume does. After a crash there is no log (writing every message down would cost
more than the events themselves): such a resume gets ``welcome{resumed: true, replayed: 0}`` and a
fresh ``snapshot`` of each table (PROTOCOL.md section 7). Either way the new connection numbers
its ``seq`` from its ``hello``.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from boneyard.protocol.values import cleaned_name
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.registry import game_spec
from boneyard.server.session import Session
from boneyard.server.storage.db import StorageError
from boneyard.server.storage.store import StoredSession, StoredTable
from boneyard.server.table import Table

if TYPE_CHECKING:
    from boneyard.server.lobby import Lobby

log = logging.getLogger("boneyard.storage")


def restore(lobby: Lobby, tables: list[StoredTable], sessions: dict[str, StoredSession]) -> int:
    """Put the stored tables and sessions back in ``lobby``; the number of tables restored."""
    now = time.time()
    restored: dict[str, Session] = {}
    turns: list[tuple[Table, float | None]] = []
    for stored in tables:
        try:
            table = _table(lobby, stored, sessions, restored)
        except Exception as error:
            raise StorageError(f"table {stored.table_id} does not restore: {error}") from error
        if table.status == "playing":
            left = None
            if stored.deadline is not None and stored.deadline_move == table.moves:
                # The clock ran while the server was down: the player gets at least the grace period
                # to reconnect before anything is played for them.
                left = max(lobby.settings.grace_seconds, stored.deadline - now)
            turns.append((table, left))
    lobby.continue_ids([t.table_id for t in tables], [s.player_id for s in restored.values()])
    for session in restored.values():
        lobby.session_dropped(session)  # seats wait grace_seconds for the player to resume
    for table, left in turns:
        table.resume_turn(left)
    if tables:
        log.info("restored %d tables and %d sessions", len(tables), len(restored))
    return len(tables)


def _table(
    lobby: Lobby, stored: StoredTable, sessions: dict[str, StoredSession], restored: dict[str, Session]
) -> Table:
    spec = game_spec(stored.game)
    table = Table(lobby, stored.table_id, spec, spec.options_from_dict(stored.options), stored.turn_seconds)
    table.status = stored.status
    table.rematch = set(stored.rematch)
    table.owner, table.invite = stored.owner, stored.invite
    table.bot_delay_ms, table.record_id = stored.bot_delay_ms, stored.record_id
    for row in stored.seats:
        seat = table.seats[row.seat]
        name = None if row.name is None else cleaned_name(row.name)  # stored before names were checked
        seat.name, seat.bot, seat.auto, seat.timeouts = name, row.bot, row.auto, row.timeouts
        seat.level = row.level
        if row.token is None:
            continue
        session = restored.get(row.token)
        if session is None:
            known = sessions.get(row.token)
            if known is None:  # the token was forgotten as the seat was stored: given up
                if stored.status == "playing":
                    seat.make_bot()
                else:
                    seat.empty()
                continue
            session = restored[row.token] = _session(lobby, known)
        seat.session = session
        session.tables[table] = row.seat
    if stored.seed is not None and stored.status != "waiting":
        actions = [(seat, spec.action_from_record(action), auto) for seat, action, auto in stored.actions]
        seeds = GameSeeds.stored(
            len(table.seats), stored.seed, stored.deal_algorithm, stored.player_seeds, stored.dealt
        )
        table.replay(stored.games, seeds, actions)
    else:
        table.games = stored.games
    lobby.tables[table.table_id] = table
    lobby.wal.table(table, stored=True)
    return table


def _session(lobby: Lobby, stored: StoredSession) -> Session:
    """A session that holds seats and a token, with its message log if the server stopped gracefully
    (without one, its first resume gets snapshots)."""
    session = Session(stored.player_id, cleaned_name(stored.name), lobby.settings.resume_buffer_frames)
    session.token = stored.token
    if stored.log is not None:
        session.start_log()
        assert session.log is not None
        session.log.extend(stored.log)
        session.seq = stored.seq
    lobby.by_token[stored.token] = session
    return session
