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
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, get_args

import msgpack
import websockets
from crashes import Server, choose, free_port

from boneyard.protocol import CLOSE_CODES, COMMAND_ADAPTER, ErrorCode, decode_server_message, encode

ERROR_CODES = frozenset(get_args(ErrorCode))
COMMANDS = ("ping", "identify", "list_tables", "create_table", "join", "take_seat", "spectate", "leave")
COMMANDS += ("rematch", "act", "chat", "get_record", "contribute_seed")
WEIRD: tuple[Any, ...] = (None, -1, 2**40, "", "x" * 3000, [], {}, [1, [2, [3]]], 1.5, True, b"\x00\xff")
FIELDS = ("table_id", "seat", "game", "options", "bots", "action", "text", "seed", "record_id", "name")
FIELDS += ("resume", "invite", "turn_seconds", "level")


class Tally:
    """What the attacks got back."""

    def __init__(self) -> None:
        self.connections: Counter[str] = Counter()
        self.errors: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.closes: defaultdict[str, Counter[int | None]] = defaultdict(Counter)
        self.frames: Counter[str] = Counter()
        self.dropped: Counter[str] = Counter()
        """Connections the server dropped before a websocket existed (no close code)."""
        self.failed: defaultdict[str, Counter[str]] = defaultdict(Counter)
        """Attacks that failed on the client's side (refused or dropped connections)."""

    def undocumented(self) -> list[str]:
        out = [f"{k}: error {c}" for k, codes in self.errors.items() for c in codes if c not in ERROR_CODES]
        for kind, closes in self.closes.items():
            out += [f"{kind}: close {c}" for c in closes if c is not None and c not in CLOSE_CODES]
        return out


class World:
    def __init__(self, url: str, port: int, rng: random.Random) -> None:
        self.url, self.port, self.rng = url, port, rng
        self.tally = Tally()
        self.tables: list[str] = []
        """Honest players' tables (to watch)."""
        self.records: list[str] = []
        self.act_times: list[float] = []
        """When each honest act was answered (seconds since the start)."""
        self.pings: list[tuple[float, float]] = []
        """(when, round trip seconds)."""
        self.started = time.monotonic()


async def connect(world: World, **kwargs: Any) -> Any:
    kwargs.setdefault("max_queue", None)
    return await websockets.connect(world.url, subprotocols=["boneyard.v1"], open_timeout=20, **kwargs)  # type: ignore[list-item]


def command(**fields: Any) -> bytes:
    return encode(COMMAND_ADAPTER.validate_python(fields))


