"""Feature ``turn_in_event`` across nodes: a player gets the shape its own connection asked for.

The home node holds the connection and its features; the owner makes the bodies. Every forwarded
command and control carries the connection's flag, and each relayed body says whether it was folded,
so a home whose player's connection no longer folds unfolds what was already on its way. Two real
in-process nodes on a real nats-server.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import TYPE_CHECKING, Any

from clusterkit import Player, check_played, join_seats, table_listed
from test_server_turn_in_event import FOLD, folds

from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


def _quick(url: str) -> dict[str, Any]:
    # The players act at machine speed: no token bucket in the way.
    return {
        "port": 0, "cluster": url, "deal_seed_wait_ms": 0, "hand_pause_seconds": 0,
        "bot_delay_seconds": 0.0, "commands_per_second": 10_000, "command_burst": 10_000, "bot_workers": 0,
    }  # fmt: skip


def turns_after_events(log: list[Any]) -> int:
    """``turn`` messages right after an event: the ones a folding connection gets inside the event."""
    return sum(a.type == "event" and b.type == "turn" for a, b in itertools.pairwise(log))


async def test_players_at_another_nodes_table_get_the_shape_they_asked_for(nats_server: NatsServer) -> None:
    quick = _quick(nats_server.url)
    async with (
        BoneyardServer(Settings(node="owner", **quick)) as owner,
        BoneyardServer(Settings(node="home", **quick)) as home,
    ):
        maker = await Player.connect(owner.url, "maker")
        folded = await Player.connect(home.url, "folded", accept=FOLD)
        plain = await Player.connect(home.url, "plain")
        created = await maker.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
        )
        table_id = created.table.table_id
        await join_seats([folded, plain], table_id, first=1)
        overs = await asyncio.gather(*(p.play(table_id) for p in (maker, folded, plain)))
        # The opted-in player, relayed, got its turns and its acts' oks inside events; the plain ones none.
        turns, replies = folds(folded.log)
        assert turns > 10 and replies > 5, (turns, replies)
        assert turns_after_events(folded.log) == 0
        assert folds(plain.log) == (0, 0) and folds(maker.log) == (0, 0)
        assert turns_after_events(plain.log) > 10
        reply = await maker.request(type="get_record", record_id=overs[0].record_id)
        check_played([[maker], [folded], [plain]], reply.record.model_dump(), table_id)
        await asyncio.gather(*(p.close() for p in (maker, folded, plain)))


async def test_bodies_folded_for_a_connection_now_plain_arrive_plain(nats_server: NatsServer) -> None:
    """A body made folded (the owner's relay session still had the old connection's flag) reaches a
    plain connection as the separate messages it stands for."""
    quick = _quick(nats_server.url)
    async with (
        BoneyardServer(Settings(node="owner", **quick)) as owner,
        BoneyardServer(Settings(node="home", **quick)) as home,
    ):
        assert owner.cluster is not None
        players = [await Player.connect(owner.url, f"p{i}") for i in range(3)]
        created = await players[0].request(
            type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
        )
        table_id = created.table.table_id
        await join_seats(players[1:], table_id, first=1)
        watcher = await Player.connect(home.url, "watcher")  # plain
        await table_listed(watcher, table_id)
        assert (await watcher.request(type="spectate", table_id=table_id)).type == "snapshot"
        (relay,) = owner.cluster.owner.relays.values()
        assert relay.folds is False  # what the spectate said
        relay.folds = True  # as if its bodies were made before the home said the connection changed
        overs = await asyncio.gather(*(p.play(table_id) for p in players))
        await watcher.until(lambda m: m.type == "event" and m.event.type == "game_over")
        assert folds(watcher.log) == (0, 0)
        assert turns_after_events(watcher.log) > 10  # each of them came folded from the owner
        reply = await players[0].request(type="get_record", record_id=overs[0].record_id)
        check_played([[watcher]], reply.record.model_dump(), table_id)
        await asyncio.gather(*(p.close() for p in [*players, watcher]))
