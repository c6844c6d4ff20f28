"""A cluster rename's edges: a player seeking a rated game while renamed, a leaderboard read between a
rename's copy and its settling, and the delete markers a rename leaves in the accounts and ratings buckets.
Real ``serve --cluster`` nodes on a real nats-server; the rename is the operator's own code
(``rename_on_cluster``), stopped between its steps where a test needs it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import TYPE_CHECKING, Any

import nats
import pytest
from clusterkit import Player, cluster
from test_accounts import connect, keys, sign_in
from test_cluster_rename import signed_up
from test_rated_durable import ana_leaves_a_rated_game

from boneyard.clients.cli.core.identity import Signer
from boneyard.server.accounts.names import account_key, look_key
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET
from boneyard.server.cluster.directory import key_part
from boneyard.server.cluster.operator import rename_on_cluster
from boneyard.server.cluster.ratings import RATINGS_BUCKET
from boneyard.server.cluster.rename import STEPS

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


async def established(nats_url: str, player: str, mu: float) -> None:
    """An established Moon rating of ``player`` (an account key) in the ratings bucket, as a node that
    rated its games writes it: mu, sigma, games, wins."""
    nc = await nats.connect(nats_url)
    try:
        ratings = await nc.jetstream().key_value(RATINGS_BUCKET)
        await ratings.put(f"r.{key_part(player)}.moon", json.dumps([mu, 2.0, 40, 25]).encode())
    finally:
        await nc.close()


async def leaderboard(url: str, expected: list[str]) -> list[str]:
    """The Moon leaderboard's players read from the node at ``url``, once they are ``expected`` (a node's
    copy follows the buckets within moments); what it listed last, if never."""
    watcher = await Player.connect(url, "watcher")
    listed: list[str] = []
    try:
        async with asyncio.timeout(5):
            while listed != expected:
                board = await watcher.request(type="get_leaderboard", kind="moon")
                assert board.total == len(board.entries), board
                listed = [entry.player for entry in board.entries]
                await asyncio.sleep(0.05)
    except TimeoutError:
        pass
    await watcher.close()
    return listed


@pytest.mark.parametrize("stopped_after", ["copy", "flip"])
async def test_a_leaderboard_lists_a_player_once_between_a_renames_copy_and_its_settling(
    nats_server: NatsServer, keys: Any, stopped_after: str
) -> None:
    async with cluster(nats_server.url, 1) as (node,):
        await (await signed_up(node.url, Signer("ana", keys(), create=True))).close()
        await (await signed_up(node.url, Signer("cy", keys(), create=True))).close()
        await established(nats_server.url, account_key("ana"), 30.0)
        await established(nats_server.url, account_key("cy"), 28.0)
        assert await leaderboard(node.url, ["ana", "cy"]) == ["ana", "cy"]
        steps = STEPS[: STEPS.index(stopped_after) + 1]
        await rename_on_cluster(nats_server.url, "ana", "bea", time.time(), steps)
        # The copy's rating (under bea's key) is in the bucket beside ana's: listed under one name.
        name = "bea" if stopped_after == "flip" else "ana"
        assert await leaderboard(node.url, [name, "cy"]) == [name, "cy"]
        await asyncio.sleep(0.3)  # (a second listing would show by now: read again)
        assert await leaderboard(node.url, [name, "cy"]) == [name, "cy"]
        await rename_on_cluster(nats_server.url, "ana", "bea", time.time())
        assert await leaderboard(node.url, ["bea", "cy"]) == ["bea", "cy"]


async def subjects(nats_url: str, bucket: str) -> dict[str, int]:
    """The messages a bucket's stream holds, by subject (a value, or a delete marker)."""
    nc = await nats.connect(nats_url)
    try:
        info = await nc.jetstream().stream_info(f"KV_{bucket}", subjects_filter=">")
        return dict(info.state.subjects or {})
    finally:
        await nc.close()


async def test_a_rename_leaves_no_delete_marker_of_the_old_name_once_its_nodes_swept(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 2, env={"BONEYARD_CLUSTER_MARKER_SECONDS": "1"}) as (a, _):
        await (await signed_up(a.url, Signer("ana", keys(), create=True))).close()
        await established(nats_server.url, account_key("ana"), 30.0)
        await rename_on_cluster(nats_server.url, "ana", "bea", time.time())
        old = {
            f"$KV.{ACCOUNTS_BUCKET}.a.{key_part(account_key('ana'))}",
            f"$KV.{ACCOUNTS_BUCKET}.l.{key_part(look_key('ana'))}",
            f"$KV.{RATINGS_BUCKET}.r.{key_part(account_key('ana'))}.moon",
        }
        kept: set[str] = set()
        for _ in range(200):  # the nodes sweep every second, markers older than a second
            kept = {
                *await subjects(nats_server.url, ACCOUNTS_BUCKET),
                *await subjects(nats_server.url, RATINGS_BUCKET),
            }
            if not kept & old:
                break
            await asyncio.sleep(0.05)
        assert not kept & old, kept & old
        # What the rename moved is all there under the new name.
        assert f"$KV.{ACCOUNTS_BUCKET}.a.{key_part(account_key('bea'))}" in kept
        assert f"$KV.{RATINGS_BUCKET}.r.{key_part(account_key('bea'))}.moon" in kept


async def test_a_rated_game_left_before_a_rename_and_ending_after_it_stores_nothing_under_the_old_name(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 1) as (node,):
        ana = await signed_up(node.url, Signer("ana", keys(), create=True))
        bob = await signed_up(node.url, Signer("bob", keys(), create=True))
        table_id = await ana_leaves_a_rated_game(ana, bob)  # rated last when it ends, as ana
        await ana.close()  # her session ends (no seat left): nothing refuses the rename
        async with asyncio.timeout(10):
            while True:
                try:
                    await rename_on_cluster(nats_server.url, "ana", "bea", time.time())
                    break
                except Exception as error:  # (her token's removal on its way)
                    assert "has a seat" in str(error), error
                    await asyncio.sleep(0.05)
        await bob.play(table_id, random.Random(2))
        changes = await bob.until(lambda m: m.type == "rating_changes" and m.table_id == table_id)
        assert [c.player for c in changes.changes] == ["ana", "bob", "bot-basic"]  # (their ratings stored)
        stored = await subjects(nats_server.url, RATINGS_BUCKET)
        assert f"$KV.{RATINGS_BUCKET}.r.{key_part(account_key('bob'))}.moon" in stored
        assert not [s for s in stored if f".{key_part(account_key('ana'))}." in s], stored
        # Whoever signs up as ana next starts unrated.
        await signed_up(node.url, Signer("ana", keys(), create=True))
        newcomer = await Player.connect(node.url, "watcher")
        profile = await newcomer.request(type="get_profile", player="ana")
        assert profile.type == "profile" and profile.ratings == (), profile
