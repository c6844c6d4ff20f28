"""The operator's account commands on a cluster (issue #25): ``boneyard-server players ban|unban|
recovery-code --cluster URL``, a real subprocess writing to a real nats-server's accounts bucket, felt at
sign-in on every node of two real ``serve --cluster`` nodes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from clusterkit import cluster
from test_accounts import connect, keys, refused, sign_in

from boneyard.clients.cli.core.identity import Signer

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests


async def players(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "boneyard.server.cli", "players", *args]
    return await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, timeout=60)


async def test_a_ban_and_a_recovery_code_written_to_the_cluster_hold_on_every_node(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 2) as (a, b):
        ana = Signer("Ana", keys(), create=True)
        assert (await sign_in(await connect(a.url), ana)).account == "Ana"
        banned = await players("ban", "ANA", "--cluster", nats_server.url)
        assert banned.returncode == 0, banned.stderr
        assert banned.stdout == "Ana banned: its sign-ins are refused on every node\n"
        for node in (a, b):
            player = await connect(node.url)
            await refused(player, await sign_in(player, Signer("ana", ana.keys)), "banned")
        assert (await players("unban", "ana", "--cluster", nats_server.url)).returncode == 0
        assert (await sign_in(await connect(b.url), Signer("ana", ana.keys))).account == "Ana"
        # A lost key: the operator's code adds a new one, spent on whichever node, once.
        issued = await players("recovery-code", "ana", "--cluster", nats_server.url)
        assert issued.returncode == 0 and "adds a key (good for a week)" in issued.stderr, issued.stderr
        (code,) = issued.stdout.split()
        phone = Signer("ana", keys(), link_code=code)
        assert (await sign_in(await connect(b.url), phone)).account == "Ana"
        again = await connect(a.url)
        await refused(again, await sign_in(again, Signer("ana", keys(), link_code=code)), "sign_in_refused")
        assert (await sign_in(await connect(a.url), Signer("ana", phone.keys))).account == "Ana"
        # No such account, and no cluster there: one line each, exit 1.
        missing = await players("ban", "nobody", "--cluster", nats_server.url)
        assert missing.returncode == 1 and missing.stdout == ""
        assert (
            missing.stderr
            == f"boneyard-server: no account named 'nobody' on the cluster at {nats_server.url}\n"
        )
    # BONEYARD_CLUSTER names the cluster for a rename too (tests/cluster/test_cluster_rename.py has more).
    env = {**os.environ, "BONEYARD_CLUSTER": nats_server.url}
    command = [sys.executable, "-m", "boneyard.server.cli", "players", "rename", "ana", "anna"]
    rename = await asyncio.to_thread(
        subprocess.run, command, capture_output=True, text=True, timeout=60, env=env
    )
    assert rename.returncode == 0 and rename.stdout == "Ana is now anna on every node\n", rename.stderr
    unreachable = await players("ban", "ana", "--cluster", "nats://127.0.0.1:9")
    assert unreachable.returncode == 1 and len(unreachable.stderr.splitlines()) == 1, unreachable.stderr
    assert unreachable.stderr.startswith("boneyard-server: cannot reach the cluster at nats://127.0.0.1:9")
