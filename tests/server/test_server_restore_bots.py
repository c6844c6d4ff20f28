"""Durable bots: they move no faster than their moves are committed, and a restored table's bots choose
exactly as they would have, searching levels included; a seat's turn timeouts survive a restart too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from durability_kit import durable, hold_commits, query
from server_testkit import Player, http_get, is_event, running_server

from boneyard.server.app import BoneyardServer

BOTS_TABLE = {
    "type": "create_table",
    "game": "moon",
    "options": {"target": 31},
    "seat": None,
    "bots": [0, 1, 2],
}


def moves(server: BoneyardServer, table_id: str) -> int:
    assert server.lobby is not None
    return server.lobby.tables[table_id].moves


def is_action_of(event: Any, seat: int) -> bool:
    return event.type in ("bid_made", "passed") and event.seat == seat


def records(db: Path) -> list[dict[str, Any]]:
    return [json.loads(row[0]) for row in query(db, "SELECT record FROM records")]


async def test_bots_wait_for_their_moves_to_be_committed(tmp_path: Path, monkeypatch: Any) -> None:
    # Flat-out bots that outran the disk would pile up frames held for the commit, without bound.
    gate = hold_commits(monkeypatch)
    async with durable(tmp_path, bot_workers=1) as server:
        cy = await Player.connect(server.url, "cy")
        table_id = (await cy.request(**BOTS_TABLE)).table.table_id
        await cy.request(type="spectate", table_id=table_id)
        await cy.until(lambda m: m.type == "event" and m.event.type == "bid_made")
        gate.clear()
        await asyncio.sleep(0.05)  # the batch under way when the gate closed hangs now
        stalled = moves(server, table_id)
        await asyncio.sleep(0.3)
        assert moves(server, table_id) <= stalled + 1, "no more than the move queued behind the hung commit"
        gate.set()
        await cy.until(lambda m: m.type == "event" and m.event.type == "trick_won")
        assert moves(server, table_id) > stalled + 1


LEVELS_TABLE = {**BOTS_TABLE, "options": {"target": 9}, "bot_levels": ["strong", "good", "basic"]}
"""Searching bots: their levels are stored with the seats, and each choice comes from the view, the game's
seed and the move number alone, whichever worker process makes it."""


@pytest.mark.parametrize(
    ("table", "seed", "levels"),
    [(BOTS_TABLE, 11, ["basic"] * 3), (LEVELS_TABLE, 5, ["strong", "good", "basic"])],
    ids=["basic", "searching"],
)
async def test_a_restored_bots_table_plays_on_exactly_as_it_would_have(
    tmp_path: Path, monkeypatch: Any, table: dict[str, Any], seed: int, levels: list[str]
) -> None:
    # The same fixed seed deals the same tiles; the bots' choices come from the game's seed and the
    # move number, so the game interrupted by a restart ends as the uninterrupted one does.
    async with running_server(bot_workers=1, seed=seed) as server:
        cy = await Player.connect(server.url, "cy")
        table_id = (await cy.request(**table)).table.table_id
        await cy.request(type="spectate", table_id=table_id)
        over = await cy.until(is_event("game_over"), timeout=120)
        uninterrupted = (await cy.request(type="get_record", record_id=over.event.record_id)).record

    gate = hold_commits(monkeypatch)
    async with durable(tmp_path, bot_workers=1, seed=seed) as server:
        cy = await Player.connect(server.url, "cy")
        table_id = (await cy.request(**table)).table.table_id
        await cy.request(type="spectate", table_id=table_id)
        await cy.until(lambda m: m.type == "event" and m.event.type == "trick_won", timeout=60)
        gate.clear()  # the table stalls mid-game; the server stops there
        await asyncio.sleep(0.05)
        stopping = asyncio.create_task(server.stop())
        await asyncio.sleep(0.05)
        gate.set()
        await stopping
        stopped_at = len([m for m in cy.log if m.type == "event"])
    assert records(tmp_path / "boneyard.db") == []

    async with durable(tmp_path, bot_workers=1, seed=seed) as server:
        assert server.lobby is not None
        assert [s.level for s in server.lobby.tables[table_id].seats] == levels
        for _ in range(1200):
            if records(tmp_path / "boneyard.db"):
                break
            await asyncio.sleep(0.05)
    (restored,) = records(tmp_path / "boneyard.db")
    assert stopped_at > 1
    assert restored["hands"] == uninterrupted.model_dump(mode="json")["hands"]


async def test_turn_timeouts_survive_a_restart(tmp_path: Path) -> None:
    async with durable(tmp_path, bot_workers=1, timeouts_before_auto=3) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=5)
        table_id = created.table.table_id
        played = await ana.until(lambda m: m.type == "event" and is_action_of(m.event, 0), timeout=8)
        assert played.auto
    async with durable(tmp_path, bot_workers=1, timeouts_before_auto=3) as server:
        assert server.lobby is not None
        seat = server.lobby.tables[table_id].seats[0]
        assert (seat.timeouts, seat.auto) == (1, False)


async def test_a_durable_servers_metrics_show_its_database(tmp_path: Path) -> None:
    async with durable(tmp_path, bot_workers=1) as server:
        cy = await Player.connect(server.url, "cy")
        table_id = (await cy.request(**BOTS_TABLE)).table.table_id
        await cy.request(type="spectate", table_id=table_id)
        await cy.until(lambda m: m.type == "event" and m.event.type == "trick_won")
        status, text = await http_get(server.port, "/metrics")
    assert status == 200
    values = {
        line.rpartition(" ")[0]: float(line.rpartition(" ")[2])
        for line in text.splitlines()
        if line[:1] != "#"
    }
    assert values["boneyard_db_commits_total"] >= 1
    assert values["boneyard_db_statements_total"] >= moves_needed_for_a_trick()
    assert values["boneyard_db_commit_seconds_count"] == values["boneyard_db_commits_total"]
    assert "boneyard_db_queued_statements" in values  # a gauge read when scraped
    assert values['boneyard_db_size_bytes{file="db"}'] > 0
    assert values['boneyard_db_size_bytes{file="wal"}'] > 0


def moves_needed_for_a_trick() -> int:
    """Three bids (or passes), the discard and trump, and three plays: each one stored action."""
    return 3 + 2 + 3


@pytest.mark.parametrize("durable_db", [False, True], ids=["memory", "durable"])
async def test_a_stopped_server_moves_no_more(tmp_path: Path, durable_db: bool, caplog: Any) -> None:
    # A bot move already on its way when the server stops (committed, queued for the next loop pass)
    # must not run: it would play on after the journal closed, without being stored.
    overrides: dict[str, Any] = {"durable": True, "db": tmp_path / "boneyard.db"} if durable_db else {}
    async with running_server(bot_workers=1, **overrides) as server:
        cy = await Player.connect(server.url, "cy")
        table_id = (await cy.request(**BOTS_TABLE)).table.table_id
        await cy.request(type="spectate", table_id=table_id)
        await cy.until(lambda m: m.type == "event" and m.event.type == "trick_won")
        await server.stop()
        stopped_at = moves(server, table_id)
        await asyncio.sleep(0.3)
        assert moves(server, table_id) == stopped_at
    assert not [r for r in caplog.records if "not stored" in r.getMessage()]
