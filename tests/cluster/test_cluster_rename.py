"""An operator renaming a cluster's account (issue #25): ``boneyard-server players rename OLD NEW
--cluster URL``, a real subprocess on a real nats-server's buckets, felt at sign-in on two real
``serve --cluster`` nodes that run meanwhile. The rating is written through the cluster's ratings store
(a ``ClusterRatings`` of the test's own, as a node rating a game does); a rename stopped between its
steps (run in the test, as a crash would leave it) is finished by the same command run again."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

import nats
import pytest
from clusterkit import Player, cluster
from test_accounts import connect, keys, refused, sign_in
from test_cluster_operator import players

from boneyard.clients.cli.core.identity import Signer
from boneyard.server.accounts.book import Account
from boneyard.server.accounts.names import account_key
from boneyard.server.cluster.account_entries import account_entry, encoded
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET
from boneyard.server.cluster.directory import Directory, key_part
from boneyard.server.cluster.operator import rename_on_cluster
from boneyard.server.cluster.ratings import RATINGS_BUCKET, ClusterRatings
from boneyard.server.cluster.rename import STEPS
from boneyard.server.cluster.writes import Writes

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests


async def signed_up(url: str, signer: Signer) -> Player:
    player = await connect(url)
    welcome = await sign_in(player, signer)
    assert welcome.type == "welcome" and welcome.account == signer.account, welcome
    return player


async def rated(nats_url: str, player: str) -> None:
    """One rated Moon game of ``player`` (an account key) won against two bots, through the cluster's
    ratings store: in the bucket, as a node rating a game writes it."""
    nc = await nats.connect(nats_url)
    writes = Writes(asyncio.get_running_loop())
    ratings = ClusterRatings(await Directory.open(nc.jetstream(), RATINGS_BUCKET), writes)
    ratings.start()
    try:
        ratings.book.rate("moon", [player, "bot-basic", "bot-good"], [3, 1, 0], 0, record_id="g1", now=1.0)
        assert await writes.settled()
    finally:
        await ratings.close()
        await ratings.directory.close()
        await nc.close()


async def profile(url: str, name: str) -> Any:
    """``name``'s profile through ``url``, once it counts a rated game (a node's copy follows the bucket
    within moments)."""
    player = await Player.connect(url, "watcher")
    async with asyncio.timeout(10):
        while True:
            reply = await player.request(type="get_profile", player=name)
            if reply.type == "profile" and reply.ratings:
                await player.close()
                return reply
            await asyncio.sleep(0.05)


async def account_value(nats_url: str, name: str) -> dict[str, Any] | None:
    nc = await nats.connect(nats_url)
    try:
        kv = await nc.jetstream().key_value(ACCOUNTS_BUCKET)
        try:
            entry = await kv.get(account_entry(account_key(name)))
        except nats.js.errors.KeyNotFoundError:
            return None
        return json.loads(entry.value or b"null")  # type: ignore[no-any-return]
    finally:
        await nc.close()


async def test_a_renamed_account_signs_in_on_every_node_under_its_new_name(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 2) as (a, b):
        ana = Signer("ana", keys(), create=True)
        await (await signed_up(a.url, ana)).close()
        cy = await signed_up(b.url, Signer("cy", keys(), create=True))
        assert (await cy.request(type="mute", player="Ana")).type == "ok"
        await rated(nats_server.url, account_key("ana"))
        before = await profile(b.url, "ana")
        renamed = await players("rename", "ANA", "bea", "--cluster", nats_server.url)
        assert renamed.returncode == 0, renamed.stderr
        assert renamed.stdout == "ana is now bea on every node\n"
        # ana's key signs in as bea on either node, with her rating and history; "ana" is no account.
        for node in (b, a):
            welcome = await sign_in(await connect(node.url), Signer("bea", ana.keys))
            assert welcome.type == "welcome" and welcome.account == "bea", node.name
            old = await connect(node.url)
            await refused(old, await sign_in(old, Signer("ana", ana.keys)), "sign_in_refused")
            after = await profile(node.url, "bea")
            assert after.player == "bea" and after.ratings == before.ratings and after.games == before.games
        # The old name is free: a newcomer takes it, unrated; cy's mute follows the player to her new name.
        await signed_up(a.url, Signer("ana", keys(), create=True))
        newcomer = await Player.connect(a.url, "watcher")
        reply = await newcomer.request(type="get_profile", player="ana")
        assert reply.type == "profile" and reply.ratings == () and reply.total == 0
        cy_account = await account_value(nats_server.url, "cy")
        assert cy_account is not None and cy_account["muted"] == ["bea"]


async def test_a_rename_onto_a_taken_or_refused_name_or_of_a_seated_player_is_refused(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 1) as (node,):
        ana = await signed_up(node.url, Signer("ana", keys(), create=True))
        paypal = Signer("PayPal", keys(), create=True)
        await (await signed_up(node.url, paypal)).close()
        for new, why in (
            ("paypal", "the name 'paypal' is taken"),  # the same account key
            ("PayPaI", "the name 'PayPaI' is taken, or looks like 'PayPal'"),  # a capital I
            ("bot-x", "the name 'bot-x' is not allowed: reserved for bots"),
        ):
            refusal = await players("rename", "ana", new, "--cluster", nats_server.url)
            assert refusal.returncode == 1 and refusal.stdout == "", refusal
            assert refusal.stderr == f"boneyard-server: {why}\n"
        created = await ana.request(type="create_table", game="straight", seat=0, bots=[1])
        assert created.type == "table_created"
        seated = await players("rename", "ana", "bea", "--cluster", nats_server.url)
        assert seated.returncode == 1 and seated.stderr == (
            "boneyard-server: 'ana' has a seat at a table (a session on node n0):"
            " rename once the player has left every table\n"
        )
        missing = await players("rename", "nobody", "bea", "--cluster", nats_server.url)
        nobody = f"boneyard-server: no account named 'nobody' on the cluster at {nats_server.url}\n"
        assert missing.returncode == 1 and missing.stderr == nobody
        # Nothing of those was written: ana is still ana, bea free.
        await ana.close()
        await signed_up(node.url, Signer("bea", keys(), create=True))
        assert (await account_value(nats_server.url, "ana")) is not None
        # Another way to write one's own name is no other account: renamed in place.
        case = await players("rename", "PayPal", "paypal", "--cluster", nats_server.url)
        assert case.returncode == 0 and case.stdout == "PayPal is now paypal on every node\n", case.stderr
        assert (await sign_in(await connect(node.url), Signer("PAYPAL", paypal.keys))).account == "paypal"


@pytest.mark.parametrize("stopped_after", ["claim", "copy", "flip"])
async def test_a_rename_stopped_midway_leaves_one_name_and_is_finished_by_running_it_again(
    nats_server: NatsServer, keys: Any, stopped_after: str
) -> None:
    async with cluster(nats_server.url, 2) as (a, b):
        ana = Signer("ana", keys(), create=True)
        player = await signed_up(a.url, ana)
        await rated(nats_server.url, account_key("ana"))
        before = await profile(b.url, "ana")
        steps = STEPS[: STEPS.index(stopped_after) + 1]
        assert await rename_on_cluster(nats_server.url, "ana", "bea", time.time(), steps) == "ana"
        flipped = stopped_after == "flip"
        if not flipped:  # a mute made on a node meanwhile: in the account the flip copies
            assert (await player.request(type="mute", player="dan")).type == "ok"
        now, then = ("bea", "ana") if flipped else ("ana", "bea")
        for node in (a, b):
            welcome = await sign_in(await connect(node.url), Signer(now, ana.keys))
            assert welcome.type == "welcome" and welcome.account == now, (node.name, welcome)
            other = await connect(node.url)
            await refused(other, await sign_in(other, Signer(then, ana.keys)), "sign_in_refused")
            # Neither name can be signed up for meanwhile.
            for name in ("ana", "bea"):
                stranger = await connect(node.url)
                signer = Signer(name, keys(), create=True)
                await refused(stranger, await sign_in(stranger, signer), "name_taken")
        # The operator's other commands do not change a name halfway renamed.
        if stopped_after != "claim":
            halfway = await players("ban", "ana" if flipped else "bea", "--cluster", nats_server.url)
            assert halfway.returncode == 1 and halfway.stderr == "boneyard-server: " + (
                f"no account named 'ana' on the cluster at {nats_server.url}: renamed to 'bea'\n"
                if flipped
                else "'bea' is the new name of a rename not finished: run the rename again\n"
            )
        if flipped:  # ana's session from before the flip is signed out: nothing more under the old key
            table = await player.request(
                type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30, rated=True
            )
            assert table.type == "error" and table.code == "not_signed_in", table
        again = await players("rename", "ana", "bea", "--cluster", nats_server.url)
        assert again.returncode == 0 and again.stdout == "ana is now bea on every node\n", again.stderr
        after = await profile(b.url, "bea")
        assert after.ratings == before.ratings and after.games == before.games
        bea = await account_value(nats_server.url, "bea")
        assert bea is not None and "from" not in bea
        assert bea["muted"] == ([] if flipped else ["dan"])
        assert await account_value(nats_server.url, "ana") is None
        await signed_up(a.url, Signer("ana", keys(), create=True))


async def test_two_operators_running_one_rename_at_once_both_finish_it(nats_server: NatsServer) -> None:
    nc = await nats.connect(nats_server.url)
    accounts = await Directory.open(nc.jetstream(), ACCOUNTS_BUCKET)
    try:
        ana = Account(account_key("ana"), "ana", 1.0, {"k" * 43}, frozenset({"dan"}))
        await accounts.put(account_entry(ana.key), encoded(ana))
        await rated(nats_server.url, ana.key)
        runs = [rename_on_cluster(nats_server.url, "ana", "bea", time.time()) for _ in range(2)]
        assert await asyncio.gather(*runs) == ["ana", "ana"]
        bea = await account_value(nats_server.url, "bea")
        assert bea == {"name": "bea", "created": 1.0, "keys": ["k" * 43], "banned": False, "muted": ["dan"]}
        assert await account_value(nats_server.url, "ana") is None
        ratings = await Directory.open(nc.jetstream(), RATINGS_BUCKET)
        rated_players = {key.split(".")[1] for key in await ratings.stored_keys(">")}
        assert rated_players == {key_part(name) for name in ("bea", "bot-basic", "bot-good")}
        await ratings.close()
    finally:
        await accounts.close()
        await nc.close()
