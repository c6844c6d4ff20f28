"""Nothing lost: a server killed (``kill -9``) or stopped (SIGTERM) mid-hand comes back with every game.

Two players at a Moon and a Straight table (with bots) play part of a hand on a real server
subprocess with a real SQLite file; the server dies; a new one starts on the same file; the
players resume with their tokens and play on; both games finish; the records that
``boneyard-server records export`` writes replay through the rules and hold every action once.
A damaged write-ahead log gives a warning and keeps a copy; a damaged B-tree stops the server with one line.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from durability_kit import (
    ServerProcess,
    durable,
    export,
    record_actions,
    seen_actions,
    server_on,
    start_server,
)
from server_testkit import Player, choose, is_event

from boneyard.server.games.record_replay import replay
from boneyard.server.storage.db import open_database
from boneyard.server.storage.walcheck import check_wal

TABLES = {
    "ana": {"game": "moon", "options": {"target": 7}, "bots": [1, 2]},
    "bea": {"game": "straight", "options": {"players": 2, "target": 60}, "bots": [1]},
}


class Seated:
    """A player at one table, noting the actions the server confirmed (``ok``)."""

    def __init__(self, player: Player, table_id: str) -> None:
        self.player = player
        self.table_id = table_id
        self.acted: list[dict[str, Any]] = []
        self.rng = random.Random(player.name)
        self.record_id: str | None = None

    async def act_on_turn(self) -> bool:
        """Read to this seat's next turn and act; False once the game is over."""
        player = self.player
        while True:
            message = await player.next()
            assert message.type != "error", message
            if is_event("game_over")(message) and message.table_id == self.table_id:
                self.record_id = message.event.record_id
                return False
            if message.type == "turn" and message.table_id == self.table_id and message.legal_actions:
                action = choose(message.legal_actions, self.rng).model_dump()
                sent = await player.send(type="act", table_id=self.table_id, action=action)
                reply = await player.reply_to(sent)
                assert reply.type == "ok", reply
                self.acted.append(action)
                return True

    async def play_into_a_hand(self, acts: int) -> None:
        """Act ``acts`` times, then on until the hand in progress is not over (the server dies mid-hand)."""
        while len(self.acted) < acts or not mid_hand(self.player.log, self.table_id):
            assert await self.act_on_turn(), "the game ended before the server was stopped"

    async def play_to_the_end(self) -> None:
        while await self.act_on_turn():
            pass


def mid_hand(messages: list[Any], table_id: str) -> bool:
    marks = [
        m.event.type
        for m in messages
        if m.type == "event" and m.table_id == table_id and m.event.type in ("hand_started", "hand_scored")
    ]
    return bool(marks) and marks[-1] == "hand_started"


async def sit_down(server: ServerProcess) -> dict[str, Seated]:
    seated = {}
    for name, table in TABLES.items():
        player = await Player.connect(server.url, name)
        created = await player.request(type="create_table", seat=0, turn_seconds=None, **table)
        seated[name] = Seated(player, created.table.table_id)
    return seated


REWIND = 4
"""A resume after a graceful stop claims to have missed this many of the messages it did read."""


