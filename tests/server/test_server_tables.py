"""One cheap client cannot fill the server with tables (issue #15, items 1 and 3): empty tables go away,
and a player, an address and the server hold only so many tables, bots-only ones fewer still and paced."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from durability_kit import durable
from server_testkit import Player, is_event, running_server, too_early

EMPTY = {"game": "moon", "seat": None, "bots": []}
BOTS_ONLY = {"game": "moon", "options": {"target": 300}, "seat": None, "bots": [0, 1, 2]}


async def removed(player: Player, table_ids: set[str]) -> None:
    """Read lobby pushes until every one of ``table_ids`` was removed."""
    gone: set[str] = set()
    while not table_ids <= gone:
        message = await player.until(lambda m: m.type == "lobby_changed", timeout=5)
        gone |= set(message.removed)


async def test_a_table_nobody_sits_at_is_removed_after_empty_table_seconds() -> None:
    async with running_server(empty_table_seconds=0.2, lobby_push_seconds=0.01) as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        created = await ana.request(type="create_table", **EMPTY)
        kept = await ana.request(type="create_table", game="moon", seat=0, bots=[1])
        await removed(bob, {created.table.table_id})  # bob is in the lobby: he hears of it
        tables = (await bob.request(type="list_tables")).tables
        assert [t.table_id for t in tables] == [kept.table.table_id]  # a seated player's table stays


async def test_empty_tables_restored_after_a_restart_are_removed_too(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        ids = {(await ana.request(type="create_table", **EMPTY)).table.table_id for _ in range(3)}
    async with durable(tmp_path, empty_table_seconds=0.2, lobby_push_seconds=0.01) as server:
        bob = await Player.connect(server.url, "bob")
        assert {t.table_id for t in (await bob.request(type="list_tables")).tables} == ids
        await removed(bob, ids)
        assert (await bob.request(type="list_tables")).tables == ()


async def test_a_player_and_an_address_own_only_so_many_tables_at_once() -> None:
    async with running_server(tables_per_session=2, tables_per_address=3) as server:
        ana = await Player.connect(server.url, "ana")
        first = await ana.request(type="create_table", game="moon", seat=0, bots=[1])
        await ana.request(type="create_table", **EMPTY)
        refused = await ana.request(type="create_table", **EMPTY)
        assert refused.type == "error" and refused.code == "unavailable"
        assert "tables_per_session" in refused.message
        # Leaving the waiting table removes it: the player may create another.
        assert (await ana.request(type="leave", table_id=first.table.table_id)).type == "ok"
        assert (await ana.request(type="create_table", **EMPTY)).type == "table_created"
        # Every connection here comes from 127.0.0.1: a new name does not get round the address quota.
        bob = await Player.connect(server.url, "bob")
        assert (await bob.request(type="create_table", **EMPTY)).type == "table_created"
        refused = await bob.request(type="create_table", **EMPTY)
        assert refused.type == "error" and refused.code == "unavailable"
        assert "tables_per_address" in refused.message


async def test_bots_only_tables_are_capped_per_player_and_per_server() -> None:
    async with running_server(bot_tables_per_session=1, max_bot_tables=2, bots_only_move_seconds=1) as server:
        ana, bob, cy = [await Player.connect(server.url, name) for name in ("ana", "bob", "cy")]
        assert (await ana.request(type="create_table", **BOTS_ONLY)).type == "table_created"
        refused = await ana.request(type="create_table", **BOTS_ONLY)
        assert refused.type == "error" and refused.code == "unavailable"
        assert "bot_tables_per_session" in refused.message
        # A table with a human seat is not bots-only: still allowed.
        assert (
            await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2])
        ).type == "table_created"
        assert (await bob.request(type="create_table", **BOTS_ONLY)).type == "table_created"
        refused = await cy.request(type="create_table", **BOTS_ONLY)
        assert (
            refused.type == "error" and refused.code == "unavailable" and "max_bot_tables" in refused.message
        )


async def test_bots_only_tables_move_at_their_pace_and_tables_with_people_at_bot_delay() -> None:
    pace = 0.05
    async with running_server(bots_only_move_seconds=pace) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", **BOTS_ONLY)
        loop = asyncio.get_running_loop()
        started = loop.time()  # before she watches: no move she is sent was made before this
        watched = await ana.request(type="spectate", table_id=created.table.table_id)
        assert watched.type == "snapshot"
        stamps = []
        for _ in range(8):
            await ana.until(
                lambda m: (
                    m.type == "event"
                    and m.event.type in ("bid_made", "passed", "discarded", "trump_named", "tile_played")
                )
            )
            stamps.append(loop.time())
        early = too_early(started, stamps, pace)
        assert not early, (early, [b - a for a, b in itertools.pairwise(stamps)])
        # A table with a human seat is not paced as bots-only: its bots act at bot_delay_seconds (0 here).
        bob = await Player.connect(server.url, "bob")
        mixed = await bob.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2]
        )
        assert (await bob.play(mixed.table.table_id)).type == "game_over"


async def test_a_bots_only_game_still_plays_to_its_end() -> None:
    async with running_server(bots_only_move_seconds=0.001) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", **{**BOTS_ONLY, "options": {"target": 7}})
        await ana.request(type="spectate", table_id=created.table.table_id)
        await ana.until(is_event("game_over"), timeout=20)
