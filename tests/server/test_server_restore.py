"""In-process durable servers: write-ahead (frames wait for the commit), a failing disk, and what a
restart restores (seats, tokens, waiting tables, deadlines, ids); ids never issued twice, the grace period."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from durability_kit import durable, hold_commits, query
from server_testkit import Player

from boneyard.server.storage.journal import Journal


async def my_turn(player: Player) -> Any:
    return await player.until(lambda m: m.type == "turn" and m.seat == player.seat and m.legal_actions)


def stored_actions(db: Path) -> int:
    return int(query(db, "SELECT count(*) FROM actions")[0][0])


async def test_an_actions_frames_wait_until_it_is_committed(tmp_path: Path, monkeypatch: Any) -> None:
    gate = hold_commits(monkeypatch)
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        await ana.request(type="create_table", game="straight", options={"players": 2}, seat=0, bots=[1])
        turn = await my_turn(ana)
        before = stored_actions(tmp_path / "boneyard.db")
        gate.clear()
        sent = await ana.send(type="act", table_id=turn.table_id, action=turn.legal_actions[0].model_dump())
        with pytest.raises(TimeoutError):
            await ana.next(timeout=0.3)  # the events and the ok are held while the commit hangs
        assert stored_actions(tmp_path / "boneyard.db") == before
        gate.set()
        reply = await ana.reply_to(sent)
        assert reply.type == "ok"
        assert any(m.type == "event" and m.event.type == "tile_played" for m in ana.log)
        assert stored_actions(tmp_path / "boneyard.db") > before


async def test_a_failed_commit_stops_the_server_before_anyone_hears_of_the_action(
    tmp_path: Path, monkeypatch: Any
) -> None:
    failing = threading.Event()
    commit = Journal._commit

    def flaky_commit(self: Journal) -> None:
        if failing.is_set():
            raise sqlite3.OperationalError("disk I/O error")
        commit(self)

    monkeypatch.setattr(Journal, "_commit", flaky_commit)
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        turn = await my_turn(ana)
        seen = len(ana.log)
        failing.set()
        await ana.send(type="act", table_id=turn.table_id, action=turn.legal_actions[0].model_dump())
        assert await ana.closed_with(5) == 1012
        assert not any(m.type in ("event", "ok") for m in ana.log[seen:])
        assert isinstance(server.failed, sqlite3.OperationalError)


async def test_a_restart_restores_seats_tokens_waiting_tables_and_deadlines(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30)
        moon_id = created.table.table_id
        turn = await my_turn(ana)
        # The server's own deadline (its clock is the loop's, time.monotonic), not one reckoned from the
        # turn's arrival, which a stalled test process reads late.
        assert server.lobby is not None
        timer = server.lobby.tables[moon_id].match.turns
        deadline = time.monotonic() + timer.time_left_ms() / 1000
        bo = await Player.connect(server.url, "bo")
        waiting = await bo.request(type="create_table", game="straight", options={"players": 2}, seat=1)
        straight_id = waiting.table.table_id
        wes = await Player.connect(server.url, "wes")
        await wes.request(type="spectate", table_id=moon_id)
    await asyncio.sleep(1.0)

    # A grace period shorter than the time left: the stored deadline stands (a longer one would extend it).
    async with durable(tmp_path, grace_seconds=1) as server:
        assert server.lobby is not None
        tables = server.lobby.tables
        assert sorted(tables) == sorted([moon_id, straight_id])
        moon, straight = tables[moon_id], tables[straight_id]
        assert moon.status == "playing" and straight.status == "waiting"
        assert [s.info()["name"] for s in moon.seats] == ["ana", "bot-1", "bot-2"]
        assert [s.session is not None for s in straight.seats] == [False, True]
        assert not moon.spectators and not moon.seats[0].connected
        left = moon.match.turns.time_left_ms()
        assert left is not None and abs(left / 1000 - (deadline - time.monotonic())) < 0.5

        back = await Player.connect(server.url, "ana", identify=False)
        resume = {"token": ana.token, "last_seq": ana.seq}
        asked = time.monotonic()
        welcome = await back.request(type="identify", name="ana", resume=resume)
        assert (welcome.resumed, welcome.player_id) == (True, ana.log[1].player_id)
        # A graceful stop kept ana's message log: she gets what was sent while she was away (the
        # table's changes as the server stopped and came back), no snapshot.
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert {m.type for m in replayed} == {"seat_status", "table_updated"}, replayed
        # Then her turn again, on the stored deadline: the restart bought her no time.
        status, update, reminder = [await back.next() for _ in range(3)]
        assert (status.type, status.seat, status.connected) == ("seat_status", 0, True)
        assert update.type == "table_updated"
        assert (reminder.type, reminder.seat) == ("turn", 0)
        assert reminder.legal_actions == turn.legal_actions
        # Made after the identify went out and before it was read: the time really left then.
        read = time.monotonic()
        assert (deadline - read) * 1000 - 50 <= reminder.time_left_ms <= (deadline - asked) * 1000 + 50

        cy = await Player.connect(server.url, "cy")
        # New ids are never any the first run issued (issue #15: an old id must not find a new table).
        assert cy.log[-1].player_id not in {ana.log[1].player_id, bo.log[1].player_id, wes.log[1].player_id}
        created = await cy.request(type="create_table", game="moon", seat=None, bots=[0, 1, 2])
        assert created.table.table_id not in {moon_id, straight_id}
        await cy.request(type="join", table_id=straight_id, seat=0)
        assert tables[straight_id].status == "playing"


# After a restart (issue #15): ids are never issued twice, and every seat gets at least the grace period.


async def test_ids_are_never_reused_after_a_restart(tmp_path: Path) -> None:
    issued_tables, issued_players = set(), set()
    for _ in range(3):
        async with durable(tmp_path) as server:
            ana = await Player.connect(server.url, "ana")
            welcome = ana.log[1]
            created = await ana.request(type="create_table", game="moon", seat=0, bots=[1])
            table_id = created.table.table_id
            assert (await ana.request(type="leave", table_id=table_id)).type == "ok"  # the table goes
            assert table_id not in issued_tables and welcome.player_id not in issued_players
            issued_tables.add(table_id)
            issued_players.add(welcome.player_id)


async def test_a_turn_whose_deadline_passed_while_the_server_was_down_gets_the_grace_period(
    tmp_path: Path,
) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30)
        table_id = created.table.table_id
        await ana.until(lambda m: m.type == "turn" and m.seat == 0 and bool(m.legal_actions))
    # The server stays down past the deadline (as if for minutes): the stored deadline is long gone.
    connection = sqlite3.connect(tmp_path / "boneyard.db")
    # A game's first move has its deadline in the table's row, a later one in the previous action's row.
    connection.execute("UPDATE tables SET deadline = ? WHERE table_id = ?", (time.time() - 600, table_id))
    connection.execute(
        "UPDATE actions SET deadline = ? WHERE table_id = ? AND deadline IS NOT NULL",
        (time.time() - 600, table_id),
    )
    connection.commit()
    connection.close()
    async with durable(tmp_path, grace_seconds=3) as server:
        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", resume={"token": ana.token, "last_seq": ana.seq}
        )
        assert welcome.resumed
        turn = await back.until(lambda m: m.type == "turn" and m.seat == 0)
        assert turn.legal_actions and turn.time_left_ms > 1000, turn  # nobody played for her
        auto = [m for m in back.log if m.type == "event" and m.auto]
        assert auto == []