async def resume(server: ServerProcess, before: Seated, *, graceful: bool) -> Seated:
    """A new connection resuming the old one's session: the seat comes back.

    After a graceful stop the log was stored: resuming from ``REWIND`` messages back replays exactly
    those, then what was sent while away (the seat's own ``seat_status`` and ``table_updated``, at the
    stop and again at the restore, then any bot moves since), and no snapshot. After a crash the log is
    made again from the journal: resuming from the last message read replays what was committed but
    not read, if anything (events and turns), then the restore's ``seat_status`` and ``table_updated``,
    then any bot moves since (tests/server/test_server_resume.py rewinds too).
    """
    old = before.player
    assert old.token is not None
    player = await Player.connect(server.url, old.name, identify=False)
    last_seq = old.seq - REWIND if graceful else old.seq
    resume = {"token": old.token, "last_seq": last_seq}
    welcome = await player.request(type="identify", name=old.name, resume=resume)
    assert welcome.type == "welcome" and welcome.resumed, welcome
    assert [(s.table_id, s.seat) for s in welcome.seats] == [(before.table_id, 0)]
    if graceful:
        replayed = [await player.next() for _ in range(welcome.replayed)]
        again = [m.model_dump(exclude={"seq"}) for m in replayed[:REWIND]]
        assert again == [m.model_dump(exclude={"seq"}) for m in old.log[-REWIND:]]
        away = [(m.type, getattr(m, "connected", None)) for m in replayed[REWIND : REWIND + 4]]
        assert away == [("seat_status", False), ("table_updated", None)] * 2
        # Then what the restored table did before the resume: the bots may have moved on.
        assert {m.type for m in replayed[REWIND + 4 :]} <= {"event", "turn"}
        assert not any(m.type == "snapshot" for m in player.log)
    else:
        replayed = [await player.next() for _ in range(welcome.replayed)]
        kinds = [(m.type, getattr(m, "connected", None)) for m in replayed]
        at = kinds.index(("seat_status", False))
        assert kinds[at : at + 2] == [("seat_status", False), ("table_updated", None)], replayed
        # Before: what was committed but not read; after: the bots' moves since the restore.
        assert {m.type for m in replayed[:at] + replayed[at + 2 :]} <= {"event", "turn"}
        assert not any(m.type == "snapshot" for m in player.log)
    player.token, player.seat, player.table_id = old.token, 0, before.table_id
    after = Seated(player, before.table_id)
    after.acted, after.rng = before.acted, before.rng
    return after


@pytest.mark.parametrize(
    ("signum", "sync", "window"),
    [
        (signal.SIGKILL, "full", "5"),  # the defaults
        (signal.SIGTERM, "full", "5"),
        (signal.SIGKILL, "normal", "0"),
        (signal.SIGKILL, "full", "20"),
        (signal.SIGKILL, "full", "0"),
    ],
    ids=["kill-9", "sigterm", "kill-9-db-sync-normal", "kill-9-commit-window", "kill-9-no-commit-window"],
)
async def test_games_survive_the_server_dying_mid_hand(
    tmp_path: Path, signum: int, sync: str, window: str
) -> None:
    # db_sync=normal commits without fsync: a killed process still loses nothing (the OS has the WAL).
    # A commit window holds commits (and the frames waiting for them) back: still nothing seen is lost.
    db = tmp_path / "boneyard.db"
    env = {"BONEYARD_DB_SYNC": sync, "BONEYARD_COMMIT_WINDOW_MS": window}
    async with server_on(db, env) as first:
        seated = await sit_down(first)
        await asyncio.gather(*(s.play_into_a_hand(acts=3) for s in seated.values()))
        code = await first.stop(signum)
        closes = [await s.player.closed_with(5) for s in seated.values()]  # reading all they were sent
        if signum == signal.SIGTERM:
            assert (code, closes) == (0, [1012, 1012])
        else:
            assert (code, closes) == (-signal.SIGKILL, [1006, 1006])
        seen = {name: seen_actions(s.player.log, s.table_id) for name, s in seated.items()}

    async with server_on(db, env) as second:
        graceful = signum == signal.SIGTERM
        resumed = {name: await resume(second, s, graceful=graceful) for name, s in seated.items()}
        await asyncio.gather(*(s.play_to_the_end() for s in resumed.values()))
        fetched = {}
        for name, s in resumed.items():
            assert s.record_id is not None
            reply = await s.player.request(type="get_record", record_id=s.record_id)
            fetched[name] = reply.record.model_dump(mode="json")
        assert await second.stop() == 0

    records = await export(db)
    assert len(records) == 2
    for name, s in resumed.items():
        (record,) = [r for r in records if r == fetched[name]]
        replay(record)  # every action legal, every hand's scores and the winner as the rules give them
        actions = record_actions(record)
        # What the players saw before the server died is what the server kept: nothing seen was forgotten.
        assert actions[: len(seen[name])] == seen[name]
        # Each action the player took (and was told ``ok`` for) is in the record once, in order.
        mine = [{k: v for k, v in a.items() if k not in ("seat", "auto")} for h in record["hands"]
                for a in h["actions"] if a["seat"] == 0]  # fmt: skip
        assert [strip(a) for a in mine] == [strip(a) for a in s.acted]
        assert not any(a.get("auto") for h in record["hands"] for a in h["actions"])


