"""Accounts (feature ``accounts``): Ed25519 sign-in through a real server over loopback, with the
client's own key files (``clients/cli/core/identity.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_testkit import Player, running_server

from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.protocol import FEATURE_ACCOUNTS


def url(server: Any) -> str:
    return f"ws://127.0.0.1:{server.port}/"


@pytest.fixture
def keys(tmp_path: Path) -> Any:
    """Fresh key pairs, each in its own 0600 file, as the client keeps them."""
    made = iter(range(1000))
    return lambda: KeyPair.create(tmp_path / f"k{next(made)}.key")


async def connect(address: str, **connect: Any) -> Player:
    """A connection that has read its ``hello`` and not identified."""
    return await Player.connect(address, "guest", identify=False, **connect)


def nonce_of(player: Player) -> str:
    hello = player.log[0]
    assert hello.type == "hello" and hello.nonce is not None
    return hello.nonce


async def sign_in(player: Player, signer: Signer, nonce: str | None = None, **fields: Any) -> Any:
    """``identify`` with ``signer``'s signature of ``nonce`` (the connection's own by default)."""
    request = signer.sign_in(nonce or nonce_of(player)).model_dump(exclude_defaults=True)
    return await player.request(type="identify", name="whoever", sign_in=request, **fields)


async def connect_and_sign(address: str, signer: Signer, **connect: Any) -> Player:
    player = await Player.connect(address, "guest", identify=False, **connect)
    welcome = await sign_in(player, signer)
    assert welcome.type == "welcome", welcome
    return player


async def refused(player: Player, reply: Any, code: str) -> None:
    assert reply.type == "error" and reply.code == code, reply
    assert await player.closed_with() == 4001


async def test_create_then_sign_in_again_from_a_new_process(keys: Any) -> None:
    async with running_server() as server:
        ana = Signer("Ana", keys(), create=True)
        first = await connect(url(server))
        hello = first.log[0]
        assert FEATURE_ACCOUNTS in hello.features and hello.limits.sign_ins_per_minute == 10
        welcome = await sign_in(first, ana)
        assert welcome.type == "welcome" and welcome.account == "Ana" and welcome.name == "Ana"
        await first.close()
        # The same key, a new connection (a new process): signed in, as the name was registered.
        again = await connect(url(server))
        assert nonce_of(again) != nonce_of(first)  # a fresh nonce per connection
        welcome = await sign_in(again, Signer("ana", ana.keys))
        assert welcome.type == "welcome" and welcome.account == "Ana" and welcome.name == "Ana"
        # A guest is as before: no account; but not under an account's name.
        guest = await Player.connect(url(server), "bo")
        assert guest.log[1].type == "welcome" and guest.log[1].account is None
        for name in ("ana", "ANA", "\u0430na"):
            impostor = await connect(url(server))
            await refused(impostor, await impostor.request(type="identify", name=name), "name_taken")


async def test_a_signature_signs_in_once_on_its_own_connection(keys: Any) -> None:
    async with running_server() as server:
        ana = Signer("ana", keys(), create=True)
        await (await connect_and_sign(url(server), ana)).close()
        ana = Signer("ana", ana.keys)
        # A signature seen on the wire, replayed on another connection: refused.
        seen = await connect(url(server))
        signature = ana.sign_in(nonce_of(seen)).signature
        assert (await sign_in(seen, ana)).type == "welcome"
        thief = await connect(url(server))
        forged = {"account": "ana", "public_key": ana.keys.public_key, "signature": signature}
        await refused(
            thief, await thief.request(type="identify", name="x", sign_in=forged), "sign_in_refused"
        )
        # Another connection's nonce (still unspent), signed by the key and sent here: refused too.
        victim = await connect(url(server))
        other = await connect(url(server))
        await refused(other, await sign_in(other, ana, nonce=nonce_of(victim)), "sign_in_refused")
        # The victim's own sign-in is unharmed.
        assert (await sign_in(victim, ana)).type == "welcome"


async def test_unknown_account_and_wrong_key_refused_alike(keys: Any) -> None:
    async with running_server() as server:
        await (await connect_and_sign(url(server), Signer("ana", keys(), create=True))).close()
        wrong = await connect(url(server))
        reply = await sign_in(wrong, Signer("ana", keys()))
        nobody = await connect(url(server))
        other = await sign_in(nobody, Signer("nobody", keys()))
        assert reply.message == other.message
        await refused(wrong, reply, "sign_in_refused")
        await refused(nobody, other, "sign_in_refused")
        # A signature that is not the key's at all (well-formed, wrong bytes).
        bad = await connect(url(server))
        fields = Signer("ana", keys()).sign_in(nonce_of(bad)).model_dump(exclude_defaults=True)
        fields["signature"] = fields["signature"][::-1]
        await refused(bad, await bad.request(type="identify", name="x", sign_in=fields), "sign_in_refused")


@pytest.mark.parametrize(
    ("taken", "name", "code"),
    [
        ("ana", "ANA", "name_taken"),
        ("PayPal", "PayPaI", "name_taken"),  # a capital I for the l: looks alike as written
        ("bob", "BOB", "name_taken"),
        (None, "bot-3", "name_refused"),
        (None, "b\u043et-x", "name_refused"),  # a Cyrillic o
        (None, "\u0430na", "name_refused"),  # a Cyrillic a among Latin letters
        (None, "a", "name_refused"),
        (None, "a b", "name_refused"),
        (None, "_ana", "name_refused"),
    ],
)
async def test_name_rules(keys: Any, taken: str | None, name: str, code: str) -> None:
    async with running_server() as server:
        if taken is not None:
            await (await connect_and_sign(url(server), Signer(taken, keys(), create=True))).close()
        player = await connect(url(server))
        await refused(player, await sign_in(player, Signer(name, keys(), create=True)), code)


async def test_one_key_one_account(keys: Any) -> None:
    async with running_server() as server:
        key = keys()
        await (await connect_and_sign(url(server), Signer("ana", key, create=True))).close()
        player = await connect(url(server))
        await refused(player, await sign_in(player, Signer("bob", key, create=True)), "sign_in_refused")


async def test_sign_in_attempts_are_rate_limited_per_address_and_per_name(keys: Any) -> None:
    async with running_server(sign_ins_per_minute=2) as server:
        wrong = Signer("ana", keys())
        for _ in range(2):
            player = await connect(url(server))
            await refused(player, await sign_in(player, wrong), "sign_in_refused")
        player = await connect(url(server))  # the address's third attempt in the minute
        await refused(player, await sign_in(player, Signer("bob", keys(), create=True)), "rate_limited")
        # From another address, the name's third attempt is over its own limit.
        elsewhere = await connect(url(server), local_addr=("127.0.0.2", 0))
        await refused(elsewhere, await sign_in(elsewhere, wrong), "rate_limited")
        # That address may still sign in to another account.
        fresh = await connect(url(server), local_addr=("127.0.0.2", 0))
        assert (await sign_in(fresh, Signer("cy", keys(), create=True))).type == "welcome"


async def test_a_signed_in_player_coming_back_gets_the_seat_back(keys: Any) -> None:
    async with running_server() as server:
        ana = Signer("ana", keys(), create=True)
        player = await connect_and_sign(url(server), ana)
        created = await player.request(
            type="create_table", game="moon", bots=[1, 2], seat=0, turn_seconds=None, options={}
        )
        assert created.type == "table_created"
        table_id = created.table.table_id
        await player.until(lambda m: m.type == "seated")
        player_id = player.log[1].player_id
        player.ws.transport.abort()  # killed: no closing handshake, the token lost with the process
        # Another process, the key only: no resume token.
        back = await connect(url(server))
        welcome = await sign_in(back, Signer("ana", ana.keys))
        assert welcome.type == "welcome" and welcome.resumed and welcome.replayed == 0
        assert welcome.player_id == player_id
        assert [(s.table_id, s.seat) for s in welcome.seats] == [(table_id, 0)]
        snapshot = await back.until(lambda m: m.type == "snapshot")
        assert snapshot.table.table_id == table_id and snapshot.view is not None and snapshot.view.viewer == 0
        # A second device signing in takes the session over: the first connection is closed with 4003.
        third = await connect(url(server))
        assert (await sign_in(third, Signer("ana", ana.keys))).resumed
        assert await back.closed_with() == 4003


async def test_a_second_device_linked_with_a_one_time_code(keys: Any) -> None:
    async with running_server() as server:
        laptop = await connect_and_sign(url(server), Signer("ana", keys(), create=True))
        reply = await laptop.request(type="link_device")
        assert reply.type == "link_code" and reply.expires_ms == 600_000
        # As the spec says: 32 letters and digits, so that a command line takes it as an argument.
        assert len(reply.code) == 32 and reply.code.isascii() and reply.code.isalnum()
        phone = Signer("ana", keys(), link_code=reply.code)
        second = await connect(url(server))
        welcome = await sign_in(second, phone)
        assert welcome.type == "welcome" and welcome.account == "ana"
        await second.close()
        # The phone's key is the account's now, without a code.
        again = await connect(url(server))
        assert (await sign_in(again, Signer("ana", phone.keys))).account == "ana"
        # The code was for one use.
        tablet = await connect(url(server))
        reused = await sign_in(tablet, Signer("ana", keys(), link_code=reply.code))
        await refused(tablet, reused, "sign_in_refused")
        # A guest has no account to link.
        guest = await Player.connect(url(server), "bo")
        error = await guest.request(type="link_device")
        assert error.type == "error" and error.code == "not_signed_in"


def test_link_codes_are_letters_and_digits_so_a_command_line_takes_them() -> None:
    """A code is typed as an argument on another device: one starting with ``-`` read as an option
    there, and a base64url code starts with one once in 64 (the CLI test failed on exactly that)."""
    from boneyard.server.accounts.book import new_code

    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(code) == 32 and code.isascii() and code.isalnum() for code in codes)
