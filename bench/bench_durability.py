"""Durability's cost: actions per second with durability on and off, and the time to restore 1,000 tables.

    python bench/bench_durability.py [--tables 1000] [--seconds 10]

An in-process server (one event loop, as in production) hosts ``--tables`` bots-only tables (half
Moon, half four-player Straight, targets too high to finish) that play flat out, one move per
table per loop pass. Game actions are counted from ``boneyard_actions_total`` over ``--seconds``,
once in memory only and once durable (a fresh SQLite file; WAL, ``synchronous=FULL``, group
commit). Then one player's ``act`` to ``ok`` round trip on an idle server, durability off and on.
Last, the durable run's tables, left in the database mid-game (and the same tables stopped after
one second of play), are restored by a new server: the time of its ``start()`` (open, lock,
``quick_check``, load, deal again and replay every stored action) until it accepts connections.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

from boneyard.protocol import COMMAND_ADAPTER, decode_server_message, encode
from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings

GAMES = [
    {"game": "moon", "options": {"target": 1000}, "bots": [0, 1, 2]},
    {"game": "straight", "options": {"players": 4, "target": 10_000}, "bots": [0, 1, 2, 3]},
]


def settings(db: Path | None) -> Settings:
    return Settings(
        port=0,
        durable=db is not None,
        db=db or Path("unused.db"),
        log_level="warning",
        max_tables=10_000,
        tables_per_address=10_000,
        max_bot_tables=10_000,
        bot_tables_per_session=10_000,
        tables_per_session=10_000,
        bots_only_move_seconds=0,
        hand_pause_seconds=0,  # its players never say ready: no pause between hands
        commands_per_second=100_000,
        command_burst=100_000,
        gc_freeze_seconds=0,
        bot_delay_seconds=0,
    )


def actions(server: BoneyardServer) -> float:
    return float(server.metrics.registry.get_sample_value("boneyard_actions_total", {"by": "bot"}) or 0)


async def keep_tables(server: BoneyardServer, count: int) -> None:
    """Keep ``count`` bots-only tables playing (a Moon game can end at once on a bid of 21 made)."""
    lobby = server.lobby
    assert lobby is not None
    session = lobby.new_session("bench")
    made = 0
    while True:
        for _ in range(count - len(lobby.tables)):
            spec = {"type": "create_table", "seat": None, **GAMES[made % 2]}
            command = COMMAND_ADAPTER.validate_python(spec)
            lobby.create_table(session, command, None)
            made += 1
        await asyncio.sleep(0.05)


async def throughput(db: Path | None, tables: int, seconds: float) -> dict[str, float]:
    server = BoneyardServer(settings(db))
    await server.start()
    try:
        keeper = asyncio.create_task(keep_tables(server, tables))
        await asyncio.sleep(1.0)  # warm up
        journal = server.storage.journal if server.storage else None
        commits0, statements0 = (journal.commits, journal.statements) if journal else (0, 0)
        start, before = time.perf_counter(), actions(server)
        await asyncio.sleep(seconds)
        elapsed, done = time.perf_counter() - start, actions(server) - before
        keeper.cancel()
        out = {"actions_per_s": done / elapsed}
        if journal is not None:
            commits = journal.commits - commits0
            out["commits_per_s"] = commits / elapsed
            out["statements_per_commit"] = (journal.statements - statements0) / max(1, commits)
        return out
    finally:
        await server.stop()


async def round_trips(db: Path | None, acts: int) -> dict[str, float]:
    """One player against a bot on an otherwise idle server: ``act`` to its ``ok`` (events and the
    next turn come before it), in milliseconds."""
    server = BoneyardServer(settings(db))
    await server.start()
    times: list[float] = []
    try:
        async with websockets.connect(server.url, subprotocols=["boneyard.v1"], max_queue=None) as ws:  # type: ignore[list-item]
            ids = iter(range(1, 1_000_000))

            async def send(**command: Any) -> int:
                number = next(ids)
                await ws.send(encode(COMMAND_ADAPTER.validate_python({**command, "id": number})))
                return number

            await ws.recv()
            await send(type="identify", name="bench")
            table = {"game": "straight", "options": {"players": 2, "target": 10_000}, "bots": [1]}
            await send(type="create_table", seat=0, turn_seconds=None, **table)
            waiting: tuple[int, float] | None = None
            turn: Any = None
            while len(times) < acts:
                message = decode_server_message(await ws.recv())
                if waiting is not None and getattr(message, "reply_to", None) == waiting[0]:
                    times.append(time.perf_counter() - waiting[1])
                    waiting = None
                elif message.type == "turn":
                    turn = message if message.seat == 0 and message.legal_actions else None
                if waiting is None and turn is not None:
                    action = turn.legal_actions[0].model_dump()
                    waiting = (
                        await send(type="act", table_id=turn.table_id, action=action),
                        time.perf_counter(),
                    )
                    turn = None
    finally:
        await server.stop()
    times.sort()
    return {"median_ms": statistics.median(times) * 1e3, "p99_ms": times[int(len(times) * 0.99)] * 1e3}


async def restore(db: Path) -> dict[str, float]:
    connection = sqlite3.connect(db)
    tables = connection.execute("SELECT count(*) FROM tables").fetchone()[0]
    stored = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    connection.close()
    server = BoneyardServer(settings(db))
    started = time.perf_counter()
    await server.start()
    seconds = time.perf_counter() - started
    assert server.lobby is not None and len(server.lobby.tables) == tables, len(server.lobby.tables)
    await server.stop()
    return {"tables": tables, "seconds": seconds, "actions": stored, "db_mib": db.stat().st_size / 2**20}


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        memory = await throughput(None, args.tables, args.seconds)
        durable = await throughput(db, args.tables, args.seconds)
        print(f"{args.tables} bots-only tables, flat out, {args.seconds:.0f} s each:")
        print(f"  durability off: {memory['actions_per_s']:>9,.0f} actions/s")
        print(
            f"  durability on:  {durable['actions_per_s']:>9,.0f} actions/s"
            f" ({durable['actions_per_s'] / memory['actions_per_s']:.0%}),"
            f" {durable['commits_per_s']:,.0f} commits/s"
            f" of {durable['statements_per_commit']:,.0f} statements each"
        )
        for label, path in (("off", None), ("on", Path(tmp) / "rtt.db")):
            rtt = await round_trips(path, 500)
            print(
                f"act -> ok round trip, durability {label}:"
                f" median {rtt['median_ms']:.2f} ms, p99 {rtt['p99_ms']:.2f} ms"
            )
        early = Path(tmp) / "early.db"
        await throughput(early, args.tables, 0.0)  # the same tables, stopped after a second of play
        for path in (early, db):
            restored = await restore(path)
            print(
                f"restore {restored['tables']:,} tables: {restored['seconds']:.2f} s"
                f" ({restored['actions']:,} actions replayed, database {restored['db_mib']:.1f} MiB)"
            )


if __name__ == "__main__":
    asyncio.run(main())
