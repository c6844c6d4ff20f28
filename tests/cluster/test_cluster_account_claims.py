"""A cluster's account half made (issue #25): a node stopped between a new account's claims and the
account itself leaves a claim on the name without its account, in a real nats-server's bucket (written
here as the crash would leave it). The name is not taken for ever (the claim is free once older than
``CLAIM_SECONDS``), and while the claim is young neither the name nor one alike is given to another."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import nats
from clusterkit import cluster
from test_accounts import connect, keys, refused, sign_in

from boneyard.clients.cli.core.identity import Signer
from boneyard.server.accounts.names import account_key
from boneyard.server.cluster.account_entries import CLAIM_SECONDS, claim, look_entry
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

__all__ = ["keys"]  # the fixture, shared with the single node's account tests


async def half_made(nats_url: str, name: str, at: float) -> None:
    """What a node stopped after the first write of ``name``'s account leaves: the claim on its look."""
    nc = await nats.connect(nats_url)
    try:
        bucket = await nc.jetstream().key_value(ACCOUNTS_BUCKET)
        await bucket.create(look_entry(name), claim(account_key(name), at))
    finally:
        await nc.close()


async def test_a_half_made_account_holds_its_name_for_a_moment_only(
    nats_server: NatsServer, keys: Any
) -> None:
    async with cluster(nats_server.url, 1) as (node,):
        # A claim made a moment ago: its node may still be making the account. Neither the name nor
        # one that looks like it (a capital I for an l) is given to anyone else meanwhile.
        await half_made(nats_server.url, "PayPal", time.time())
        for name in ("PayPal", "PayPaI"):
            player = await connect(node.url)
            await refused(player, await sign_in(player, Signer(name, keys(), create=True)), "name_taken")
        # A claim older than CLAIM_SECONDS whose account was never made: the name is free again, and
        # once taken, the name alike is refused as with any account.
        await half_made(nats_server.url, "Quill", time.time() - CLAIM_SECONDS - 1)
        welcome = await sign_in(await connect(node.url), Signer("Quill", keys(), create=True))
        assert welcome.type == "welcome" and welcome.account == "Quill", welcome
        alike = await connect(node.url)
        await refused(alike, await sign_in(alike, Signer("QuiII", keys(), create=True)), "name_taken")
