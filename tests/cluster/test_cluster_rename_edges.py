"""A cluster rename's edges: a player seeking a rated game while renamed, a leaderboard read between a
rename's copy and its settling, and the delete markers a rename leaves in the accounts and ratings buckets.
Real ``serve --cluster`` nodes on a real nats-server; the rename is the operator's own code
(``rename_on_cluster``), stopped between its steps where a test needs it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from clusterkit import cluster
from test_accounts import connect, keys, sign_in
from test_cluster_rename import signed_up

from boneyard.clients.cli.core.identity import Signer
from boneyard.server.cluster.operator import rename_on_cluster

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests

RATED_MOON = {"type": "seek", "kind": "moon", "rated": True}


async def test_a_rated_seek_ends_when_its_player_is_renamed_and_never_seats_the_old_name(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 1) as (node,):
        signer = Signer("ana", keys(), create=True)
        ana = await signed_up(node.url, signer)
        assert (await ana.request(**RATED_MOON)).type == "ok"
        assert await rename_on_cluster(nats_server.url, "ana", "bea", time.time()) == "ana"
        # Her node signs her session out at the flip: her rated seek ends, said to her.
        ended = await ana.until(lambda m: m.type == "error")
        assert ended.reply_to is None and ended.code == "not_signed_in", ended
        assert "renamed to 'bea'" in ended.message, ended
        # Three other seekers of the pool make a table of their own: no ghost of ana among them.
        others = [await signed_up(node.url, Signer(n, keys(), create=True)) for n in ("cy", "dan", "eve")]
        for other in others:
            assert (await other.request(**RATED_MOON)).type == "ok"
        tables = set()
        for other in others:
            seated = await other.until(lambda m: m.type in ("seated", "error"))
            assert seated.type == "seated", seated
            tables.add(seated.table_id)
        assert len(tables) == 1
        assert not [m for m in ana.log if m.type == "seated"]
        # Signed in again, under her new name, she seeks a rated game again.
        again = await connect(node.url)
        assert (await sign_in(again, Signer("bea", signer.keys))).account == "bea"
        assert (await again.request(**RATED_MOON)).type == "ok"
