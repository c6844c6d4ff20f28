"""A bot's seat at an untimed table goes only to those its creator admits (feature ``bot_seats``): a
stranger could otherwise sit there and hold the creator's game up. Whoever is admitted, other than the
creator, plays on the server's turn timer."""

from __future__ import annotations

import random
from pathlib import Path

from durability_kit import durable
from server_testkit import Player, running_server, turn_timers


async def untimed(ana: Player, **extra: object) -> str:
    """A Moon table with bots in seats 1 and 2 and seat 0 empty: waiting, untimed."""
    created = await ana.request(
        type="create_table", game="moon", seat=None, bots=[1, 2], turn_seconds=None, **extra
    )
    assert created.type == "table_created" and created.table.turn_seconds is None, created
    return created.table.table_id


async def test_a_stranger_may_not_take_a_bots_seat_at_an_untimed_table() -> None:
    async with running_server() as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        assert "bot_seats" in ana.log[0].features
        table_id = await untimed(ana)
        refused = await bob.request(type="take_seat", table_id=table_id, seat=1)
        assert refused.type == "error" and refused.code == "not_invited", refused
        # An empty seat is still anyone's (on the server's turn timer), and the creator may take a bot's.
        assert (await ana.request(type="take_seat", table_id=table_id, seat=2)).type == "seated"
        assert (await bob.request(type="join", table_id=table_id, seat=0)).type == "seated"
        # A timed table's bots' seats are anyone's, as before.
        timed = await ana.request(type="create_table", game="moon", seat=None, bots=[1, 2], turn_seconds=30)
        assert (await bob.request(type="take_seat", table_id=timed.table.table_id, seat=1)).type == "seated"


async def test_a_private_untimed_tables_invite_admits_to_a_bots_seat() -> None:
    async with running_server() as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        created = await ana.request(
            type="create_table", game="moon", seat=None, bots=[1, 2], turn_seconds=None, private=True
        )
        table_id = created.table.table_id
        assert (await bob.request(type="take_seat", table_id=table_id, seat=1)).code == "not_invited"
        seated = await bob.request(type="take_seat", table_id=table_id, seat=1, invite=created.invite)
        assert seated.type == "seated"


async def test_bot_seats_opened_to_all_seat_a_stranger_on_the_servers_turn_timer() -> None:
    async with running_server(turn_seconds=40) as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        table_id = await untimed(ana, open_bot_seats=True)
        listed = {t.table_id: t for t in (await bob.request(type="list_tables")).tables}
        assert listed[table_id].open_bot_seats
        assert (await bob.request(type="take_seat", table_id=table_id, seat=1)).type == "seated"
        assert (await ana.request(type="join", table_id=table_id, seat=0)).type == "seated"
        timers = await turn_timers({0: ana, 1: bob}, table_id, random.Random(5))
        # The creator untimed, the stranger in the bot's seat on the server's 40 s.
        assert timers == {0: {False}, 1: {True}}


async def test_bot_seats_opened_to_all_survive_a_restart(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        opened = await untimed(ana, open_bot_seats=True)
        closed = await untimed(ana)
        await ana.request(type="join", table_id=opened, seat=0)
        await ana.request(type="join", table_id=closed, seat=0)
    async with durable(tmp_path) as server:
        bob = await Player.connect(server.url, "bob")
        listed = {t.table_id: t.open_bot_seats for t in (await bob.request(type="list_tables")).tables}
        assert listed == {opened: True, closed: False}
        assert (await bob.request(type="take_seat", table_id=closed, seat=1)).code == "not_invited"
        assert (await bob.request(type="take_seat", table_id=opened, seat=1)).type == "seated"
