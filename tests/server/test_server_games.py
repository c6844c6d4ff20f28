"""Whole games played by real protocol clients over real sockets, to a winner; their records replay."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_oracle import check_connection
from server_testkit import Player, is_event, running_server

from boneyard.server.games.record_replay import replay
from boneyard.server.games.registry import game_spec

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("moon", {"target": 7}),
    ("moon", {"all_pass": "force_last", "target": 7}),
    ("straight", {"players": 2, "target": 61}),
    ("straight", {"players": 3, "target": 61}),
    ("straight", {"players": 4, "partnerships": False, "target": 61}),
    ("straight", {"players": 4, "partnerships": True, "target": 61}),
    ("texas42", {"target": 2}),
    ("texas42", {"all_pass": "redeal", "nello": True, "target": 2}),
]


def _id(value: tuple[str, dict[str, Any]]) -> str:
    return "-".join([value[0], *(f"{k}={v}" for k, v in value[1].items())])


async def play_game(
    url: str,
    game: str,
    options: dict[str, Any],
    seed: int,
    *,
    accept: tuple[str, ...] = (),
    turn_seconds: int | None = None,
) -> dict[str, Any]:
    """Humans in every seat and one spectator play a game out; returns what the test checks.
    ``accept``: the features every connection opts in to."""
    spec = game_spec(game)
    players_n = spec.players_of(spec.options_from_dict(options))
    players = [await Player.connect(url, f"g{seed}-{i}", accept=accept) for i in range(players_n)]
    created = await players[0].request(
        type="create_table", game=game, options=options, seat=0, turn_seconds=turn_seconds
    )
    table_id = created.table.table_id
    watcher = await Player.connect(url, f"w{seed}", accept=accept)
    assert (await watcher.request(type="spectate", table_id=table_id)).type == "snapshot"
    for seat, player in enumerate(players[1:], start=1):
        assert (await player.request(type="join", table_id=table_id, seat=seat)).type == "seated"
    rng = random.Random(seed)
    overs = await asyncio.gather(
        *(p.play(table_id, random.Random(rng.random())) for p in players),
        watcher.until(is_event("game_over"), timeout=60),
    )
    ends = {(o.winner, o.scores, o.record_id) for o in [*overs[:-1], overs[-1].event]}
    assert len(ends) == 1, "everyone sees the same end"
    winner, scores, record_id = ends.pop()
    reply = await watcher.request(type="get_record", record_id=record_id)
    assert reply.type == "record"
    record = reply.record.model_dump()
    for p in [*players, watcher]:
        await p.until(lambda m: m.type == "deal_revealed")  # right after game_over
        await p.close()
    return {
        "table_id": table_id,
        "winner": winner,
        "scores": scores,
        "record": record,
        "connections": [(p.log, p.seat) for p in players] + [(watcher.log, None)],
        "frames": [p.frames for p in [*players, watcher]],
    }


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[_id(g) for g in GAMES])
async def test_a_full_game_reaches_a_winner_and_its_record_replays(
    game: str, options: dict[str, Any]
) -> None:
    async with running_server(seed=1) as server:
        result = await play_game(server.url, game, options, seed=1)
    record = result["record"]
    assert record["winner"] == result["winner"] and tuple(record["final_scores"]) == result["scores"]
    assert list(record["seat_names"]) == [f"g1-{i}" for i in range(record["players"])]
    engine = replay(record)
    assert engine.winner == result["winner"] and engine.is_over
    for log, seat in result["connections"]:
        assert check_connection(log, seat, record, result["table_id"]) > 0
