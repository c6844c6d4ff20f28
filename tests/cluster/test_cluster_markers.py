"""Delete markers do not pile up in the cluster's buckets, and a node's stale directory write never
overwrites the entry of a table's new owner.

A removed key's delete marker stays in a NATS key-value bucket until purged: one for every table
that ever ended (its directory entry, its ownership record) and every token that ever expired.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import msgpack
from clusterkit import Player
from nats.aio.client import Client as NATS

from boneyard.server.app import BoneyardServer
from boneyard.server.cluster.directory import Directory
from boneyard.server.settings import Settings

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures

BUCKETS = ("boneyard-tables", "boneyard-owners", "boneyard-tokens")


async def _messages(nc: NATS, bucket: str) -> int:
    info = await nc.jetstream().stream_info(f"KV_{bucket}")
    return int(info.state.messages)


async def waiting_table(server: BoneyardServer) -> tuple[Player, str]:
    """A player seated alone at a new table, its directory entry, record and token written."""
    player = await Player.connect(server.url, "ana")
    created = await player.request(type="create_table", game="moon", seat=0, bots=[], turn_seconds=None)
    assert server.cluster is not None
    await server.cluster.writes.settled()
    return player, created.table.table_id


async def test_a_removed_table_and_a_gone_token_leave_no_marker_behind(
    nats_server: NatsServer, nc: NATS
) -> None:
    settings = Settings(port=0, cluster=nats_server.url, node="solo", cluster_marker_seconds=1)
    async with BoneyardServer(settings) as server:
        player, table_id = await waiting_table(server)
        assert [await _messages(nc, b) for b in BUCKETS] == [1, 1, 1], "its entry, record and token"
        await player.request(type="leave", table_id=table_id)
        await player.close()
        for _ in range(500):  # the sweep runs every second, for markers older than a second
            if [await _messages(nc, b) for b in BUCKETS] == [0, 0, 0]:
                break
            await asyncio.sleep(0.02)
        assert [await _messages(nc, b) for b in BUCKETS] == [0, 0, 0]


async def test_a_sweep_purges_old_markers_only(nc: NATS) -> None:
    directory = await Directory.open(nc.jetstream(), "boneyard-tables")
    for key in ("gone", "young", "live"):
        await directory.put(key, b"v")
    await directory.remove("gone")
    for _ in range(500):
        if "gone" not in directory.entries:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)
    await directory.remove("young")
    for _ in range(500):
        if "young" not in directory.entries:
            break
        await asyncio.sleep(0.01)
    assert await directory.sweep(0.2) == 1
    assert await _messages(nc, "boneyard-tables") == 2, "the young marker and the live value stay"
    await directory.close()


async def test_a_node_that_lost_a_table_cannot_write_its_entry_over_the_new_owners(
    nats_server: NatsServer, nc: NATS
) -> None:
    """A node cut off, frozen past its lease or stopping may still have a change of the table on its
    way when another node has written the table's entry as its new owner: that change is refused, and
    the node lets the table go (its later changes are not written either)."""
    settings = Settings(port=0, cluster=nats_server.url, node="old")
    async with BoneyardServer(settings) as server:
        player, table_id = await waiting_table(server)
        entry = await nc.jetstream().key_value("boneyard-tables")
        taken = msgpack.packb(["new", "waiting", b"", [None, None, None]])
        await entry.put(table_id, taken)  # another node's takeover, written as it does (a put)
        other = await Player.connect(server.url, "bo")
        joined = await other.request(type="join", table_id=table_id, seat=1)  # a change, on its way
        assert joined.type == "seated", joined
        await asyncio.sleep(0.3)  # the coalesced write (50 ms) and its refusal
        assert (await entry.get(table_id)).value == taken
        await player.close()
        await other.close()
