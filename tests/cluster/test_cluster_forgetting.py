"""A node forgets the remote players who are gone: nothing of them stays in its maps.

Two real in-process nodes on a real nats-server; players of one node watch, sit and leave a table the
other owns, then go (closed, or expired after their grace). Once they are gone, the home node holds
no entry for any of them (its ``homed`` sessions, their remote places, their former owners) and the
owner no relay session; what the tables say they counted is checked too.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from clusterkit import Player, table_listed

from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def _until(condition: Any, what: str, seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)
    assert condition(), what


async def test_a_node_forgets_the_remote_players_who_are_gone(nats_server: NatsServer) -> None:
    quick = {
        "port": 0,
        "cluster": nats_server.url,
        "deal_seed_wait_ms": 0,
        "grace_seconds": 0.1,
        "bot_workers": 0,
    }
    quick["session_seconds"] = 0.2
    async with (
        BoneyardServer(Settings(node="owner", **quick)) as owner,
        BoneyardServer(Settings(node="home", **quick)) as home,
    ):
        assert owner.cluster is not None and home.cluster is not None
        homes, relays = home.cluster.home, owner.cluster.owner
        creator = await Player.connect(owner.url, "maker")
        created = await creator.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
        )
        table_id = created.table.table_id
        for n in range(9):
            visitor = await Player.connect(home.url, f"v{n}")
            await table_listed(visitor, table_id)
            if n % 3 == 0:  # watches, then closes
                assert (await visitor.request(type="spectate", table_id=table_id)).type == "snapshot"
            else:  # sits; leaves (or not), then closes: a seat kept through the grace, then given up
                assert (await visitor.request(type="join", table_id=table_id, seat=1)).type == "seated"
                if n % 3 == 1:
                    assert (await visitor.request(type="leave", table_id=table_id)).type == "ok"
                    await _until(lambda v=visitor: not homes._places.of(_player_id(v)), "left")
            await visitor.close()
            if n % 3 == 2:  # the seat is given up once the session expires: then the next one may take it
                await _until(lambda: _seat_free(owner, table_id), "expired")
        await _until(lambda: not homes.homed and not relays.relays, "every visitor forgotten")
        assert not homes._places and homes._former == {} and homes._held == {}
        assert home.lobby is not None and not home.lobby.by_token
        await creator.close()


def _player_id(visitor: Player) -> str:
    """The connection's player id (from its ``welcome``)."""
    welcome = next(m for m in visitor.log if m.type == "welcome")
    player_id: str = welcome.player_id
    return player_id


def _seat_free(owner: BoneyardServer, table_id: str) -> bool:
    assert owner.lobby is not None
    return owner.lobby.tables[table_id].seats[1].session is None
