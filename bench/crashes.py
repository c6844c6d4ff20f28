"""Crashes and restarts with real clients playing: nothing acknowledged is lost or doubled.

    python bench/crashes.py [--kills 20] [--terms 20] [--players 4] [--seed 1]

A real ``boneyard-server serve`` subprocess on a SQLite file in a temporary directory. ``--players``
clients each play one seat of a table against bots (Moon and two-player Straight in turn, short
games), act as soon as it is their turn, and start a new table when a game ends. At random instants
(0.3 to 2 s of play apart) the server gets ``kill -9`` (``--kills`` times) or SIGTERM (``--terms``
times), in random order, and is started again on the same file and port; every client resumes with
its token and the last ``seq`` it read, and plays on. Then the clients finish their games, the
server stops, and ``boneyard-server records export`` writes what it kept.

Checked for every finished game: the record replays through the rules; every action a client was
told ``ok`` for is in it once, in order (an act in flight at a kill may be in it without an ``ok``:
counted); the server's log has no traceback. Counted for every resume: an exact replay
(``welcome.replayed`` > 0 and no snapshot) or the snapshot fallback, after kill -9 and after SIGTERM.
Exit status 1 if anything checked fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from boneyard.protocol import COMMAND_ADAPTER, decode_server_message, encode
from boneyard.server.games.record_replay import replay

ROOT = Path(__file__).resolve().parents[1]
TABLES = [
    {"game": "moon", "options": {"target": 7}, "bots": [1, 2]},
    {"game": "straight", "options": {"players": 2, "target": 30}, "bots": [1]},
]
ENV = {
    "BONEYARD_BOT_DELAY_SECONDS": "0.005",
    "BONEYARD_COMMANDS_PER_SECOND": "10000",
    "BONEYARD_COMMAND_BURST": "10000",
    "BONEYARD_TABLES_PER_SESSION": "1000",
    "BONEYARD_TABLES_PER_ADDRESS": "10000",
    "BONEYARD_LOG_LEVEL": "warning",
    "BONEYARD_DEAL_SEED_WAIT_MS": "0",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The server subprocess, restarted on the same database and port."""

    def __init__(self, db: Path, port: int, log: Path, env: dict[str, str] | None = None) -> None:
        self.db, self.port, self.log = db, port, log
        self.env = ENV if env is None else env
        self.process: asyncio.subprocess.Process | None = None
        self.up = asyncio.Event()

    async def start(self) -> None:
        with self.log.open("ab") as err:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--db", str(self.db),
                cwd=ROOT, env={**os.environ, **self.env}, stdout=asyncio.subprocess.PIPE, stderr=err,
            )  # fmt: skip
        assert self.process.stdout is not None
        line = (await asyncio.wait_for(self.process.stdout.readline(), 30)).decode()
        if "serving" not in line:
            raise SystemExit(f"the server did not start: {line!r} (see {self.log})")
        self.up.set()

    async def stop(self, signum: int) -> int:
        assert self.process is not None
        self.up.clear()
        self.process.send_signal(signum)
        return await asyncio.wait_for(self.process.wait(), 30)


