"""What a cluster's write-ahead costs: JetStream appends to per-table journals on a local nats-server.

    python bench/bench_cluster_journal.py [--tables 300] [--appends 20] [--memory]

Starts a real ``nats-server -js`` (the test extra's binary) on a free loopback port with its store in a
temporary folder, then has ``--tables`` tables append ``--appends`` entries each, all tables at once (as a
busy node does), every append awaited before that table's next one (the write-ahead rule). Prints the
append latency p50/p99/max and the appends per second of the whole node.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nats

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "cluster"))
from natsserver import running

from boneyard.server.cluster.journal import TableJournal, ensure_stream


async def run(tables: int, appends: int, memory: bool, url: str) -> None:
    client = await nats.connect(url)
    js = client.jetstream()
    await ensure_stream(js, memory=memory)
    journals = [await TableJournal.open(js, f"t{n}") for n in range(tables)]
    latencies: list[float] = []

    async def table(journal: TableJournal) -> None:
        for n in range(appends):
            start = time.perf_counter()
            await journal.append(b"x" * 24 + n.to_bytes(2, "big"))
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(table(journal) for journal in journals))
    elapsed = time.perf_counter() - start
    replay_start = time.perf_counter()
    for n in range(min(tables, 50)):
        await TableJournal.open(js, f"t{n}")
    replay = (time.perf_counter() - replay_start) / min(tables, 50)
    await client.close()
    latencies.sort()
    ms = [value * 1000 for value in latencies]
    print(
        f"{tables} tables x {appends} appends ({'memory' if memory else 'file'} storage): "
        f"{len(ms) / elapsed:,.0f} appends/s; latency p50 {statistics.median(ms):.2f} ms, "
        f"p99 {ms[int(len(ms) * 0.99)]:.2f} ms, max {ms[-1]:.2f} ms; "
        f"replay of one {appends}-entry journal {replay * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--appends", type=int, default=20)
    parser.add_argument("--memory", action="store_true", help="JetStream memory storage instead of file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, running(Path(folder) / "js") as server:
        asyncio.run(run(args.tables, args.appends, args.memory, server.url))


if __name__ == "__main__":
    main()
