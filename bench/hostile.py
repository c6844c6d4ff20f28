"""Hostile clients against a live server while honest players play: no crash, every answer documented.

    python bench/hostile.py [--seconds 20] [--before 5] [--players 4] [--workers 2]

A real ``boneyard-server serve`` subprocess (durable, on a SQLite file in a temporary directory).
``--players`` honest clients each play a Moon table against two bots, acting at once, a new table
after each game, and one more pings every 100 ms (all in a process of their own). For
``--before`` seconds nothing else runs; then for ``--seconds`` seconds ``--workers`` tasks per kind
of attack run, each opening connection after connection:

- ``random``: random bytes as frames; ``truncated``: valid commands cut short; ``oversized``: a frame
  past ``max_frame_bytes``; ``wrong_types``: msgpack that is not a command map, or a map of wrong types;
- ``bad_fields``: every command type with missing, unknown, out-of-range and wrongly typed fields;
- ``flood``: pings as fast as the socket takes them, never reading; ``slow_handshake``: an HTTP upgrade
  sent a byte a second; ``never_reading``: watching an honest table and never reading;
- ``spectators``: 40 connections watching an honest table, each chatting within its limits;
- ``records``: ``get_record`` of a finished game as fast as the answers come.

Reported: each attack's connections, the error codes and close codes it got, any of them not in the
spec's tables (``boneyard.protocol``: ``ErrorCode``, ``CLOSE_CODES``), whether the server process
died, tracebacks in its log, the honest players' acts, and the ping's p50/p99 before and during.
Exit status 1 if the server died, logged a traceback or answered with anything undocumented.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import websockets
from crashes import Server, choose, free_port
from hostile_attacks import ATTACKS, World, attack, command, connect

from boneyard.protocol import decode_server_message


async def honest_player(world: World, name: str, until: float) -> None:
    ws = await connect(world)
    await ws.recv()
    await ws.send(command(type="identify", name=name, id=1))
    ids, pending, turn = 1, False, None
    table = None

    async def create() -> None:
        nonlocal ids
        ids += 1
        spec = {"game": "moon", "options": {"target": 7}, "bots": [1, 2], "seat": 0, "turn_seconds": None}
        spec["hand_pause_ms"] = 0  # no pause between hands: the honest players never say ready
        await ws.send(command(type="create_table", id=ids, **spec))

    async def act() -> None:
        nonlocal ids, pending, turn
        ids += 1
        action = choose(list(turn.legal_actions), world.rng)
        pending, turn = True, None
        await ws.send(command(type="act", id=ids, table_id=table, action=action))

    await create()
    while time.monotonic() < until:
        message = decode_server_message(await asyncio.wait_for(ws.recv(), 30))
        if message.type == "table_created":
            table = message.table.table_id
            print("table", table, flush=True)
        elif message.type == "ok" and pending:
            pending = False
            print("act", f"{time.monotonic() - world.started:.4f}", flush=True)
            if turn is not None:
                await act()
        elif message.type == "turn" and message.table_id == table:
            turn = message if message.legal_actions else None
            if turn is not None and not pending:
                await act()
        elif message.type == "event" and message.event.type == "game_over" and message.table_id == table:
            print("record", message.event.record_id, flush=True)
            ids += 1
            await ws.send(command(type="leave", id=ids, table_id=table))
            await create()
        elif message.type == "error":
            raise SystemExit(f"an honest player got an error: {message}")
    await ws.close()


async def honest(url: str, seconds: float, players: int) -> None:
    """The honest clients, in a process of their own (the attackers' loop must not slow them): one line
    a ping (``ping`` seconds-since-start round-trip), an act (``act`` seconds), a table, a record."""
    world = World(url, 0, random.Random(7))
    until = world.started + seconds
    await asyncio.gather(
        pinger(world, until), *(honest_player(world, f"honest{i}", until) for i in range(players))
    )


async def pinger(world: World, until: float) -> None:
    async with websockets.connect(world.url, subprotocols=["boneyard.v1"]) as ws:  # type: ignore[list-item]
        await ws.recv()
        await ws.send(command(type="identify", name="pinger"))
        await ws.recv()
        n = 0
        while time.monotonic() < until:
            n += 1
            sent = time.perf_counter()
            await ws.send(command(type="ping", id=n))
            while getattr(decode_server_message(await ws.recv()), "reply_to", None) != n:
                pass
            print(
                "ping", f"{time.monotonic() - world.started:.4f} {time.perf_counter() - sent:.6f}", flush=True
            )
            await asyncio.sleep(0.1)  # 10 commands a second: within the default rate (20)


async def honest_process(world: World, seconds: float, players: int) -> int:
    """Run :func:`honest` in a subprocess, taking in its tables, records, acts and pings as they come;
    its exit status."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--honest", world.url, "--seconds", str(seconds), "--players", str(players),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    async for line in process.stdout:
        kind, *rest = line.decode().split()
        if kind == "table":
            world.tables.append(rest[0])
        elif kind == "record":
            world.records.append(rest[0])
        elif kind == "act":
            world.act_times.append(float(rest[0]))
        elif kind == "ping":
            world.pings.append((float(rest[0]), float(rest[1])))
    return await process.wait()


def percentiles(rtts: list[float]) -> str:
    if len(rtts) < 2:
        return "no pings"
    q = statistics.quantiles(rtts, n=100)
    return f"p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms ({len(rtts)} pings)"


async def run(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="boneyard-hostile-"))
    env = {"BONEYARD_BOT_DELAY_SECONDS": "0.05", "BONEYARD_LOG_LEVEL": "warning"}
    server = Server(work / "boneyard.db", free_port(), work / "server.log", env)
    await server.start()
    world = World(f"ws://127.0.0.1:{server.port}/", server.port, random.Random(args.seed))
    until = time.monotonic() + args.before + args.seconds
    honest = asyncio.create_task(honest_process(world, args.before + args.seconds, args.players))
    await asyncio.sleep(args.before)
    attacks = [
        asyncio.create_task(attack(world, kind, until, args.max_frame))
        for kind in ATTACKS
        for _ in range(args.workers)
    ]
    await asyncio.gather(*attacks)
    honest_status = await honest
    assert server.process is not None
    died = server.process.returncode is not None
    code = None if died else await server.stop(15)
    log = server.log.read_text(errors="replace")
    tracebacks = log.count("Traceback")

    print(f"{args.seconds} s of attacks ({args.workers} workers a kind) after {args.before} s of honest play")
    print(f"{'attack':<15} {'conns':>6} {'frames':>7}  errors / close codes")
    for kind in ATTACKS:
        errors = dict(world.tally.errors[kind].most_common())
        closes = dict(world.tally.closes[kind].most_common())
        failed = dict(world.tally.failed[kind])
        counts = f"{world.tally.connections[kind]:>6} {world.tally.frames[kind]:>7}"
        print(f"{kind:<15} {counts}  {errors} / {closes}")
        if failed:
            print(f"{'':<31}client side: {failed}")
    print(f"dropped before the upgrade completed: {dict(world.tally.dropped)}")
    undocumented = world.tally.undocumented()
    print(f"undocumented error or close codes: {undocumented or 'none'}")
    before = sum(1 for t in world.act_times if t < args.before) / args.before
    during = sum(1 for t in world.act_times if t >= args.before) / args.seconds
    print(
        f"honest players: {args.players}, {before:.1f} acts/s before, {during:.1f} during"
        f" (their process exited {honest_status})"
    )
    print(f"ping before: {percentiles([r for t, r in world.pings if t < args.before])}")
    print(f"ping during: {percentiles([r for t, r in world.pings if t >= args.before])}")
    state = "DIED" if died else f"alive, exit code {code} on SIGTERM"
    print(f"server: {state}; tracebacks in its log: {tracebacks}")
    print(f"server log: {server.log}")
    return 1 if died or tracebacks or undocumented or honest_status else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--before", type=float, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-frame", type=int, default=4096, help="the server's max_frame_bytes")
    parser.add_argument("--honest", metavar="URL", help=argparse.SUPPRESS)  # the honest clients' process
    args = parser.parse_args()
    if args.honest:
        asyncio.run(honest(args.honest, args.seconds, args.players))
        return 0
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
