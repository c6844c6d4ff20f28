"""Who may sit at a table (issue #15, item 5): an owner-chosen policy, open or private with an invite code,
and an untimed table's owner cannot be stalled by a stranger who takes a seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from durability_kit import durable
from server_testkit import Player, running_server, turn_timers


async def private_table(ana: Player, **extra: Any) -> Any:
    created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], private=True, **extra)
    assert created.type == "table_created" and created.table.private and created.invite is not None
    return created


async def test_a_private_table_seats_only_those_with_its_invite_and_anyone_may_watch() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        assert "private_tables" in ana.log[0].features
        created = await private_table(ana)
        table_id, invite = created.table.table_id, created.invite
        bob = await Player.connect(server.url, "bob")
        listed = {t.table_id: t for t in (await bob.request(type="list_tables")).tables}
        assert listed[table_id].private
        for command in ({"type": "join", "seat": 2}, {"type": "take_seat", "seat": 1}):
            refused = await bob.request(table_id=table_id, **command)
            assert refused.type == "error" and refused.code == "not_invited", refused
            wrong = await bob.request(table_id=table_id, invite="x" * 24, **command)
            assert wrong.type == "error" and wrong.code == "not_invited"
        assert (await bob.request(type="spectate", table_id=table_id)).type == "snapshot"
        cy = await Player.connect(server.url, "cy")
        assert (await cy.request(type="join", table_id=table_id, seat=2, invite=invite)).type == "seated"
        # An open table (the default) seats anyone, as before.
        open_table = await ana.request(type="create_table", game="moon", seat=None, bots=[1])
        assert not open_table.table.private and open_table.invite is None


async def test_a_private_tables_invite_survives_a_restart(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await private_table(ana)
    async with durable(tmp_path) as server:
        bob = await Player.connect(server.url, "bob")
        table_id = created.table.table_id
        refused = await bob.request(type="join", table_id=table_id, seat=2)
        assert refused.type == "error" and refused.code == "not_invited"
        assert (
            await bob.request(type="join", table_id=table_id, seat=2, invite=created.invite)
        ).type == "seated"


async def test_at_an_open_untimed_table_a_stranger_plays_on_the_servers_turn_timer() -> None:
    async with running_server(turn_seconds=40) as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
        table_id = created.table.table_id
        assert created.table.turn_seconds is None
        await bob.request(type="join", table_id=table_id, seat=2)
        timers = await turn_timers({0: ana, 2: bob}, table_id, random.Random(3))
        assert timers == {0: {False}, 2: {True}}  # the owner's seat untimed, the stranger's on 40 s