def strip(action: dict[str, Any]) -> dict[str, Any]:
    """An action as the record keeps it (no ``end`` in Moon; a draw's tile is the record's own)."""
    out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in action.items() if v is not None}
    if out["type"] == "draw":
        out.pop("tile", None)
    return out


async def test_the_commit_window_setting_reaches_the_journal(tmp_path: Path) -> None:
    async with durable(tmp_path, commit_window_ms=20) as server:
        assert server.storage is not None and server.storage.journal.window == 0.02
    async with durable(tmp_path, db_sync="normal", commit_window_ms=20) as server:
        assert server.storage is not None and server.storage.journal.window == 0  # no fsync to share
    async with durable(tmp_path) as server:
        assert server.storage is not None and server.storage.journal.window == 0.005  # the default, 5 ms


# A crash and a damaged disk (issue #15, item 11): a damaged write-ahead log gives a warning and keeps a
# copy (no silent loss), and a damaged B-tree stops the server with one line.


CRASHING_WRITER = """
import os, sys
from pathlib import Path
from boneyard.server.storage.db import open_database
connection = open_database(Path(sys.argv[1])).connection
connection.execute("PRAGMA wal_autocheckpoint = 0")
for i in range(int(sys.argv[2])):
    sql = "INSERT INTO records (record_id, game, record) VALUES (?, 'moon', ?)"
    connection.execute(sql, (f"r{i}", "x" * 3000))
os._exit(0)  # like kill -9: no close, so no checkpoint; the commits live in the log only
"""


def commits(db: Path, count: int) -> None:
    """``count`` committed records, left in the write-ahead log by a process that dies without closing."""
    subprocess.run([sys.executable, "-c", CRASHING_WRITER, str(db), str(count)], check=True, timeout=30)
    assert db.with_name(db.name + "-wal").stat().st_size > 0


def damage_frame(db: Path, frame: int) -> None:
    wal = db.with_name(db.name + "-wal")
    data = bytearray(wal.read_bytes())
    page_size = int.from_bytes(data[8:12], "big")
    at = 32 + frame * (24 + page_size) + 24 + 100
    data[at : at + 8] = bytes(b ^ 0xFF for b in data[at : at + 8])
    wal.write_bytes(bytes(data))


def test_an_intact_log_is_no_damage_and_a_damaged_frame_is_found(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    commits(db, 6)
    assert check_wal(db) is None
    damage_frame(db, 3)
    damage = check_wal(db)
    assert damage is not None and damage.lost_commits >= 3 and damage.good_frames <= 3


async def test_a_damaged_log_after_a_crash_gives_a_warning_and_keeps_a_copy(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    commits(db, 6)
    damage_frame(db, 3)
    wal = db.with_name("boneyard.db-wal").read_bytes()
    async with server_on(db) as server:
        assert await server.stop(signal.SIGKILL) == -9
        assert server.process.stderr is not None
        err = (await server.process.stderr.read()).decode()
    (warning,) = [line for line in err.splitlines() if "damaged" in line]
    assert "warning" in warning and "lost" in warning, warning
    (copy,) = tmp_path.glob("boneyard.db-wal.damaged-*")
    assert copy.read_bytes() == wal  # nothing lost silently: the whole log is kept for recovery
    assert str(copy) in warning


async def test_a_damaged_btree_stops_the_server_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    database = open_database(db)
    database.connection.executemany(
        "INSERT INTO records (record_id, game, record) VALUES (?, 'moon', ?)",
        [(f"r{i}", "y" * 300) for i in range(300)],
    )
    database.close()
    data = bytearray(db.read_bytes())
    page = 4096
    data[8 * page + 1 : 8 * page + 3] = b"\x0f\xf0"  # a leaf's first free block: quick_check finds it
    db.write_bytes(bytes(data))
    process = await start_server(db)
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boneyard-server: ") and "corrupt" in lines[0], lines
