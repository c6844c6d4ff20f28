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

from clusterkit import check_played, cluster, play_on, sit_down

from boneyard.server.games.record_replay import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def test_a_stopping_node_hands_its_table_over_and_its_players_resume_elsewhere(
    nats_server: NatsServer,
) -> None:
    async with cluster(nats_server.url, 3, {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}) as (a, b, owner):
        table_id, players = await sit_down([owner, a, b, a], "straight", {"players": 4, "target": 100}, "h")
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
    check_played(connections, record, table_id)
