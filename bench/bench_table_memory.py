"""Memory per connection in the table tier alone: tables of three played in process (``tracemalloc``).

    python bench/bench_table_memory.py [--tables 300] [--actions 200] [--plain] [--top 12]

``--tables`` Moon tables (target 21, untimed, no pause between hands) of three players, each command
packed with msgpack and decoded by ``decode_hot`` as the server does (``bench_table_tier.py``'s links:
frames counted, not kept), play ``--actions`` random legal actions each, round robin. Prints the
memory allocated since before the first table (what is still alive after a full collection) divided
by the connections, the allocation sites that hold most of it, and the objects the collector tracks
more, per connection. The socket tier (websockets, the transport, the ``Client``) is not in it: that is
``loadgen.py``'s RSS figure. Shared caches (encoded events, bounded) count here as if per connection.
"""

from __future__ import annotations

import argparse
import gc
import random
import tracemalloc
from typing import Any

import msgpack
from bench_table_tier import CountingLink, in_process

from boneyard.protocol import COMMAND_LIMITS
from boneyard.protocol.codec import decode_hot
from boneyard.server.table import Table
from boneyard.server.wire import wire_action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--actions", type=int, default=200, help="actions per table")
    parser.add_argument("--plain", action="store_true", help="the players do not accept turn_in_event")
    parser.add_argument("--top", type=int, default=12, help="allocation sites shown")
    args = parser.parse_args()
    lobby, commands = in_process(hand_pause_seconds=0, tables_per_address=args.tables, max_tables=args.tables)

    def send(link: CountingLink, command: dict[str, Any]) -> None:
        commands.handle(link, decode_hot(msgpack.packb(command), COMMAND_LIMITS))

    gc.collect()
    tracked = len(gc.get_objects())
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    tables: list[tuple[Table, list[CountingLink]]] = []
    accept = [] if args.plain else ["turn_in_event"]
    create = {"type": "create_table", "id": 2, "game": "moon", "options": {"target": 21}, "seat": 0}
    for _ in range(args.tables):
        links = [CountingLink() for _ in range(3)]
        for i, link in enumerate(links):
            send(link, {"type": "identify", "id": 1, "name": f"p{i}", "accept": accept})
        send(links[0], {**create, "bots": [], "turn_seconds": None})
        table = list(lobby.tables.values())[-1]
        for i in (1, 2):
            send(links[i], {"type": "join", "id": 3, "table_id": table.table_id, "seat": i})
        tables.append((table, links))
    rng = random.Random(1)
    for k in range(args.actions):
        for table, links in tables:
            engine = table.match.engine if table.match is not None else None
            seat = engine.to_move if engine is not None else None
            if engine is None or seat is None:
                continue  # a finished game: this table stops here
            wire = wire_action(rng.choice(engine.legal_actions(seat)))
            action = {key: list(v) if isinstance(v, tuple) else v for key, v in wire.items()}
            send(links[seat], {"type": "act", "id": k + 10, "table_id": table.table_id, "action": action})
    gc.collect()
    stats = tracemalloc.take_snapshot().compare_to(before, "lineno")
    connections = 3 * args.tables
    shape = "plain" if args.plain else "turn_in_event"
    total = sum(stat.size_diff for stat in stats)
    print(f"{args.actions} actions a table, {shape}: {total / connections / 1024:.2f} KiB per connection")
    for stat in stats[: args.top]:
        where = stat.traceback[0]
        print(
            f"  {stat.size_diff / connections:7.0f} B {stat.count_diff / connections:5.1f} objects"
            f"  {where.filename.split('/boneyard/')[-1].split('/perf/')[-1]}:{where.lineno}"
        )
    tracked = len(gc.get_objects()) - tracked
    print(f"objects tracked by the collector: {tracked / connections:.0f} more per connection")


if __name__ == "__main__":
    main()
