"""Routing across nodes: a table created on one node can be joined on another at once.

The directory is eventually consistent (each node follows the bucket with a watch), so another node may
not list a table yet when a client told of it a moment ago names it. The owner enters a new table in
the bucket before ``table_created`` goes out, and a node asks the bucket on a miss before it refuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clusterkit import Player, cluster, table_listed

from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def test_a_table_created_on_one_node_is_joined_on_another_at_once(nats_server: NatsServer) -> None:
    async with cluster(nats_server.url, 2) as (a, b):
        creator = await Player.connect(a.url, "maker")
        joiner = await Player.connect(b.url, "quick")
        for n in range(30):
            created = await creator.request(
                type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
            )
            table_id = created.table.table_id
            # At once, and a second command right behind the first: both handled, in order.
            joined = await joiner.send(type="join", table_id=table_id, seat=1)
            left = await joiner.send(type="leave", table_id=table_id)
            seated, ok = await joiner.reply_to(joined), await joiner.reply_to(left)
            assert (seated.type, ok.type) == ("seated", "ok"), (n, seated, ok)
            assert joiner.log.index(seated) < joiner.log.index(ok)
            assert (await creator.request(type="leave", table_id=table_id)).type == "ok"
        missing = await joiner.request(type="join", table_id="t999-nowhere", seat=0)
        assert missing.type == "error" and missing.code == "no_such_table", missing
        assert (await joiner.request(type="ping")).type == "pong"  # and the connection goes on
        await creator.close()
        await joiner.close()


async def test_a_node_whose_mirror_lags_asks_the_bucket(nats_server: NatsServer) -> None:
    """The look-up itself, made certain: the home node's mirror forgets the table (as if its watch had
    not delivered it yet), and the join still reaches the owner, then the command sent after it."""
    quick = {"port": 0, "cluster": nats_server.url, "deal_seed_wait_ms": 0, "bot_workers": 0}
    async with (
        BoneyardServer(Settings(node="owner", **quick)) as owner,
        BoneyardServer(Settings(node="home", **quick)) as home,
    ):
        assert home.cluster is not None
        creator = await Player.connect(owner.url, "maker")
        joiner = await Player.connect(home.url, "late")
        created = await creator.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
        )
        table_id = created.table.table_id
        await table_listed(joiner, table_id)
        mirror = home.cluster.mirror
        del mirror._listed[table_id]  # lagging
        joined = await joiner.send(type="join", table_id=table_id, seat=1)
        left = await joiner.send(type="leave", table_id=table_id)  # held behind the look-up, then in order
        seated, ok = await joiner.reply_to(joined), await joiner.reply_to(left)
        assert (seated.type, ok.type) == ("seated", "ok") and joiner.log.index(seated) < joiner.log.index(ok)
        assert mirror.owner_of(table_id) == "owner"  # listed again, from the bucket
        await creator.close()
        await joiner.close()
