"""SIGTERM of the node that owns a table: it hands the table over, and no client sees an error.

The owner's own player is closed with 1012 and resumes through another node (its token is the
cluster's); the players of the other nodes just play on. The game finishes, the record replays and
holds every action any client saw, in order.
"""

from __future__ import annotations

import asyncio
import random
import signal
from typing import TYPE_CHECKING, Any

from clusterkit import Player, cluster, join_seats, not_subsequence, play_on
from durability_kit import record_actions, seen_actions
from server_oracle import check_connection

from boneyard.server.games.records import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def test_a_stopping_node_hands_its_table_over_and_its_players_resume_elsewhere(
    nats_server: NatsServer,
) -> None:
    async with cluster(nats_server.url, 3, {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}) as (a, b, owner):
        players = [await Player.connect(node.url, f"h{i}") for i, node in enumerate((owner, a, b, a))]
        created = await players[0].request(
            type="create_table",
            game="straight",
            options={"players": 4, "target": 100},
            seat=0,
            turn_seconds=60,
        )
        table_id = created.table.table_id
        await join_seats(players[1:], table_id, first=1)
        rng = random.Random(4)
        plays = [
            asyncio.create_task(play_on(p, table_id, random.Random(rng.random()), a.url)) for p in players
        ]
        async with asyncio.timeout(30):
            while len(players[1].log) < 50:
                await asyncio.sleep(0.002)
        assert await owner.stop(signal.SIGTERM) == 0
        connections: list[Any] = await asyncio.wait_for(asyncio.gather(*plays), 60)
        ends = {c[-1].log[-1].event.record_id for c in connections}
        assert len(ends) == 1
        reply = await players[1].request(type="get_record", record_id=ends.pop())
    assert [len(c) for c in connections] == [2, 1, 1, 1], "the owner's player resumed, the others played on"
    record = reply.record.model_dump()
    assert replay(record).is_over
    actions = record_actions(record)
    for connection in connections:
        seen = [action for c in connection for action in seen_actions(c.log, table_id)]
        assert not not_subsequence(seen, actions)
        for c in connection:
            assert not [m for m in c.log if m.type == "error"]
            assert check_connection(c.log, c.seat, record, table_id) > 0
