"""Moderation (feature ``moderation``) through a real server on a real SQLite file: a mute hides a player's
chat from the muting player only; reports are kept for the operator (``boneyard-server players
reports``); a banned account is refused at sign-in with ``banned`` (``boneyard-server players ban``)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from durability_kit import durable
from server_testkit import Player
from test_accounts import connect, connect_and_sign, refused, sign_in, url

from boneyard.clients.cli.core.identity import KeyPair, Signer


def players(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "boneyard.server.cli", "players", *args, "--db", str(db)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


async def test_a_mute_hides_a_players_chat_from_the_muting_player_only(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana, bob, cy = [await Player.connect(url(server), name) for name in ("ana", "bob", "cy")]
        assert "moderation" in ana.log[0].features
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[])
        table_id = created.table.table_id
        for seat, player in ((1, bob), (2, cy)):
            assert (await player.request(type="join", table_id=table_id, seat=seat)).type == "seated"
        assert (await ana.request(type="mute", player="BOB")).type == "ok"
        await bob.request(type="chat", table_id=table_id, text="first")
        await cy.request(type="chat", table_id=table_id, text="second")
        lines = [m.text for m in [await ana.until(lambda m: m.type == "chat")]]
        assert lines == ["second"]  # bob's line never reached ana
        assert (await cy.until(lambda m: m.type == "chat")).text == "first"  # but reached cy
        await ana.request(type="unmute", player="bob")
        await bob.request(type="chat", table_id=table_id, text="third")
        assert (await ana.until(lambda m: m.type == "chat")).text == "third"


async def lines_heard(url: str, listener: Player, speakers: list[str]) -> list[str]:
    """At a new table of ``listener``'s, each of ``speakers`` (guests) says its name: the lines
    ``listener`` hears, the last one being ``listener``'s own (so every earlier line was delivered)."""
    created = await listener.request(type="create_table", game="straight", seat=0, bots=[])
    table_id = created.table.table_id
    for seat, name in enumerate(speakers, start=1):
        speaker = await Player.connect(url, name)
        assert (await speaker.request(type="join", table_id=table_id, seat=seat)).type == "seated"
        await speaker.request(type="chat", table_id=table_id, text=name)
    await listener.request(type="chat", table_id=table_id, text="me")
    heard = []
    while not heard or heard[-1] != "me":
        heard.append((await listener.until(lambda m: m.type == "chat")).text)
    return heard


async def test_a_signed_in_players_mutes_outlive_the_session_and_a_restart(tmp_path: Path) -> None:
    signer = Signer("ana", KeyPair.create(tmp_path / "ana.key"), create=True)
    async with durable(tmp_path) as server:
        ana = await connect_and_sign(url(server), signer)
        assert (await ana.request(type="mute", player="BOB")).type == "ok"
        assert (await ana.request(type="mute", player="dan")).type == "ok"
        assert (await ana.request(type="unmute", player="Dan")).type == "ok"
        await ana.close()
    async with durable(tmp_path) as server:
        again = await connect_and_sign(url(server), Signer("ana", signer.keys))
        assert await lines_heard(url(server), again, ["bob", "cy", "dan"]) == ["cy", "dan", "me"]
        # A guest's mutes go with its session, as before.
        guest = await Player.connect(url(server), "eve")
        assert (await guest.request(type="mute", player="bob")).type == "ok"
        await guest.close()
        guest = await Player.connect(url(server), "eve")
        assert await lines_heard(url(server), guest, ["bob"]) == ["bob", "me"]


async def test_reports_are_kept_for_the_operator_and_metered(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with durable(tmp_path) as server:
        ana = await Player.connect(url(server), "ana")
        for i in range(5):
            assert (await ana.request(type="report", player="bob", reason=f"spam {i}")).type == "ok"
        over = await ana.request(type="report", player="bob", reason="again")
        assert over.type == "error" and over.code == "rate_limited"
        await server.storage.journal.committed()
        listed = players(db, "reports")
        assert listed.returncode == 0, listed.stderr
        rows = [json.loads(line) for line in listed.stdout.splitlines()]
        assert [(r["reporter"], r["player"], r["reason"]) for r in rows] == [
            ("ana", "bob", f"spam {i}") for i in range(5)
        ]


async def test_a_banned_account_is_refused_at_sign_in_until_unbanned(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    key = KeyPair.create(tmp_path / "ana.key")
    async with durable(tmp_path) as server:
        await (await connect_and_sign(url(server), Signer("Ana", key, create=True))).close()
        await server.storage.journal.committed()
        banned = players(db, "ban", "ana")
        assert banned.returncode == 0 and banned.stdout.strip() == "Ana banned: its sign-ins are refused"
        player = await connect(url(server))
        await refused(player, await sign_in(player, Signer("ana", key)), "banned")
        assert players(db, "unban", "ANA").returncode == 0
        again = await connect(url(server))
        assert (await sign_in(again, Signer("ana", key))).type == "welcome"
        missing = players(db, "ban", "nobody")
        assert missing.returncode == 1 and "no account named 'nobody'" in missing.stderr


async def test_an_account_renamed_keeps_its_keys(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    key = KeyPair.create(tmp_path / "ana.key")
    async with durable(tmp_path) as server:
        await (await connect_and_sign(url(server), Signer("Ana", key, create=True))).close()
        bob_key = KeyPair.create(tmp_path / "b.key")
        bob = await connect_and_sign(url(server), Signer("bob", bob_key, create=True))
        assert (await bob.request(type="mute", player="ANA")).type == "ok"
        await bob.close()
        busy = players(db, "rename", "ana", "Anna")
        assert busy.returncode == 1 and "in use by another Boneyard server" in busy.stderr
    taken = players(db, "rename", "ana", "BOB")
    assert taken.returncode == 1 and "taken" in taken.stderr
    bad = players(db, "rename", "ana", "bot-x")
    assert bad.returncode == 1 and "reserved for bots" in bad.stderr
    renamed = players(db, "rename", "ana", "Anna")
    assert renamed.returncode == 0 and renamed.stdout.strip() == "Ana is now Anna"
    with closing(sqlite3.connect(db)) as database:  # bob's mute follows the player to the new name
        assert database.execute("SELECT account, muted FROM mutes").fetchall() == [("bob", "anna")]
    async with durable(tmp_path) as server:
        player = await connect(url(server))
        assert (await sign_in(player, Signer("anna", key))).account == "Anna"
        old = await connect(url(server))
        await refused(old, await sign_in(old, Signer("ana", key)), "sign_in_refused")
