"""Accounts on a cluster (issue #25): one account on every node, from the ``boneyard-accounts`` bucket.

Three real ``serve --cluster`` nodes on a real nats-server, real Ed25519 keys: an account made on one
node signs in on the others; a link code made on one node is spent on another, once; of nodes racing
to register one name (or two names that look alike), exactly one wins and every other is answered
``name_taken``.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

from clusterkit import Player, cluster
from test_accounts import connect, keys, refused, sign_in
from test_moderation import lines_heard

from boneyard.clients.cli.core.identity import Signer

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests


async def test_an_account_made_on_one_node_signs_in_on_every_node(nats_server: NatsServer, keys: Any) -> None:
    async with cluster(nats_server.url, 3) as (a, b, c):
        ana = Signer("Ana", keys(), create=True)
        first = await connect(a.url)
        welcome = await sign_in(first, ana)
        assert welcome.type == "welcome" and welcome.account == "Ana"
        # At once on another node: its copy of the accounts catches up before it answers.
        on_b = await connect(b.url)
        welcome = await sign_in(on_b, Signer("ana", ana.keys))
        assert welcome.type == "welcome" and welcome.account == "Ana" and not welcome.resumed
        # A wrong key is refused there, and a guest may not pass for the account on the third node.
        stranger = await connect(c.url)
        await refused(stranger, await sign_in(stranger, Signer("ana", keys())), "sign_in_refused")
        impostor = await connect(c.url)
        await refused(impostor, await impostor.request(type="identify", name="ANA"), "name_taken")
        # A mute made on one node is the account's: a new session on another node starts with it.
        assert (await on_b.request(type="mute", player="bob")).type == "ok"
        # A second device: the code made on node b is spent on node c, and only once.
        code = await on_b.request(type="link_device")
        assert code.type == "link_code"
        phone = Signer("ana", keys(), link_code=code.code)
        linked = await connect(c.url)
        assert (await sign_in(linked, phone)).account == "Ana"
        assert await lines_heard(c.url, linked, ["bob", "cy"]) == ["cy", "me"]
        again = await connect(a.url)
        await refused(
            again, await sign_in(again, Signer("ana", keys(), link_code=code.code)), "sign_in_refused"
        )
        # The phone's key is the account's on every node now, without a code.
        for node in (a, b, c):
            player = await connect(node.url)
            assert (await sign_in(player, Signer("ana", phone.keys))).account == "Ana", node.name


async def race(urls: list[str], signers: list[Signer]) -> list[Any]:
    """Each signer registers through its node at the same moment (connected and nonces read first)."""
    players: list[Player] = [await connect(url) for url in urls]
    return list(await asyncio.gather(*(sign_in(p, s) for p, s in zip(players, signers, strict=True))))


async def test_nodes_racing_to_register_a_name_exactly_one_wins(nats_server: NatsServer, keys: Any) -> None:
    async with cluster(nats_server.url, 3) as nodes:
        urls = [node.url for node in nodes]
        races = [
            ["bo", "bo", "bo"],  # one name on three nodes
            ["Cy", "cy", "CY"],  # one account's name, three ways
            ["PayPal", "PayPaI", "PayPal"],  # names that look alike as written (a capital I)
        ]
        for names in races:
            replies = await race(urls, [Signer(name, keys(), create=True) for name in names])
            won = [r for r in replies if r.type == "welcome"]
            lost = [r for r in replies if r.type == "error"]
            assert len(won) == 1, (names, replies)
            assert [r.code for r in lost] == ["name_taken", "name_taken"], (names, replies)
            # The winner's name is the account's on every node; the losers' keys are not.
            for url in urls:
                player = await connect(url)
                await refused(
                    player, await player.request(type="identify", name=won[0].account), "name_taken"
                )


async def rated_moon_on(url: str, signer: Signer) -> tuple[Player, str]:
    """``signer`` signed in through ``url``, at a new rated Moon table there with two bots."""
    player = await connect(url)
    assert (await sign_in(player, signer)).type == "welcome"
    created = await player.request(
        type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30, rated=True,
        options={"target": 3},
    )  # fmt: skip
    assert created.type == "table_created" and created.table.rated, created
    return player, created.table.table_id


async def profile_once_rated(url: str, games: int) -> Any:
    """ana's profile through ``url``, once it counts ``games`` rated games (other nodes' copies follow
    the bucket within moments)."""
    player = await Player.connect(url, "watcher")
    async with asyncio.timeout(10):
        while True:
            profile = await player.request(type="get_profile", player="ana")
            if profile.type == "profile" and profile.ratings and profile.ratings[0].games == games:
                return profile
            await asyncio.sleep(0.05)


async def test_ratings_are_the_same_on_every_node_none_lost(nats_server: NatsServer, keys: Any) -> None:
    async with cluster(nats_server.url, 3) as (a, b, c):
        key = keys()
        first, table_a = await rated_moon_on(a.url, Signer("ana", key, create=True))
        # Two rated games of one player at once, on two nodes: each node rates its own game, from the
        # same rating, and writes it by compare-and-set: the second write applies its change again.
        second, table_b = await rated_moon_on(b.url, Signer("ana", key))
        overs = await asyncio.gather(
            first.play(table_a, random.Random(1)), second.play(table_b, random.Random(2))
        )
        for player in (first, second):
            changes = await player.until(lambda m: m.type == "rating_changes")
            assert changes.changes[0].player == "ana"
        wins = sum(int(over.winner == 0) for over in overs)
        seen = []
        for node in (a, b, c):
            profile = await profile_once_rated(node.url, 2)
            assert profile.total == 2, node.name  # both games in the history, on every node
            assert profile.ratings[0].wins == wins
            assert {g.record_id for g in profile.games} == {over.record_id for over in overs}
            seen.append((profile.ratings[0].rating, profile.ratings[0].deviation))
        assert len(set(seen)) == 1, seen  # one rating, whichever node is asked
