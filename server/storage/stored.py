"""What the server reads back from the database at start: the ``Stored*`` values and :func:`load`.

A table is stored as what rebuilds it (see :mod:`~boneyard.server.storage.store`, the write side):
its options, seats and tokens, the current game's seeds and accepted actions, and the turn's
deadline as wall-clock time. :func:`load` returns exactly that, and the sessions holding tokens;
:func:`~boneyard.server.storage.restore.restore` builds the tables again from it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import msgpack

from boneyard.server.storage.crashlog import Ends, parsed_ends
from boneyard.server.storage.store import parsed_left


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    name: str | None
    bot: bool
    auto: bool
    token: str | None
    timeouts: int = 0
    level: str = "basic"


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_id: str
    game: str
    options: dict[str, Any]
    turn_seconds: int | None
    status: str
    games: int
    seed: str | None
    rematch: list[int]
    deadline: float | None
    deadline_move: int | None
    seats: list[StoredSeat]
    actions: list[tuple[int, dict[str, Any], bool]]
    """The current game's accepted actions, in order: ``(seat, wire action, auto)``."""
    ends: list[Ends | None] = field(default_factory=list)
    """Where each action's messages ended for each seated player (see
    :mod:`~boneyard.server.storage.crashlog`)."""
    bot_delay_ms: int | None = None
    record_id: str | None = None
    deal_algorithm: str | None = None
    """``None``: a game stored before fair deals (the keyed dealer over ``seed``)."""
    player_seeds: str | None = None
    """The players' contributed seeds, JSON (see :class:`~server.fairdeal.GameSeeds`)."""
    dealt: bool = True
    owner: str | None = None
    invite: str | None = None
    hand_pause_ms: int | None = None
    hand_ready: list[int] | None = None
    """The seats ready in the pause between hands the game was in (``None``: none)."""
    open_bot_seats: bool = False
    """Anyone may take a bot's seat at this untimed table (feature ``bot_seats``)."""
    rated: str | None = None
    """The kind a rated table's games are rated as (feature ``ratings``); ``None``: not rated."""
    rated_left: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Who left the rated game in progress: seat -> (account, name); the game counts as their loss."""


@dataclass(frozen=True, slots=True)
class StoredSession:
    token: str
    player_id: str
    name: str
    seq: int = 0
    log: tuple[bytes, ...] | None = None
    """The message log as it was at a graceful stop (``None`` after a crash: see
    :mod:`~boneyard.server.storage.crashlog`)."""
    epoch: int | None = None
    """The numbering of its last connection's ``seq`` (``None``: stored before epochs)."""
    account: str | None = None
    """The key of the account it is signed in to (``None``: a guest, or stored before accounts)."""


def load(connection: sqlite3.Connection) -> tuple[list[StoredTable], dict[str, StoredSession]]:
    """Every stored table (in the order they were created) and every session holding a token."""
    seats: dict[str, list[StoredSeat]] = {}
    for table_id, seat, name, bot, auto, token, timeouts, level in connection.execute(
        "SELECT table_id, seat, name, bot, auto, token, timeouts, level FROM seats ORDER BY table_id, seat"
    ):
        seats.setdefault(table_id, []).append(
            StoredSeat(seat, name, bool(bot), bool(auto), token, timeouts, level)
        )
    actions: dict[str, list[tuple[int, dict[str, Any], bool]]] = {}
    ends: dict[str, list[Ends | None]] = {}
    next_deadline: dict[str, float | None] = {}
    """The deadline stored with each table's last action (that of the move after it)."""
    for table_id, seat, action, auto, end, deadline in connection.execute(
        "SELECT a.table_id, a.seat, a.action, a.auto, a.ends, a.deadline FROM actions AS a"
        " JOIN tables AS t ON a.table_id = t.table_id AND a.game = t.games ORDER BY a.table_id, a.move"
    ):
        actions.setdefault(table_id, []).append((seat, json.loads(action), bool(auto)))
        ends.setdefault(table_id, []).append(parsed_ends(end))
        next_deadline[table_id] = deadline
    tables = [
        StoredTable(
            table_id=row[0],
            game=row[1],
            options=json.loads(row[2]),
            turn_seconds=row[3],
            status=row[4],
            games=row[5],
            seed=row[6],
            rematch=json.loads(row[7]),
            **_deadline(row[8], row[9], len(actions.get(row[0], ())), next_deadline.get(row[0])),
            seats=seats.get(row[0], []),
            actions=actions.get(row[0], []),
            ends=ends.get(row[0], []),
            bot_delay_ms=row[10],
            record_id=row[11],
            deal_algorithm=row[12],
            player_seeds=row[13],
            dealt=bool(row[14]),
            owner=row[15],
            invite=row[16],
            hand_pause_ms=row[17],
            hand_ready=None if row[18] is None else json.loads(row[18]),
            open_bot_seats=bool(row[19]),
            rated=row[20],
            rated_left=parsed_left(row[21]),
        )
        for row in connection.execute(
            "SELECT table_id, game, options, turn_seconds, status, games, seed, rematch, deadline,"
            " deadline_move, bot_delay_ms, record_id, deal_algorithm, player_seeds, dealt, owner, invite,"
            " hand_pause_ms, hand_ready, open_bot_seats, rated, rated_left FROM tables"
        )
    ]
    tables.sort(key=lambda t: id_number(t.table_id))
    rows = connection.execute("SELECT token, player_id, name, seq, log, epoch, account FROM sessions")
    sessions = {
        token: StoredSession(token, player_id, name, seq, _unpacked(blob), epoch, account)
        for token, player_id, name, seq, blob, epoch, account in rows
    }
    return tables, sessions


def _deadline(
    in_table: float | None, in_table_move: int | None, moves: int, after_last: float | None
) -> dict[str, Any]:
    """The turn's stored deadline and the move it is for: with the game's last action if it has one
    (written since schema 11), else in the table's row (a game's first move, or an older server's)."""
    if moves and after_last is not None:
        return {"deadline": after_last, "deadline_move": moves}
    return {"deadline": in_table, "deadline_move": in_table_move}


def _unpacked(blob: bytes | None) -> tuple[bytes, ...] | None:
    return None if blob is None else tuple(msgpack.unpackb(blob))


def id_number(identifier: str) -> int:
    """The number in an id like ``t12`` or ``p7-k2x9q0ab`` (0 if there is none).

    >>> id_number("t12"), id_number("p7-k2x9q0ab"), id_number("x")
    (12, 7, 0)
    """
    digits = identifier[1:].partition("-")[0]
    return int(digits) if digits.isdigit() else 0
