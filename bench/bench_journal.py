"""CPU per action of the durable write path alone: ``DurableLog`` and the ``Journal`` on a real SQLite file.

    python bench/bench_journal.py [--tables 300] [--actions 100000] [--per-pass 150] [--sync full|normal]
    python bench/bench_journal.py --rate 6000 [--window-ms 5] [--seconds 10]

What a durable server adds to each accepted action, without the rest of it: ``--tables`` tables play
in turn, ``--per-pass`` actions per event-loop pass (what a saturated server handles between two
commits), each written as the server writes it (the action, the next move's deadline, where its
messages ended) and committed by the journal's worker thread (``--sync full``, the default) or on the
loop (``normal``). A game is 2,700 actions, then the next game starts (the old one's actions dropped).
Prints the process CPU (every thread: the loop's statements and the worker's commits) per action, the
wall time per action, commits, and the database's size.

``--rate``: actions arrive at that many a second instead, spread over the loop's passes (a tick each
millisecond), whatever the commits do (as at human pace), for ``--seconds``; ``--window-ms``: the
journal's commit window (``Settings.commit_window_ms``). Prints the same figures and how long each
tick's writes waited for their commit (what frames wait for), p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from boneyard.server.games.moon import Pass
from boneyard.server.storage.db import open_database
from boneyard.server.storage.journal import Journal
from boneyard.server.storage.store import DurableLog

GAME_ACTIONS = 2_700


async def run(args: argparse.Namespace, path: Path) -> None:
    db = open_database(path)
    db.set_synchronous(args.sync)
    loop = asyncio.get_running_loop()
    journal = Journal(db.connection, loop, inline=args.sync == "normal", window=args.window_ms / 1000)
    log = DurableLog(journal)
    tables = [f"t{i}" for i in range(args.tables)]
    for table_id in tables:
        journal.write(
            "INSERT INTO tables (table_id, game, options, status, games, rematch) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, "moon", "{}", "playing", 1, "[]"),
        )
    await journal.drain()
    moves = dict.fromkeys(tables, 0)
    games = dict.fromkeys(tables, 1)
    action = Pass()
    cpu, wall = time.process_time(), time.perf_counter()
    commits = journal.commits
    done = 0
    waits: list[float] = []

    def act() -> None:
        nonlocal done
        table_id = tables[done % len(tables)]
        move, game = moves[table_id], games[table_id]
        log.action(table_id, game, move, move % 3, action, False)
        log.deadline(table_id, move + 1, time.time() + 30)
        log.action_end(table_id, game, move, done, [(12345, done), (23456, done), (34567, done)])
        moves[table_id] = move + 1
        if move + 1 == GAME_ACTIONS:
            moves[table_id], games[table_id] = 0, game + 1
        done += 1

    if args.rate:
        start = loop.time()
        while (now := loop.time()) - start < args.seconds:
            due = int((now - start) * args.rate) - done
            for _ in range(due):
                act()
            if due:
                journal.after_commit(lambda at=now: waits.append(loop.time() - at))
            await asyncio.sleep(0.001)
    while done < args.actions and not args.rate:
        for _ in range(args.per_pass):
            act()
        await asyncio.sleep(0)  # the loop pass ends: the batch runs, the worker commits meanwhile
        await journal.committed()  # frames would wait for this; the next pass is what came meanwhile
    await journal.drain()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    commits = journal.commits - commits
    await journal.close()
    size = path.stat().st_size + (path.with_name(path.name + "-wal").stat().st_size)
    db.close()
    waits.sort()
    if waits:
        p50, p99 = waits[len(waits) // 2] * 1e3, waits[int(len(waits) * 0.99)] * 1e3
        print(
            f"window {args.window_ms} ms: a tick's writes waited {p50:.1f} ms for their commit, p99 {p99:.1f}"
        )
    shape = f"{args.rate} a second" if args.rate else f"{args.per_pass} a pass"
    print(
        f"{done} actions, {shape}, {args.tables} tables, sync {args.sync}: "
        f"{cpu / done * 1e6:.1f} us CPU per action (all threads), {wall / done * 1e6:.1f} us wall, "
        f"{commits} commits, database and WAL {size / 1e6:.1f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--per-pass", type=int, default=150)
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument("--rate", type=int, default=0, help="actions a second, arriving at a steady pace")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long, with --rate")
    parser.add_argument("--window-ms", type=float, default=0.0, help="the journal's commit window")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder) / "bench.db"))


if __name__ == "__main__":
    main()
