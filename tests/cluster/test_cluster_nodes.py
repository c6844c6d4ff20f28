"""Three real nodes on one nats-server: players on two nodes play whole games at tables a third owns.

Every frame every client received is checked by the hidden-information oracle of the server tests,
the records (fetched through a node that did not own the table) replay through the engine, and the
lobby lists the tables on every node.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

from clusterkit import Node, Player, cluster, join_seats
from server_oracle import check_connection, check_seed_secrecy
from server_testkit import http_get, is_event

from boneyard.server.games.record_replay import replay

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def play_across(owner: Node, homes: list[Node], game: str, options: dict[str, Any], seed: int) -> Any:
    """A table created on ``owner`` by a player who only watches it; its seats taken by players
    connected to ``homes`` in turn; played out at random. What the test checks."""
    count = options.get("players", 3)
    creator = await Player.connect(owner.url, f"c{seed}")
    created = await creator.request(
        type="create_table", game=game, options=options, seat=None, turn_seconds=None
    )
    table_id = created.table.table_id
    assert (await creator.request(type="spectate", table_id=table_id)).type == "snapshot"
    players = [await Player.connect(homes[i % len(homes)].url, f"g{seed}-{i}") for i in range(count)]
    await join_seats(players, table_id)
    rng = random.Random(seed)
    overs = await asyncio.gather(
        *(p.play(table_id, random.Random(rng.random())) for p in players),
        creator.until(is_event("game_over"), timeout=60),
    )
    ends = {(o.winner, o.scores, o.record_id) for o in [*overs[:-1], overs[-1].event]}
    assert len(ends) == 1, "everyone sees the same end"
    winner, scores, record_id = ends.pop()
    reply = await players[0].request(type="get_record", record_id=record_id)  # not the owner's node
    assert reply.type == "record"
    for p in [*players, creator]:
        await p.until(lambda m: m.type == "deal_revealed")
        await p.close()
    return {
        "table_id": table_id,
        "winner": winner,
        "scores": scores,
        "record": reply.record.model_dump(),
        "connections": [(p.log, p.seat, p.frames) for p in players] + [(creator.log, None, creator.frames)],
    }


async def test_players_on_two_nodes_play_whole_games_at_tables_a_third_owns(nats_server: NatsServer) -> None:
    games = [
        ("moon", {"target": 7}),
        ("straight", {"players": 4, "partnerships": True, "target": 61}),
        ("straight", {"players": 3, "target": 61}),
    ]
    async with cluster(nats_server.url, 3) as (a, b, owner):
        results = await asyncio.gather(
            *(play_across(owner, [a, b], game, options, seed) for seed, (game, options) in enumerate(games))
        )
        routed = [await http_get(node.port, "/metrics") for node in (a, b, owner)]
        health = await http_get(a.port, "/healthz")
    checked = before_reveal = 0
    for result in results:
        record = result["record"]
        assert record["winner"] == result["winner"] and tuple(record["final_scores"]) == result["scores"]
        engine = replay(record)
        assert engine.is_over and engine.winner == result["winner"]
        for log, seat, frames in result["connections"]:
            checked += check_connection(log, seat, record, result["table_id"])
            before_reveal += check_seed_secrecy(frames, log, record, result["table_id"])
    assert checked > 500 and before_reveal > 100, (checked, before_reveal)
    assert health == (200, "ok\n")
    forwarded = [_metric(body, "boneyard_cluster_routed_commands_total") for _, body in routed]
    owned = [_metric(body, "boneyard_cluster_tables_owned") for _, body in routed]
    assert forwarded[0] > 0 and forwarded[1] > 0 and forwarded[2] == 0, forwarded
    assert owned == [0, 0, 3], owned


def _metric(text: str, name: str) -> float:
    return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))
