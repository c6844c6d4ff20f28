"""CPU per ``act`` in the table tier alone: commands decoded and handed to ``CommandSeam``, no sockets.

    python bench/bench_table_tier.py --actions 20000 [--pause] [--plain] [--target N] [--profile]

Three players at a Moon table (target 1000, untimed, rematches as games end; ``--target 21``: Moon's
default, as in ``loadgen.py``, so that each game's end, its record, weighs as there) act in turn, each command
packed with msgpack, decoded by ``boneyard.protocol.codec.decode_hot`` (as the server does) and handed
over as a connection would; frames are counted, not decoded. Prints the CPU time
(``time.process_time``) per action and the frames per action; ``--profile``: the top of a cProfile run.
Without ``--pause`` the table does not pause between hands (``hand_pause_seconds=0``, as before the
pause existed); with it, it pauses and each player sends ``ready`` (counted in the CPU, not as actions).
The players accept feature ``turn_in_event`` (a turn and an ``ok`` inside the last event before them);
``--plain``: they do not (protocol 1.0's frames).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from typing import Any

import msgpack

from boneyard.protocol import COMMAND_LIMITS
from boneyard.protocol.codec import decode_hot
from boneyard.server.commands import CommandSeam
from boneyard.server.host import ManualClock
from boneyard.server.lobby import Lobby
from boneyard.server.metrics import Metrics
from boneyard.server.record_store import MemoryRecordStore
from boneyard.server.session import Session
from boneyard.server.settings import Settings
from boneyard.server.table import Table
from boneyard.server.wire import wire_action


class CountingLink:
    __slots__ = ("frames", "seq", "session")

    def __init__(self) -> None:
        self.session: Session | None = None
        self.seq = 0
        self.frames = 0

    def write(self, frame: bytes) -> None:
        self.frames += 1

    def close_with(self, code: int, reason: str) -> None:
        raise SystemExit(f"closed {code}: {reason}")

    def peer(self) -> str | None:
        return "bench"

    def client_address(self) -> str:
        return "127.0.0.1"

    def charge(self, reply_bytes: int) -> None:
        pass


def in_process(**settings: Any) -> tuple[Lobby, CommandSeam]:
    """An in-memory lobby without sockets, dealt from a fixed seed, no rate limit, no wait for seeds."""
    base: dict[str, Any] = {"commands_per_second": 10_000, "command_burst": 10_000, "deal_seed_wait_ms": 0}
    lobby = Lobby(
        Settings(**{"durable": False, "seed": 1, **base, **settings}),
        Metrics(lambda: []),
        MemoryRecordStore(100),
        ManualClock(),
    )
    return lobby, CommandSeam(lobby, msgpack.packb({"type": "hello"}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--pause", action="store_true", help="pause between hands; every player says ready")
    parser.add_argument("--plain", action="store_true", help="the players do not accept turn_in_event")
    parser.add_argument("--target", type=int, default=1000, help="Moon's target score (21: loadgen's games)")
    args = parser.parse_args()
    lobby, commands = in_process(hand_pause_seconds=10 if args.pause else 0)
    links = [CountingLink() for _ in range(3)]

    def send(link: CountingLink, command: dict[str, Any]) -> None:
        commands.handle(link, decode_hot(msgpack.packb(command), COMMAND_LIMITS))

    for i, link in enumerate(links):
        accept = [] if args.plain else ["turn_in_event"]
        send(link, {"type": "identify", "id": 1, "name": f"p{i}", "accept": accept})
    create = {"type": "create_table", "id": 2, "game": "moon", "options": {"target": args.target}, "seat": 0}
    send(links[0], {**create, "bots": [], "turn_seconds": None})
    table_id = next(iter(lobby.tables))
    table: Table = lobby.tables[table_id]
    for i in (1, 2):
        send(links[i], {"type": "join", "id": 3, "table_id": table_id, "seat": i})
    rng = random.Random(1)

    def run(n: int) -> None:
        for k in range(n):
            if table.status == "finished":
                for link in links:
                    send(link, {"type": "rematch", "id": 9, "table_id": table_id})
            match = table.match
            assert match is not None
            if match.pause is not None:
                for link in links:
                    send(link, {"type": "ready", "id": 8, "table_id": table_id})
            seat = match.engine.to_move
            assert seat is not None
            wire = wire_action(rng.choice(match.engine.legal_actions(seat)))
            action = {key: list(v) if isinstance(v, tuple) else v for key, v in wire.items()}
            send(links[seat], {"type": "act", "id": k + 10, "table_id": table_id, "action": action})

    before = sum(link.frames for link in links)
    started = time.process_time()
    run(args.actions)
    cpu = time.process_time() - started
    frames = (sum(link.frames for link in links) - before) / args.actions
    shape = "plain" if args.plain else "turn_in_event"
    print(f"{cpu / args.actions * 1e6:.1f} µs of CPU per action, {frames:.2f} frames per action ({shape})")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run, args.actions)
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