async def drain(world: World, kind: str, ws: Any, seconds: float) -> None:
    """Read for up to ``seconds`` (or until closed), noting error codes and the close code."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                frame = await ws.recv()
                message = decode_server_message(frame)
                if message.type == "error":
                    world.tally.errors[kind][message.code] += 1
    except TimeoutError:
        await ws.close()
    except websockets.ConnectionClosed:
        pass
    world.tally.closes[kind][ws.close_code] += 1


async def frames_attack(world: World, kind: str, frames: list[bytes], *, identify: bool = True) -> None:
    world.tally.connections[kind] += 1
    ws = await connect(world)
    try:
        await ws.recv()  # hello
        if identify:
            await ws.send(command(type="identify", name=f"h{world.rng.randrange(10**6)}"))
        for frame in frames:
            await ws.send(frame)
            world.tally.frames[kind] += 1
    except websockets.ConnectionClosed:
        pass
    await drain(world, kind, ws, 2.0)


def random_frames(rng: random.Random) -> list[bytes]:
    return [rng.randbytes(rng.randint(1, 300)) for _ in range(20)]


def truncated_frames(rng: random.Random) -> list[bytes]:
    whole = [
        command(type="create_table", id=1, game="moon", seat=0, bots=[1, 2]),
        command(type="chat", id=2, table_id="t1", text="hello there"),
        command(type="act", id=3, table_id="t1", action={"type": "play", "tile": [6, 4]}),
    ]
    return [f[: rng.randint(1, len(f) - 1)] for f in whole for _ in range(5)]


def wrong_type_frames(rng: random.Random) -> list[bytes]:
    shapes: tuple[Any, ...] = (1, "act", [1, 2, 3], None, {"type": 5}, {1: 2}, {"type": "act", "id": [1]})
    values = [msgpack.packb(v) for v in shapes]
    values.append(msgpack.packb({"type": "act", "id": 1, "table_id": 5, "action": "x"}))
    values.append(b"\xc1")  # never used in msgpack
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    values.append(msgpack.packb(deep))
    return [*values, msgpack.packb({"type": "ping", "id": rng.random()})]


def bad_field_frames(rng: random.Random) -> list[bytes]:
    out = []
    for kind in COMMANDS:
        out.append(msgpack.packb({"type": kind}))
        out.append(msgpack.packb({"type": kind, "id": 1, "nonsense": 1}))
        for name in rng.sample(FIELDS, 4):
            out.append(msgpack.packb({"type": kind, "id": rng.randrange(100), name: rng.choice(WEIRD)}))
    return out


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


async def attack(world: World, kind: str, until: float, max_frame: int) -> None:
    rng = random.Random(world.rng.random())
    while time.monotonic() < until:
        try:
            await ATTACKS[kind](world, rng, max_frame)
        except websockets.ConnectionClosed as closed:  # closed while we still sent or awaited a reply
            world.tally.closes[kind][closed.rcvd.code if closed.rcvd is not None else None] += 1
        except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
            world.tally.failed[kind][type(error).__name__] += 1  # the attacker's own failure, not an answer
            await asyncio.sleep(0.05)


async def _random(world: World, rng: random.Random, _: int) -> None:
    await frames_attack(world, "random", random_frames(rng), identify=rng.random() < 0.5)


async def _truncated(world: World, rng: random.Random, _: int) -> None:
    await frames_attack(world, "truncated", truncated_frames(rng))


async def _oversized(world: World, rng: random.Random, max_frame: int) -> None:
    await frames_attack(world, "oversized", [rng.randbytes(max_frame + rng.randint(1, 1000))])


async def _wrong_types(world: World, rng: random.Random, _: int) -> None:
    await frames_attack(world, "wrong_types", wrong_type_frames(rng))


async def _bad_fields(world: World, rng: random.Random, _: int) -> None:
    await frames_attack(world, "bad_fields", bad_field_frames(rng))


async def _flood(world: World, rng: random.Random, _: int) -> None:
    frames = [command(type="ping", id=i) for i in range(3000)]
    await frames_attack(world, "flood", frames)


async def _slow_handshake(world: World, rng: random.Random, _: int) -> None:
    world.tally.connections["slow_handshake"] += 1
    reader, writer = await asyncio.open_connection("127.0.0.1", world.port)
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    closed = False
    for byte in request:
        writer.write(bytes([byte]))
        await asyncio.sleep(1.0)
        if reader.at_eof():
            closed = True
            break
        try:
            if await asyncio.wait_for(reader.read(1024), 0.01) == b"":
                closed = True
                break
        except TimeoutError:
            pass
    world.tally.dropped["slow_handshake" if closed else "slow_handshake (still open)"] += 1
    writer.close()


async def _never_reading(world: World, rng: random.Random, _: int) -> None:
    world.tally.connections["never_reading"] += 1
    ws = await connect(world, max_queue=1)
    await ws.recv()
    await ws.send(command(type="identify", name="sleepy", id=1))
    if world.tables:
        await ws.send(command(type="spectate", id=2, table_id=rng.choice(world.tables[-4:])))
    await asyncio.sleep(8)  # the table's frames pile up in the server's send queue for us
    await drain(world, "never_reading", ws, 1.0)


async def _spectators(world: World, rng: random.Random, _: int) -> None:
    if not world.tables:
        await asyncio.sleep(0.5)
        return
    table = rng.choice(world.tables[-4:])

    async def one(i: int) -> None:
        world.tally.connections["spectators"] += 1
        ws = await connect(world)
        await ws.recv()
        await ws.send(command(type="identify", name=f"watcher{i}", id=1))
        await ws.send(command(type="spectate", id=2, table_id=table))
        for n in range(3):
            await ws.send(command(type="chat", id=3 + n, table_id=table, text=f"gg {n}"))
        await drain(world, "spectators", ws, 3.0)

    await asyncio.gather(*(one(i) for i in range(40)), return_exceptions=True)


async def _records(world: World, rng: random.Random, _: int) -> None:
    world.tally.connections["records"] += 1
    ws = await connect(world)
    await ws.recv()
    await ws.send(command(type="identify", name="reader", id=1))
    ends = time.monotonic() + 3
    n = 1
    while time.monotonic() < ends:
        n += 1
        record_id = rng.choice(world.records) if world.records else "r-none"
        await ws.send(command(type="get_record", id=n, record_id=record_id))
        while True:
            message = decode_server_message(await ws.recv())
            if message.type == "error":
                world.tally.errors["records"][message.code] += 1
            if getattr(message, "reply_to", None) == n:
                break
        world.tally.frames["records"] += 1
    await drain(world, "records", ws, 0.2)


ATTACKS = {
    "random": _random,
    "truncated": _truncated,
    "oversized": _oversized,
    "wrong_types": _wrong_types,
    "bad_fields": _bad_fields,
    "flood": _flood,
    "slow_handshake": _slow_handshake,
    "never_reading": _never_reading,
    "spectators": _spectators,
    "records": _records,
}


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
