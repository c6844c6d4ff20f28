"""Sessions across nodes: resumes through another node, spectators through a takeover, homes that come back.

A player whose node was killed resumes through another: the new home makes the session from the tokens
bucket; its ``welcome`` names the player's seats exactly as a single node's resume does (from the
directory, confirmed by the owner), one snapshot follows, and the player plays on. A spectator of
another node keeps watching when the table's owner is killed or stopped. A home whose key expired a
moment gets its players connected again. Each game finishes and its record holds every action any
client saw, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from typing import TYPE_CHECKING, Any

import pytest
from clusterkit import Player, check_played, cluster, not_subsequence, play_on, sit_down, table_listed
from durability_kit import record_actions, seen_actions
from nats.js.errors import KeyNotFoundError
from server_oracle import check_connection
from server_testkit import is_event

from boneyard.server.app import BoneyardServer
from boneyard.server.cluster.leases import NODES_BUCKET
from boneyard.server.games.record_replay import replay
from boneyard.server.settings import Settings

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


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
async def test_a_spectator_of_another_node_keeps_watching_when_the_owner_goes(
    nats_server: NatsServer, signum: int
) -> None:
    async with cluster(nats_server.url, 3, LEASE) as (owner, a, b):
        table_id, players = await sit_down([owner, a, b], "moon", {"target": 14}, "w")
        spectator = await Player.connect(b.url, "watcher")
        assert (await spectator.request(type="spectate", table_id=table_id)).type == "snapshot"
        rng = random.Random(signum)
        plays = [
            asyncio.create_task(play_on(p, table_id, random.Random(rng.random()), a.url, (1006, 1011, 1012)))
            for p in players
        ]
        async with asyncio.timeout(30):
            while len(players[1].log) < 40:
                await asyncio.sleep(0.002)
        os.kill(owner.process.pid, signum)  # not waited for: how long the stop takes is not what is tested
        at_stop = len(spectator.log)
        over = await spectator.until(is_event("game_over"), timeout=90)
        connections: list[Any] = await asyncio.wait_for(asyncio.gather(*plays), 60)
        reply = await spectator.request(type="get_record", record_id=over.event.record_id)
    assert [len(c) for c in connections] == [2, 1, 1], "the owner's player resumed, the others played on"
    record = reply.record.model_dump()
    assert replay(record).is_over
    check_played(connections, record, table_id)
    after = [m.type for m in spectator.log[at_stop:]]
    assert after.count("snapshot") == 1, "watching on at the new owner: its snapshot, once"
    assert "error" not in [m.type for m in spectator.log]
    assert not not_subsequence(seen_actions(spectator.log, table_id), record_actions(record))
    assert check_connection(spectator.log, None, record, table_id) > 0


async def test_a_home_whose_key_expired_a_moment_gets_its_players_connected_again(
    nats_server: NatsServer,
) -> None:
    """The home's heartbeat key gone for a moment (it was paused, or cut off from NATS): the owner marks
    its players disconnected; once the key is back, they are connected again, each with a snapshot."""
    quick = {
        "port": 0,
        "cluster": nats_server.url,
        "deal_seed_wait_ms": 0,
        "cluster_lease_seconds": 2.0,
        "bot_workers": 0,
    }
    async with (
        BoneyardServer(Settings(node="owner", **quick)) as owner,
        BoneyardServer(Settings(node="home", **quick)) as home,
    ):
        assert home.cluster is not None
        creator = await Player.connect(owner.url, "maker")
        created = await creator.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, bots=[2], turn_seconds=60
        )
        table_id = created.table.table_id
        visitor = await Player.connect(home.url, "visitor")
        await table_listed(visitor, table_id)
        assert (await visitor.request(type="join", table_id=table_id, seat=1)).type == "seated"
        for player in (creator, visitor):  # the join's snapshot read: any later one is the owner's resync
            await player.until(lambda m: m.type == "table_updated" and m.table.status == "playing")
        nodes = await home.cluster.js.key_value(NODES_BUCKET)

        async def expire() -> None:  # again and again: the home writes its key every ttl/3
            while True:
                with contextlib.suppress(KeyNotFoundError):
                    await nodes.delete("home")
                await asyncio.sleep(0.02)

        expiring = asyncio.create_task(expire())
        try:
            await creator.until(lambda m: _seat_connected(m, 1) is False)
        finally:
            expiring.cancel()
        back = await creator.until(lambda m: _seat_connected(m, 1) is True)
        assert not back.table.seats[1].auto
        snapshot = await visitor.until(lambda m: m.type == "snapshot" and m.table.table_id == table_id)
        assert snapshot.view is not None and snapshot.view.viewer == 1  # the seat's own view
        await visitor.close()
        await creator.close()


def _seat_connected(message: Any, seat: int) -> bool | None:
    """Whether a ``table_updated`` says the seat's player is connected (``None``: another message)."""
    if message.type != "table_updated":
        return None
    connected: bool = message.table.seats[seat].connected
    return connected
