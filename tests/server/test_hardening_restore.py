"""After a restart (issue #15): ids are never issued twice, and every seat gets at least the grace period."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from durability_kit import durable
from server_testkit import Player


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