def choose(legal: list[Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action; in a Moon auction open with 4, then pass (short games)."""
    bids = [a for a in legal if a.type == "bid"]
    if bids:
        four = [a for a in bids if a.bid == 4]
        passes = [a for a in legal if a.type == "pass"]
        return (four or passes or bids)[0].model_dump(mode="json")
    return rng.choice(legal).model_dump(mode="json")


@dataclass
class Game:
    table_id: str
    acked: list[dict[str, Any]] = field(default_factory=list)
    in_flight: list[dict[str, Any]] = field(default_factory=list)
    """Acts sent but never answered (the connection was lost first)."""
    record_id: str | None = None


@dataclass
class Client:
    name: str
    rng: random.Random
    url: str
    token: str | None = None
    last_seq: int = 0
    games: list[Game] = field(default_factory=list)
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)
    ids: int = 0
    finishing: bool = False
    done: bool = False
    seen: list[Any] = field(default_factory=list)
    turn: Any = None
    """The last live ``turn`` with legal actions, not acted on yet."""
    resumes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    after: str = ""
    """How the server went away last ("kill" or "term"), for classifying the next resume."""

    @property
    def game(self) -> Game | None:
        return self.games[-1] if self.games else None

    async def send(self, ws: Any, **command: Any) -> int:
        self.ids += 1
        await ws.send(encode(COMMAND_ADAPTER.validate_python({**command, "id": self.ids})))
        return self.ids

    async def run(self, server: Server) -> None:
        while not self.done:
            await server.up.wait()
            try:
                async with websockets.connect(self.url, subprotocols=["boneyard.v1"], max_queue=None) as ws:  # type: ignore[list-item]
                    await self.connection(ws)
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == 4002:  # no seat held: start afresh
                    self.token = None
                    self.forget_pending()
            except TimeoutError:
                self.errors["silent for 30 s"] += 1
                if os.environ.get("CRASHES_DEBUG"):
                    print(self.name, self.pending, self.after, *self.seen[-8:], sep="\n", file=sys.stderr)
            except OSError:
                pass
            await asyncio.sleep(0.02)

    def forget_pending(self) -> None:
        """Acts never answered, even by a replay: in flight when the server went away."""
        for sent in self.pending.values():
            if self.game is not None:
                self.game.in_flight.append(sent)
        self.pending.clear()

    async def connection(self, ws: Any) -> None:
        seq = 0

        async def read() -> Any:
            nonlocal seq
            message = decode_server_message(await asyncio.wait_for(ws.recv(), 30))
            assert message.seq == seq + 1, (self.name, message.seq, seq)
            seq = message.seq
            self.seen.append(message)
            return message

        await read()  # hello
        if self.token is None:
            await self.send(ws, type="identify", name=self.name)
        else:
            resume = {"token": self.token, "last_seq": self.last_seq}
            await self.send(ws, type="identify", name=self.name, resume=resume)
        welcome = await read()
        assert welcome.type == "welcome", welcome
        replaying = welcome.replayed
        if self.token is not None:
            self.resumes[f"{self.after}:{'exact' if welcome.replayed else 'snapshot'}"] += 1
            if not replaying:
                self.forget_pending()
            await self.between_games(ws, {seat.table_id for seat in welcome.seats})
        else:
            await self.new_table(ws)
        while not (self.done and not self.pending):
            message = await read()
            self.last_seq = seq
            await self.handle(ws, message, live=not replaying)
            if replaying:
                replaying -= 1
                if not replaying:
                    self.forget_pending()

    async def act(self, ws: Any, game: Game, turn: Any) -> None:
        self.turn = None
        action = choose(list(turn.legal_actions), self.rng)
        self.pending[await self.send(ws, type="act", table_id=game.table_id, action=action)] = action

    async def between_games(self, ws: Any, seats: set[str]) -> None:
        """After a resume: a seat whose ``seated`` was lost is this client's game; if its game is over
        (its ``leave`` or ``create_table`` lost), it moves on."""
        for table_id in sorted(seats - {g.table_id for g in self.games}):
            self.games.append(Game(table_id))
        game = self.game
        if game is None or game.record_id is not None or game.table_id not in seats:
            for table_id in seats:
                await self.send(ws, type="leave", table_id=table_id)
            await self.new_table(ws)

    async def new_table(self, ws: Any) -> None:
        if self.finishing:
            self.done = True
            return
        table = TABLES[len(self.games) % len(TABLES)]
        await self.send(ws, type="create_table", seat=0, turn_seconds=None, **table)

    async def handle(self, ws: Any, message: Any, *, live: bool) -> None:
        """One message (``live``: not replayed; only a live ``turn`` is acted on, and only once an
        answer came for the last act: a replayed turn may be an old one)."""
        game = self.game
        kind = message.type
        if kind == "seated":
            self.token = message.token
            self.games.append(Game(message.table_id))
        elif kind == "ok" and message.reply_to in self.pending:
            assert game is not None
            game.acked.append(self.pending.pop(message.reply_to))
            if self.turn is not None and live:  # the next turn came before this answer
                await self.act(ws, game, self.turn)
        elif kind == "error":
            self.errors[message.code] += 1
            self.pending.pop(message.reply_to, None)
        elif game is None or getattr(message, "table_id", None) not in (None, game.table_id):
            return
        elif kind == "turn":
            self.turn = message if message.legal_actions and live else None
            if self.turn is not None and not self.pending:
                await self.act(ws, game, self.turn)
        elif kind == "event" and message.event.type == "game_over" and game.record_id is None:
            game.record_id = message.event.record_id
            await self.send(ws, type="leave", table_id=game.table_id)
            await self.new_table(ws)
        elif kind == "snapshot" and message.table.status == "finished" and game.record_id is None:
            game.record_id = message.table.record_id
            await self.send(ws, type="leave", table_id=game.table_id)
            await self.new_table(ws)


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="boneyard-crashes-"))
    server = Server(work / "boneyard.db", free_port(), work / "server.log")
    url = f"ws://127.0.0.1:{server.port}/"
    clients = [Client(f"p{i}", random.Random(rng.random()), url) for i in range(args.players)]
    await server.start()
    tasks = [asyncio.create_task(c.run(server)) for c in clients]
    events = ["kill"] * args.kills + ["term"] * args.terms
    rng.shuffle(events)
    started = time.perf_counter()
    codes: Counter[int] = Counter()
    for n, event in enumerate(events, 1):
        await asyncio.sleep(rng.uniform(0.3, 2.0))
        for client in clients:
            client.after = event
        codes[await server.stop(signal.SIGKILL if event == "kill" else signal.SIGTERM)] += 1
        await server.start()
        print(f"\r{n}/{len(events)} restarts", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for client in clients:
        client.finishing = True
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    elapsed = time.perf_counter() - started
    codes[await server.stop(signal.SIGTERM)] += 1

    export = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "records", "export", "--db", str(server.db),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await export.communicate()
    records = [json.loads(line) for line in out.decode().splitlines()]
    return report(clients, records, codes, server.log, elapsed, args)


def report(
    clients: list[Client], records: list[dict[str, Any]], codes: Counter[int], log: Path, elapsed: float,
    args: argparse.Namespace,
) -> int:  # fmt: skip
    problems: list[str] = []
    by_names: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        replay(record)
        by_names.setdefault(record["seat_names"][0], []).append(record)
    acked = in_flight_kept = actions = auto = 0
    for client in clients:
        finished = [g for g in client.games if g.record_id is not None]
        mine = by_names.get(client.name, [])
        if len(mine) != len(finished):
            problems.append(f"{client.name}: {len(finished)} games finished, {len(mine)} records")
        for game, record in zip(finished, mine, strict=False):
            seat = [a for h in record["hands"] for a in h["actions"] if a["seat"] == 0]
            auto += sum(1 for a in seat if a.get("auto"))
            kept = [_strip(a) for a in seat if not a.get("auto")]
            actions += sum(len(h["actions"]) for h in record["hands"])
            acked += len(game.acked)
            extra = _align(kept, [_strip(a) for a in game.acked], [_strip(a) for a in game.in_flight])
            if extra is None:
                problems.append(f"{client.name} {game.table_id}: acknowledged acts missing or out of order")
                if os.environ.get("CRASHES_DEBUG"):
                    print(kept, game.acked, game.in_flight, sep="\n")
            else:
                in_flight_kept += extra
    resumes: Counter[str] = sum((c.resumes for c in clients), Counter())
    errors: Counter[str] = sum((c.errors for c in clients), Counter())
    tracebacks = log.read_text(errors="replace").count("Traceback")
    if tracebacks:
        problems.append(f"{tracebacks} tracebacks in {log}")
    print(f"{args.kills} kill -9 and {args.terms} SIGTERM in {elapsed:.0f} s, {len(clients)} players")
    print(f"exit codes: {dict(codes)}")
    print(f"games finished: {len(records)}, actions in their records: {actions}")
    print(f"acknowledged acts: {acked}, each in its record once, in order: {'no' if problems else 'yes'}")
    print(f"acts in flight at a restart (no ok) found in the record: {in_flight_kept}")
    print(f"actions the server took for a client (auto): {auto}")
    print(f"resumes: {dict(sorted(resumes.items()))}")
    print(f"error replies: {dict(errors)}")
    print(f"tracebacks in the server log: {tracebacks}")
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


def _strip(action: dict[str, Any]) -> dict[str, Any]:
    """An action as compared: no seat, no auto flag, no null fields, no drawn tile (the record has it)."""
    drop = ("seat", "auto", "tile") if action["type"] == "draw" else ("seat", "auto")
    return {k: v for k, v in action.items() if v is not None and k not in drop}


Action = dict[str, Any]


def _align(kept: list[Action], acked: list[Action], in_flight: list[Action]) -> int | None:
    """How many of the record's actions for the seat are unacknowledged acts in flight, if the
    acknowledged ones are all there once, in order (``None`` otherwise)."""
    extra, i = 0, 0
    for action in kept:
        if i < len(acked) and action == acked[i]:
            i += 1
        elif action in in_flight:
            in_flight.remove(action)
            extra += 1
        else:
            return None
    return extra if i == len(acked) else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--terms", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
