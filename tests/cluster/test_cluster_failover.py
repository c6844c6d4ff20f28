"""kill -9 of the node that owns the tables (Moon, Straight, Texas 42), mid-hand: another node takes them
over from their journals.

Every game still finishes; each client saw only actions that are in the record, in the record's order,
and the record replays through the engine (an action lost or applied twice would not); the oracle
finds no tile leaked in any frame, the snapshot that follows the takeover included. Killed between a
hand's deal and its first action, the table comes back in that hand, not in a pause before it.
"""

from __future__ import annotations

import asyncio
import random
import signal
from typing import TYPE_CHECKING, Any

import pytest
from clusterkit import Node, Player, cluster, join_seats, not_subsequence
from durability_kit import record_actions, seen_actions
from server_oracle import check_connection

from boneyard.server.games.record_replay import replay
from boneyard.server.games.registry import game_spec

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture

LEASE = {"BONEYARD_CLUSTER_LEASE_SECONDS": "2"}

KILL_AFTER = [60, 128]
"""When the watched player has had this many messages: in the first hand, and a later one (each
instant costs one worker 13-30 s, the machine's load deciding; bench_cluster.py makes 20 kills)."""


async def seated_table(owner: Node, homes: list[Node], game: str, options: dict[str, Any], tag: str) -> Any:
    """A timed table on ``owner`` (its creator does not sit), its seats taken through ``homes``."""
    creator = await Player.connect(owner.url, f"c{tag}")
    created = await creator.request(
        type="create_table", game=game, options=options, seat=None, turn_seconds=60
    )
    table_id = created.table.table_id
    spec = game_spec(game)
    seats = spec.players_of(spec.options_from_dict(options))
    players = [await Player.connect(homes[i % len(homes)].url, f"{tag}{i}") for i in range(seats)]
    await join_seats(players, table_id)
    return table_id, players


@pytest.mark.parametrize("kill_after", KILL_AFTER)
async def test_killing_the_owner_mid_hand_loses_no_game_and_no_action(
    nats_server: NatsServer, kill_after: int
) -> None:
    async with cluster(nats_server.url, 3, LEASE) as (a, b, owner):
        tables = await asyncio.gather(
            seated_table(owner, [a, b], "moon", {"target": 14}, "m"),
            # (to 150: a Straight game to 100 could end before the later kill instant, in a CI run)
            seated_table(owner, [b, a], "straight", {"players": 3, "target": 150}, "s"),
            seated_table(owner, [a, b], "texas42", {"nello": True, "target": 7}, "t"),
        )
        rng = random.Random(kill_after)
        plays = [
            asyncio.create_task(p.play(table_id, random.Random(rng.random())))
            for table_id, players in tables
            for p in players
        ]
        watched = a_player = tables[0][1][0]
        async with asyncio.timeout(30):
            while len(watched.log) < kill_after:
                await asyncio.sleep(0.002)
        await owner.stop(signal.SIGKILL)
        assert not any(play.done() for play in plays), "every game is still playing at the kill"
        at_kill = {p.name: len(p.log) for _, players in tables for p in players}
        overs = await asyncio.wait_for(asyncio.gather(*plays), 90)
        assert all(o.type == "game_over" for o in overs)
        ends = iter(overs)
        ids = [[next(ends).record_id for _ in players] for _, players in tables]
        records = [await a_player.request(type="get_record", record_id=i[0]) for i in ids]
    for (table_id, players), reply in zip(tables, records, strict=True):
        assert reply.type == "record"
        record = reply.record.model_dump()
        engine = replay(record)
        assert engine.is_over and engine.winner == record["winner"]
        actions = record_actions(record)
        for player in players:
            after = player.log[at_kill[player.name] :]
            assert [m.type for m in after].count("snapshot") == 1, "the new owner's snapshot, once"
            assert not not_subsequence(seen_actions(player.log, table_id), actions)
            assert check_connection(player.log, player.seat, record, table_id) > 0


def hand_one(event: Any) -> bool:
    """Hand 1 is dealt (its first turn, which follows, is left unread)."""
    return event.type == "hand_started" and event.hand == 1


async def test_killing_the_owner_between_a_deal_and_its_first_action_resumes_that_hand(
    nats_server: NatsServer,
) -> None:
    async with cluster(nats_server.url, 3, LEASE) as (a, b, owner):
        table_id, players = await seated_table(owner, [a, b], "moon", {"target": 14}, "d")
        rng = random.Random(7)
        await asyncio.wait_for(
            asyncio.gather(*(p.play(table_id, random.Random(rng.random()), until=hand_one) for p in players)),
            30,
        )
        await owner.stop(signal.SIGKILL)  # nobody has acted in hand 1 (its first turn is unread)
        at_kill = [len(p.log) for p in players]
        for player in players:  # the new owner's snapshot: hand 1, its first turn's clock running
            snapshot = await player.until(lambda m: m.type == "snapshot", timeout=30)
            assert snapshot.pause is None, "no pause: hand 1 had been dealt"
            assert snapshot.view is not None and snapshot.view.hand_number == 1
            assert snapshot.time_left_ms is not None and 0 < snapshot.time_left_ms <= 60_000
        plays = [asyncio.create_task(p.play(table_id, random.Random(rng.random()))) for p in players]
        overs = await asyncio.wait_for(asyncio.gather(*plays), 90)
        assert all(o.type == "game_over" for o in overs)
        reply = await players[0].request(type="get_record", record_id=overs[0].record_id)
    record = reply.record.model_dump()
    assert replay(record).is_over
    for player, kill in zip(players, at_kill, strict=True):
        assert [m.type for m in player.log[kill:]].count("snapshot") == 1, "the new owner's, once"
        assert check_connection(player.log, player.seat, record, table_id) > 0
