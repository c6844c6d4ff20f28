"""Spectators cannot amplify (issue #15, item 6): a cap per table, one count update for many joins, and a
chat limit shared by a table's spectators."""

from __future__ import annotations

import asyncio

from server_testkit import Player, running_server


async def seated_table(url: str) -> tuple[Player, str]:
    ana = await Player.connect(url, "ana")
    created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
    return ana, created.table.table_id


async def test_a_table_takes_at_most_max_spectators_as_hello_announces() -> None:
    async with running_server(max_spectators=2) as server:
        ana, table_id = await seated_table(server.url)
        assert ana.log[0].limits.max_spectators == 2
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(3)]
        for watcher in watchers[:2]:
            assert (await watcher.request(type="spectate", table_id=table_id)).type == "snapshot"
        refused = await watchers[2].request(type="spectate", table_id=table_id)
        assert (
            refused.type == "error" and refused.code == "unavailable" and "max_spectators" in refused.message
        )
        assert (await watchers[0].request(type="leave", table_id=table_id)).type == "ok"
        assert (await watchers[2].request(type="spectate", table_id=table_id)).type == "snapshot"


async def test_many_spectators_joining_cost_the_table_one_count_update_not_one_per_join() -> None:
    async with running_server(lobby_push_seconds=0.2) as server:
        ana, table_id = await seated_table(server.url)
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(20)]
        await asyncio.gather(*(w.request(type="spectate", table_id=table_id) for w in watchers))
        update = await ana.until(lambda m: m.type == "table_updated" and m.table.spectators == 20, timeout=5)
        assert update.table.spectators == 20
        counts = [m.table.spectators for m in ana.log if m.type == "table_updated"]
        assert len(counts) <= 3, counts  # not 20: joins within a push interval are one update
        # Every spectator also hears the count (not every join): few table_updated each.
        last = watchers[0]
        await last.until(lambda m: m.type == "table_updated" and m.table.spectators == 20, timeout=5)
        assert len([m for m in last.log if m.type == "table_updated"]) <= 3


async def test_a_tables_spectators_share_a_chat_limit_and_players_keep_theirs() -> None:
    async with running_server(spectator_chat_per_minute=3) as server:
        ana, table_id = await seated_table(server.url)
        assert ana.log[0].limits.spectator_chat_per_minute == 3
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(4)]
        for watcher in watchers:
            await watcher.request(type="spectate", table_id=table_id)
        for watcher in watchers[:3]:
            assert (await watcher.request(type="chat", table_id=table_id, text="hi")).type == "ok"
        refused = await watchers[3].request(type="chat", table_id=table_id, text="hi")
        assert refused.type == "error" and refused.code == "rate_limited", refused
        assert "spectator" in refused.message
        assert (await ana.request(type="chat", table_id=table_id, text="still mine")).type == "ok"
