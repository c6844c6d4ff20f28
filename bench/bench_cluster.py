"""A cluster on one machine: failover time over many kills, and what a remote table costs a player.

    nice -n 10 python bench/bench_cluster.py [--kills 20] [--actions 300] [--lease 2]

Starts a real ``nats-server -js`` and real ``boneyard-server serve --cluster`` subprocesses on loopback.

- **Failover**: per round, a fresh node is started; a client on it creates a timed Moon table with two
  bots, and a player on a surviving node takes seat 0; after a random 5-40 actions the fresh node gets
  ``kill -9``, and the time to the first action the player then sees (a bot's or its own, after the new
  owner's snapshot and turn) is recorded. ``--kills`` rounds.
- **Remote table**: one table of two humans owned by node A; one player connected to A, the other to B.
  Each measures its own ``act`` to the event announcing it, ``--actions`` times each.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "cluster"))
from clusterkit import Node, Player, start_node, table_listed
from natsserver import running
from server_testkit import choose

ACTION_EVENTS = {"bid_made", "passed", "discarded", "trump_named", "tile_played", "tile_drawn"}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def failover_round(
    url: str, survivor: Node, name: str, env: dict[str, str], rng: random.Random
) -> float:
    victim = await start_node(url, name, env)
    creator = await Player.connect(victim.url, f"c{name}")
    created = await creator.request(
        type="create_table", game="moon", options={"target": 21}, seat=None, bots=[1, 2], turn_seconds=60
    )
    table_id = created.table.table_id
    player = await Player.connect(survivor.url, f"p{name}")
    await table_listed(player, table_id)
    assert (await player.request(type="join", table_id=table_id, seat=0)).type == "seated"
    killed_at: float | None = None
    kill_after = rng.randint(5, 40)
    seen = 0
    try:
        async with asyncio.timeout(60):
            while True:
                message = await player.next(timeout=30)
                if message.type == "turn" and message.seat == 0 and message.legal_actions:
                    action = choose(message.legal_actions, rng)
                    await player.send(type="act", table_id=table_id, action=action.model_dump())
                elif message.type == "event" and message.event.type in ACTION_EVENTS:
                    seen += 1
                    if killed_at is not None:
                        return time.perf_counter() - killed_at
                    if seen == kill_after:
                        victim.process.send_signal(signal.SIGKILL)
                        killed_at = time.perf_counter()
                elif message.type == "event" and message.event.type == "game_over":
                    raise RuntimeError("the game ended before the kill")
    finally:
        await player.close()
        if victim.process.returncode is None:
            victim.process.kill()
        await victim.process.wait()


async def remote_cost(a: Node, b: Node, actions: int) -> dict[str, list[float]]:
    local = await Player.connect(a.url, "local")
    remote = await Player.connect(b.url, "remote")
    created = await local.request(
        type="create_table", game="straight", options={"players": 2, "target": 250}, seat=0, turn_seconds=None
    )
    table_id = created.table.table_id
    await table_listed(remote, table_id)
    assert (await remote.request(type="join", table_id=table_id, seat=1)).type == "seated"
    took: dict[str, list[float]] = {"local": [], "remote": []}
    rng = random.Random(1)

    async def play(player: Player, key: str) -> None:
        sent_at: float | None = None
        while len(took["local"]) + len(took["remote"]) < 2 * actions:
            message = await player.next(timeout=30)
            if message.type == "turn" and message.seat == player.seat and message.legal_actions:
                action = choose(message.legal_actions, rng)
                sent_at = time.perf_counter()
                await player.send(type="act", table_id=table_id, action=action.model_dump())
            elif (
                message.type == "event"
                and sent_at is not None
                and getattr(message.event, "seat", None) == player.seat
            ):
                took[key].append(time.perf_counter() - sent_at)
                sent_at = None
            elif message.type == "event" and message.event.type == "game_over":
                await player.request(type="rematch", table_id=table_id)

    tasks = [asyncio.create_task(play(local, "local")), asyncio.create_task(play(remote, "remote"))]
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return took


async def main(kills: int, actions: int, lease: float) -> None:
    env = {"BONEYARD_CLUSTER_LEASE_SECONDS": str(lease), "BONEYARD_BOT_DELAY_SECONDS": "0.02"}
    with tempfile.TemporaryDirectory() as tmp, running(Path(tmp) / "js") as nats:
        a, b = await asyncio.gather(start_node(nats.url, "a", env), start_node(nats.url, "b", env))
        try:
            took = await remote_cost(a, b, actions)
            for key, values in took.items():
                ms = [v * 1000 for v in values]
                print(
                    f"act -> its event, player on the {'owner' if key == 'local' else 'other'} node: "
                    f"n={len(ms)} p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms"
                )
            rng = random.Random(7)
            times = []
            for n in range(kills):
                took_over = await failover_round(nats.url, a if n % 2 else b, f"v{n}", env, rng)
                times.append(took_over)
                print(f"kill {n + 1}: first action {took_over * 1000:.0f} ms after kill -9", flush=True)
            ms = [t * 1000 for t in times]
            print(
                f"failover (lease {lease:g} s) over {len(ms)} kills: p50 {statistics.median(ms):.0f} ms, "
                f"max {max(ms):.0f} ms, min {min(ms):.0f} ms"
            )
        finally:
            for node in (a, b):
                node.process.kill()
                await node.process.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--lease", type=float, default=2.0)
    args = parser.parse_args()
    asyncio.run(main(args.kills, args.actions, args.lease))
