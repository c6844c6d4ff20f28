"""A leaver of a rated game loses it on a cluster too (issue #25): ``kill -9`` of the node that owns the
table after a signed-in player left the game in progress, and the node that takes the table over from its
journal rates the game as that player's loss, ranked last, and the player who stayed as their account:
signed in on the other node all along (their commands relayed to the owner name the account), or on the
owner and back through the other node by their resume token (its entry names the account). Real ``serve
--cluster`` nodes, a real nats-server, real Ed25519 keys."""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from clusterkit import cluster, resume_through
from test_accounts import connect_and_sign
from test_rated_durable import ana_leaves_a_rated_game, rated_as_her_loss, signers

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

LEASE = {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}


@pytest.mark.parametrize("bobs_node", ["other", "owner"])
async def test_the_node_that_takes_a_rated_table_over_rates_its_leaver_last(
    nats_server: NatsServer, tmp_path: Path, bobs_node: str
) -> None:
    accounts = signers(tmp_path)
    async with cluster(nats_server.url, 2, LEASE) as (owner, other):
        ana = await connect_and_sign(owner.url, accounts["ana"])
        bob = await connect_and_sign((owner if bobs_node == "owner" else other).url, accounts["bob"])
        table_id = await ana_leaves_a_rated_game(ana, bob)
        await owner.stop(signal.SIGKILL)  # the moment she left (her ok came once the journal had it)
        if bobs_node == "owner":  # Bob comes back through the other node by his resume token
            bob = await resume_through(bob, other.url)
        # The other node takes the table over from its journal; Bob plays on there.
        over = await bob.play(table_id, random.Random(2))
        changes = await bob.until(lambda m: m.type == "rating_changes" and m.table_id == table_id)
        record = (await bob.request(type="get_record", record_id=over.record_id)).record
    assert [c.player for c in changes.changes] == ["ana", "bob", "bot-basic"]
    expected = rated_as_her_loss(record)
    assert [(c.before, c.after) for c in changes.changes] == [(e.before, e.after) for e in expected]
