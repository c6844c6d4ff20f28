"""Accounts on a durable server: a real SQLite file, a restart, and the operator's recovery code
through the real ``boneyard-server`` command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from durability_kit import durable, query
from server_testkit import Player
from test_accounts import connect, connect_and_sign, refused, sign_in, url

from boneyard.clients.cli.core.identity import KeyPair, Signer


async def test_accounts_and_the_seat_they_hold_outlive_a_restart(tmp_path: Path) -> None:
    key = KeyPair.create(tmp_path / "ana.key")
    async with durable(tmp_path) as server:
        player = await connect_and_sign(url(server), Signer("Ana", key, create=True))
        created = await player.request(
            type="create_table", game="moon", bots=[1, 2], seat=0, turn_seconds=None, options={}
        )
        table_id = created.table.table_id
        await player.until(lambda m: m.type == "seated")
    db = tmp_path / "boneyard.db"
    # Only the public key is stored: the private key's bytes are nowhere in the database.
    assert query(db, "SELECT name FROM accounts") == [("Ana",)]
    assert query(db, "SELECT public_key FROM account_keys") == [(key.public_key,)]
    async with durable(tmp_path) as server:
        back = await connect(url(server))
        welcome = await sign_in(back, Signer("ana", key))
        assert welcome.type == "welcome" and welcome.account == "Ana" and welcome.resumed
        assert [(s.table_id, s.seat) for s in welcome.seats] == [(table_id, 0)]
        # The name is still held.
        other = await connect(url(server))
        taken = await sign_in(other, Signer("ANA", KeyPair.create(tmp_path / "b.key"), create=True))
        await refused(other, taken, "name_taken")


def recovery_code(db: Path, name: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "boneyard.server.cli", "players", "recovery-code", name, "--db", str(db)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


async def test_an_operator_recovery_code_adds_a_key_while_the_server_runs(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with durable(tmp_path) as server:
        await (
            await connect_and_sign(
                url(server), Signer("ana", KeyPair.create(tmp_path / "lost.key"), create=True)
            )
        ).close()
        await server.storage.journal.committed()
        unknown = recovery_code(db, "bob")
        assert (
            unknown.returncode == 1
            and unknown.stderr.strip() == f"boneyard-server: no account named 'bob' in {db}"
        )
        issued = recovery_code(db, "ANA")
        assert issued.returncode == 0, issued.stderr
        code = issued.stdout.strip()
        assert query(db, "SELECT count(*) FROM link_codes") == [(1,)]
        assert code not in str(query(db, "SELECT * FROM link_codes"))  # kept as its hash only
        new_key = KeyPair.create(tmp_path / "new.key")
        player = await connect(url(server))
        welcome = await sign_in(player, Signer("ana", new_key, link_code=code))
        assert welcome.type == "welcome" and welcome.account == "ana"
        await player.close()
        again = await connect(url(server))
        assert (await sign_in(again, Signer("ana", new_key))).type == "welcome"
        # Spent: a second use is refused.
        thief = await connect(url(server))
        reuse = await sign_in(thief, Signer("ana", KeyPair.create(tmp_path / "t.key"), link_code=code))
        await refused(thief, reuse, "sign_in_refused")
        guest = await Player.connect(url(server), "bo")
        assert guest.log[1].account is None
