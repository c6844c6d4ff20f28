"""Journal compaction on a real nats-server: a table's journal holds one game at most, however many it
plays; a new owner restores exactly from the compacted journal; a removed table leaves no journal."""

from __future__ import annotations

import asyncio
import random
import signal
from typing import TYPE_CHECKING, Any

import msgpack
from clusterkit import Player, cluster, join_seats, not_subsequence
from durability_kit import record_actions, seen_actions
from nats.aio.client import Client as NATS

from boneyard.server.cluster.journal import STREAM, TableJournal
from boneyard.server.games.record_replay import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures

LEASE = {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}


async def journal_size(nc: NATS, table_id: str) -> tuple[int, int]:
    """The table's entries in the journal stream, and the stream's bytes (the only table in it)."""
    subject = f"boneyard.journal.{table_id}"
    info = await nc.jetstream().stream_info(STREAM, subjects_filter=subject)
    return (info.state.subjects or {}).get(subject, 0), info.state.bytes


async def test_a_new_game_compacts_the_journal_and_a_takeover_restores_from_it(
    nats_server: NatsServer, nc: NATS
) -> None:
    async with cluster(nats_server.url, 2, LEASE) as (owner, other):
        creator = await Player.connect(owner.url, "creator")  # watches from the owner: dies with it
        created = await creator.request(
            type="create_table", game="moon", options={"target": 7}, seat=None, turn_seconds=60
        )
        table_id = created.table.table_id
        players = [await Player.connect(other.url, f"p{i}") for i in range(3)]
        await join_seats(players, table_id)
        rng = random.Random(13)
        firsts = await asyncio.wait_for(
            asyncio.gather(*(p.play(table_id, random.Random(rng.random())) for p in players)), 60
        )
        first_game = await journal_size(nc, table_id)
        assert first_game[0] > 50, first_game  # a whole game's actions and deadlines
        ends = {p.name: len(p.log) for p in players}
        for player in players:
            assert (await player.request(type="rematch", table_id=table_id)).type == "ok"
        plays = [asyncio.create_task(p.play(table_id, random.Random(rng.random()))) for p in players]
        async with asyncio.timeout(30):  # a few moves into the second game
            while len(players[0].log) < ends[players[0].name] + 25:
                await asyncio.sleep(0.005)
        await owner.stop(signal.SIGKILL)
        second_game = await journal_size(nc, table_id)
        shrunk = second_game[0] < first_game[0] / 2 and second_game[1] < first_game[1]
        assert shrunk, (first_game, second_game)
        entries = (await TableJournal.open(nc.jetstream(), table_id)).entries
        assert msgpack.unpackb(entries[0].data)[0] == "rollup"  # what went before, folded
        at_kill = {p.name: len(p.log) for p in players}
        seconds: list[Any] = await asyncio.wait_for(asyncio.gather(*plays), 90)
        first, second = [
            (await players[0].request(type="get_record", record_id=over.record_id)).record.model_dump()
            for over in (firsts[0], seconds[0])
        ]
        for player in players:  # the last to leave removes the table: its journal goes
            assert (await player.request(type="leave", table_id=table_id)).type != "error"
        async with asyncio.timeout(10):
            while (await journal_size(nc, table_id))[0]:
                await asyncio.sleep(0.05)
    assert first["hands"] != second["hands"]
    for record in (first, second):
        assert replay(record).is_over
    actions = record_actions(second)
    for player in players:
        assert [m.type for m in player.log[at_kill[player.name] :]].count("snapshot") == 1
        seen = seen_actions(player.log[ends[player.name] :], table_id)
        assert seen and not not_subsequence(seen, actions), "the second game as its record says"
