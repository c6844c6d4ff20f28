"""Accounts on a cluster (issue #25): one account on every node, from the ``boneyard-accounts`` bucket.

Three real ``serve --cluster`` nodes on a real nats-server, real Ed25519 keys: an account made on one
node signs in on the others; a link code made on one node is spent on another, once; of nodes racing
to register one name (or two names that look alike), exactly one wins and every other is answered
``name_taken``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from clusterkit import Player, cluster
from test_accounts import connect, keys, refused, sign_in

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
        # A second device: the code made on node b is spent on node c, and only once.
        code = await on_b.request(type="link_device")
        assert code.type == "link_code"
        phone = Signer("ana", keys(), link_code=code.code)
        linked = await connect(c.url)
        assert (await sign_in(linked, phone)).account == "Ana"
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
