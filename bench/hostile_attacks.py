"""The hostile clients of ``bench/hostile.py``: what each attack sends and how its answers are tallied.

Each attack opens connection after connection (``attack``) and counts the error codes and close codes it
gets (``Tally``), which ``hostile.py`` checks against the spec's tables.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from typing import Any, get_args

import msgpack
import websockets

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
