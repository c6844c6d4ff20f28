"""Sessions across nodes: a player whose node was killed resumes through another, seats and all.

The new home makes the session from the tokens bucket; its ``welcome`` names the player's seats exactly
as a single node's resume does (from the directory, confirmed by the owner), one snapshot follows, and
the player plays on; the game finishes and the record holds every action any client saw, in order.
"""

from __future__ import annotations

import asyncio
import random
import signal
from typing import TYPE_CHECKING, Any

from clusterkit import check_played, cluster, play_on, sit_down

from boneyard.server.games.records import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

LEASE = {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}


async def test_a_player_whose_node_was_killed_resumes_through_another_with_their_seat(
    nats_server: NatsServer,
) -> None:
    async with cluster(nats_server.url, 3, LEASE) as (owner, home, other):
        table_id, players = await sit_down(
            [owner, home, other], "straight", {"players": 3, "target": 100}, "k"
        )
        rng = random.Random(7)
        plays = [
            asyncio.create_task(play_on(p, table_id, random.Random(rng.random()), other.url, (1006, 1011)))
            for p in players
        ]
        async with asyncio.timeout(30):
            while len(players[1].log) < 40:
                await asyncio.sleep(0.002)
        await home.stop(signal.SIGKILL)
        connections: list[Any] = await asyncio.wait_for(asyncio.gather(*plays), 60)
        reply = await players[2].request(
            type="get_record", record_id=connections[2][-1].log[-1].event.record_id
        )
    assert [len(c) for c in connections] == [1, 2, 1], "the killed node's player resumed"
    again = connections[1][1]
    assert [m.type for m in again.log[:3]] == ["hello", "welcome", "snapshot"], again.log[:4]
    assert [m.type for m in again.log].count("snapshot") == 1, "one snapshot: the owner's, at the resume"
    record = reply.record.model_dump()
    assert replay(record).is_over
    check_played(connections, record, table_id)
