"""Human tables' latency while searching bots play bots-only tables on the same server.

Starts ``boneyard-server serve`` (in memory) as a subprocess, opens ``--bot-tables`` bots-only Moon
tables of ``--level`` bots (target 1000, so they play on for the whole run), then ``--humans``
Moon tables each with one scripted player and two basic bots. Each player answers every turn
after a 0.1 s pause with its first legal action (its bots move at once); the latency is the time
from sending ``act`` to its ``ok`` reply. Prints p50/p99/max over the window and the bots' moves.

    python bench/bench_bot_latency.py --bot-tables 300 --level strong --humans 20 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import sys
import time
from typing import Any

import msgpack
import websockets

ids = itertools.count(1)
THINK_SECONDS = 0.1
"""A player's pause before each action: quick for a person, so the window holds many acts."""


async def _request(ws: Any, command: dict[str, Any]) -> dict[str, Any]:
    command = {**command, "id": next(ids)}
    await ws.send(msgpack.packb(command))
    while True:
        message = msgpack.unpackb(await ws.recv())
        if message.get("reply_to") == command["id"]:
            return message  # type: ignore[no-any-return]


async def _connect(url: str, name: str) -> Any:
    ws = await websockets.connect(url, subprotocols=["boneyard.v1"], max_queue=None)  # type: ignore[list-item]
    await ws.recv()  # hello
    await _request(ws, {"type": "identify", "name": name})
    return ws


async def _bots_table(url: str, level: str) -> None:
    ws = await _connect(url, "host")
    await _request(
        ws,
        {
            "type": "create_table",
            "game": "moon",
            "options": {"target": 1000},
            "bots": [0, 1, 2],
            "bot_levels": [level] * 3,
            "seat": None,
        },
    )
    await ws.close()


async def _human(url: str, index: int, stop_at: float, latencies: list[float]) -> None:
    ws = await _connect(url, f"p{index}")
    while time.monotonic() < stop_at:  # a game per table (a made 21 ends one at once)
        await _human_game(ws, stop_at, latencies)
    await ws.close()


async def _human_game(ws: Any, stop_at: float, latencies: list[float]) -> None:
    created = await _request(
        ws,
        {"type": "create_table", "game": "moon", "bots": [1, 2], "seat": 0, "turn_seconds": None,
         "options": {"target": 1000}},
    )  # fmt: skip
    table_id = created["table"]["table_id"]
    pending: tuple[int, float] | None = None  # the act awaiting its reply: (id, when sent)
    turn: dict[str, Any] | None = None  # my latest turn with legal actions, not yet answered
    while time.monotonic() < stop_at:
        message = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 30))
        if message.get("type") == "event" and message["event"]["type"] == "game_over":
            await ws.send(msgpack.packb({"type": "leave", "table_id": table_id, "id": next(ids)}))
            return
        if message.get("type") == "turn":
            turn = message if message.get("legal_actions") else None
        elif pending is not None and message.get("reply_to") == pending[0]:
            if message["type"] == "ok":
                latencies.append(time.perf_counter() - pending[1])
            pending = None
        if turn is not None and pending is None:  # answer at once (a discard's turn can precede the ok)
            command = {
                "type": "act",
                "table_id": table_id,
                "action": turn["legal_actions"][0],
                "id": next(ids),
            }
            await asyncio.sleep(THINK_SECONDS)
            pending = (command["id"], time.perf_counter())
            turn = None
            await ws.send(msgpack.packb(command))


async def _moves(url: str) -> float:
    """The server's bot actions so far (from /metrics)."""
    host, port = url.removeprefix("ws://").rstrip("/").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    text = (await reader.read()).decode()
    writer.close()
    for line in text.splitlines():
        if line.startswith('boneyard_actions_total{by="bot"}'):
            return float(line.split()[-1])
    return 0.0


async def main(args: argparse.Namespace) -> None:
    caps = {"MAX_BOT_TABLES": "5000", "BOT_TABLES_PER_SESSION": "5000", "TABLES_PER_ADDRESS": "5000"}
    env = {
        **os.environ,
        "BONEYARD_BOT_DELAY_SECONDS": "0",
        "BONEYARD_COMMANDS_PER_SECOND": "1000",
        "BONEYARD_HAND_PAUSE_SECONDS": "0",  # its players never say ready: no pause between hands
        **{f"BONEYARD_{name}": value for name, value in caps.items()},  # one client opens every table
    }
    command = [sys.executable, "-m", "boneyard.server.cli", "serve", "--port", "0", "--log-level", "warning"]
    server = await asyncio.create_subprocess_exec(
        *command, "--db", ":memory:", env={**env, "BONEYARD_DURABLE": "false"}, stdout=asyncio.subprocess.PIPE
    )
    assert server.stdout is not None
    line = (await server.stdout.readline()).decode()
    url = line.split()[-1]
    try:
        for _ in range(args.bot_tables):
            await _bots_table(url, args.level)
        await asyncio.sleep(2)  # the bots-only tables get going
        before = await _moves(url)
        latencies: list[float] = []
        stop_at = time.monotonic() + args.seconds
        await asyncio.gather(*(_human(url, i, stop_at, latencies) for i in range(args.humans)))
        bot_moves = await _moves(url) - before
    finally:
        server.terminate()
        await server.wait()
    latencies.sort()
    p = lambda q: 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
    print(
        f"{args.bot_tables} bots-only {args.level} tables, {args.humans} human tables, {args.seconds} s: "
        f"{len(latencies)} acts, act->ok p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
        f"max {1000 * latencies[-1]:.1f} ms, "
        f"mean {1000 * statistics.fmean(latencies):.1f} ms; server moves (all bots) {bot_moves:.0f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-tables", type=int, default=300)
    parser.add_argument("--level", choices=("basic", "good", "strong"), default="strong")
    parser.add_argument("--humans", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    asyncio.run(main(parser.parse_args()))
