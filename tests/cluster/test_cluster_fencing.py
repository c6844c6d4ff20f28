"""Fencing: the owner frozen (SIGSTOP) past its lease; another node takes the table over; the old owner,
thawed, can no longer act for it: it drops the table, and none of its clients sees a second version.

The old owner's own player was frozen with it; once thawed, that node closes it with 1012 and the
player resumes through another node. Every action any client saw is in the record, in order.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from typing import TYPE_CHECKING, Any

from clusterkit import cluster, not_subsequence, play_on, sit_down
from durability_kit import record_actions, seen_actions
from server_oracle import check_connection

from boneyard.server.games.record_replay import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

FROZEN = {"BONEYARD_CLUSTER_LEASE_SECONDS": "1.5", "BONEYARD_GRACE_SECONDS": "0.5"}


async def test_a_frozen_owner_cannot_act_for_its_table_once_the_lease_moved(nats_server: NatsServer) -> None:
    async with cluster(nats_server.url, 3, FROZEN) as (a, b, owner):
        table_id, players = await sit_down([owner, a, b], "moon", {"target": 14}, "f")
        rng = random.Random(5)
        plays = [
            asyncio.create_task(play_on(p, table_id, random.Random(rng.random()), b.url)) for p in players
        ]
        async with asyncio.timeout(30):
            while len(players[1].log) < 40:
                await asyncio.sleep(0.002)
        os.kill(owner.process.pid, signal.SIGSTOP)
        frozen_at = len(players[1].log)
        async with asyncio.timeout(30):  # the new owner's snapshot, then play goes on without the old one
            while "snapshot" not in [m.type for m in players[1].log[frozen_at:]]:
                await asyncio.sleep(0.01)
            taken = len(players[1].log)
            while len(players[1].log) < taken + 10:
                await asyncio.sleep(0.01)
        os.kill(owner.process.pid, signal.SIGCONT)
        connections: list[Any] = await asyncio.wait_for(asyncio.gather(*plays), 60)
        record_id = connections[1][-1].log[-1].event.record_id
        reply = await players[1].request(type="get_record", record_id=record_id)
        assert await owner.stop(signal.SIGTERM) == 0
        said = await owner.errors()
    assert f"table {table_id} dropped" in said, said
    assert [len(c) for c in connections] == [2, 1, 1], "the old owner's player resumed elsewhere"
    record = reply.record.model_dump()
    assert replay(record).is_over
    actions = record_actions(record)
    for connection in connections:
        for c in connection:
            assert not not_subsequence(seen_actions(c.log, table_id), actions), "a second version"
            assert check_connection(c.log, c.seat, record, table_id) > 0
