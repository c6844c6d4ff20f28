"""CPU per action of the durable write path alone: ``DurableLog`` and the ``Journal`` on a real SQLite file.

    python bench/bench_journal.py [--tables 300] [--actions 100000] [--per-pass 150] [--sync full|normal]

What a durable server adds to each accepted action, without the rest of it: ``--tables`` tables play
in turn, ``--per-pass`` actions per event-loop pass (what a saturated server handles between two
commits), each written as the server writes it (the action, the next move's deadline, where its
messages ended) and committed by the journal's worker thread (``--sync full``, the default) or on the
loop (``normal``). A game is 2,700 actions, then the next game starts (the old one's actions dropped).
Prints the process CPU (every thread: the loop's statements and the worker's commits) per action, the
wall time per action, commits, and the database's size.
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
    journal = Journal(db.connection, asyncio.get_running_loop(), inline=args.sync == "normal")
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
    while done < args.actions:
        for _ in range(args.per_pass):
            table_id = tables[done % len(tables)]
            move, game = moves[table_id], games[table_id]
            log.action(table_id, game, move, move % 3, action, False)
            log.deadline(table_id, move + 1, time.time() + 30)
            log.action_end(table_id, game, move, done, [(12345, done), (23456, done), (34567, done)])
            moves[table_id] = move + 1
            if move + 1 == GAME_ACTIONS:
                moves[table_id], games[table_id] = 0, game + 1
            done += 1
        await asyncio.sleep(0)  # the loop pass ends: the batch runs, the worker commits meanwhile
        await journal.committed()  # frames would wait for this; the next pass is what came meanwhile
    await journal.drain()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    commits = journal.commits - commits
    await journal.close()
    size = path.stat().st_size + (path.with_name(path.name + "-wal").stat().st_size)
    db.close()
    print(
        f"{done} actions, {args.per_pass} a pass, {args.tables} tables, sync {args.sync}: "
        f"{cpu / done * 1e6:.1f} us CPU per action (all threads), {wall / done * 1e6:.1f} us wall, "
        f"{commits} commits, database and WAL {size / 1e6:.1f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--per-pass", type=int, default=150)
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder) / "bench.db"))


if __name__ == "__main__":
    main()
