"""Players' reports on a cluster (issue #25): made on two real ``serve --cluster`` nodes, read back in one
list by the operator's ``boneyard-server players reports --cluster URL`` (a real subprocess), with the
fields a single server's database keeps."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from clusterkit import Player, cluster
from test_accounts import keys, sign_in
from test_cluster_operator import players

from boneyard.clients.cli.core.identity import Signer

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests


async def test_every_nodes_reports_are_read_in_one_list(nats_server: NatsServer, keys: Any) -> None:
    async with cluster(nats_server.url, 2) as (a, b):
        empty = await players("reports", "--cluster", nats_server.url)
        assert empty.returncode == 0 and empty.stdout == "", empty.stderr
        guest = await Player.connect(a.url, "eve")
        assert (await guest.request(type="report", player="bob", reason="spam")).type == "ok"
        ana = await Player.connect(b.url, "guest", identify=False)
        assert (await sign_in(ana, Signer("Ana", keys(), create=True))).account == "Ana"
        assert (await ana.request(type="report", player="cy", reason="cheats")).type == "ok"
        listed = await players("reports", "--cluster", nats_server.url)
        assert listed.returncode == 0, listed.stderr
        rows = [json.loads(line) for line in listed.stdout.splitlines()]
        assert [(r["reporter"], r["account"], r["player"], r["reason"]) for r in rows] == [
            ("eve", None, "bob", "spam"),
            ("Ana", "ana", "cy", "cheats"),
        ]
        assert [set(r) for r in rows] == [{"at", "reporter", "account", "player", "reason"}] * 2
        assert rows[0]["at"] <= rows[1]["at"]
    unreachable = await players("reports", "--cluster", "nats://127.0.0.1:9")
    assert unreachable.returncode == 1 and len(unreachable.stderr.splitlines()) == 1, unreachable.stderr
