"""Spec-only client: plays N games against a real `boneyard-server` and checks everything it receives.

Written from protocol/spec/PROTOCOL.md, schema.json and docs/RULES.md only; imports only the standard library,
websockets, msgpack and jsonschema. Run from the repository:

    nice -n 10 .venv/bin/python bench/specclient --games 300 --concurrency 24

It starts its own server (`boneyard-server serve --port 0`, in memory) unless given `--url`. Exit status 1 if
anything was found.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from checks import GameFacts, SchemaChecker, fairness_problems, leaks
from client import Closed, Findings, Session, random_seed

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("moon", {"all_pass": "redeal"}),
    ("moon", {"all_pass": "force_last"}),
    ("straight", {"players": 2}),
    ("straight", {"players": 3}),
    ("straight", {"players": 4, "partnerships": False}),
    ("straight", {"players": 4, "partnerships": True}),
]
"""Every option set PROTOCOL.md describes (MoonOptions, StraightOptions)."""

FAILURES: tuple[str, ...] = ("schema", "ordering", "leak", "undocumented code", "wrong code", "refused")
FAILURES += ("resume", "fairness", "shape", "stalled", "closed", "crashed")


@dataclass(frozen=True)
class Plan:
    number: int
    game: str
    options: dict[str, Any]
    turn_seconds: int | None
    bots: tuple[int, ...]
    spectator: bool

    @property
    def players(self) -> int:
        return 3 if self.game == "moon" else int(self.options["players"])

    def describe(self) -> str:
        timer = f"{self.turn_seconds}s" if self.turn_seconds else "untimed"
        return f"game {self.number} {self.game} {self.options} {timer} bots {list(self.bots)}"


def plans(games: int, rng: random.Random, moon_target: int, straight_target: int) -> list[Plan]:
    """Every option set, timed and untimed, all seats ours or mixed with bots, a spectator at every third."""
    result = []
    for number in range(games):
        game, options = OPTION_SETS[number % len(OPTION_SETS)]
        options = {**options, "target": moon_target if game == "moon" else straight_target}
        players = 3 if game == "moon" else options["players"]
        mixed = (number // (2 * len(OPTION_SETS))) % 2 == 1
        bots = tuple(sorted(rng.sample(range(players), rng.randint(1, players - 1)))) if mixed else ()
        timed = (number // len(OPTION_SETS)) % 2 == 0
        result.append(Plan(number, game, options, 30 if timed else None, bots, number % 3 == 0))
    return result


class Table:
    """One game: its sessions, what the spec lets each of them see, and the seeds once revealed."""

    def __init__(self, plan: Plan, url: str, schema: SchemaChecker, findings: Findings, args: Any) -> None:
        self.plan, self.url, self.schema, self.findings, self.args = plan, url, schema, findings, args
        self.rng = random.Random(args.seed * 100_003 + plan.number)
        self.facts = GameFacts(plan.game, plan.players)
        self.table_id = ""
        self.seeds: dict[int, str] = {}
        self.sessions: list[Session] = []

    def session(self, name: str) -> Session:
        rng = random.Random(self.rng.random())
        session = Session(self.url, name, self.schema, self.findings, rng, self.args.fold)
        self.sessions.append(session)
        return session

    async def run(self) -> None:
        plan = self.plan
        seats = [s for s in range(plan.players) if s not in plan.bots]
        players = {seat: self.session(f"g{plan.number}s{seat}") for seat in seats}
        creator = players[seats[0]]
        await creator.connect()
        await creator.send(
            {
                "type": "create_table",
                "game": plan.game,
                "bots": list(plan.bots),
                "turn_seconds": plan.turn_seconds,
                "seat": seats[0],
                "bot_delay_ms": 0,
                "options": plan.options,
            }
        )
        while not self.table_id:
            message = await creator.recv()
            if message["type"] == "table_created":
                self.table_id = message["table"]["table_id"]
            elif message["type"] == "error":
                raise RuntimeError(f"create_table refused: {message['code']} {message['message']}")
        watcher = self.session(f"g{plan.number}watch") if plan.spectator else None
        if watcher is not None:
            await watcher.connect()
            await watcher.send({"type": "spectate", "table_id": self.table_id})
        for seat in seats[1:]:
            await players[seat].connect()
            await players[seat].send({"type": "join", "table_id": self.table_id, "seat": seat})
        tasks = [self.play(seat, session) for seat, session in players.items()]
        if watcher is not None:
            tasks.append(self.watch(watcher))
        try:
            await self.until_over(asyncio.gather(*tasks))
        except TimeoutError as why:
            self.findings.add(str(why), f"{plan.describe()}: {why}")
            return
        finally:
            for session in [*players.values(), *([watcher] if watcher else [])]:
                await session.close()
        self.verify({seat: s for seat, s in players.items()}, watcher)

    def verify(self, players: dict[int, Session], watcher: Session | None) -> None:
        if self.facts.server_seed is None:
            self.findings.add("fairness", f"{self.plan.describe()}: no deal_revealed")
            return
        for problem in fairness_problems(self.facts):
            self.findings.add("fairness", f"{self.plan.describe()}: {problem}")
        for seat, seed in self.seeds.items():
            if self.table_id in players[seat].late_seeds:
                continue
            revealed = self.facts.seeds[seat]
            if revealed is None or revealed.hex() != seed:
                self.findings.add(
                    "fairness", f"{self.plan.describe()}: seat {seat}'s own seed is not in the reveal"
                )
        receivers: list[tuple[int | None, Session]] = [*players.items()]
        if watcher is not None:
            receivers.append((None, watcher))
        for receiver, session in receivers:
            for leak in leaks(self.facts, receiver, session.frames):
                self.findings.add("leak", f"{self.plan.describe()} {session.name}: {leak}")
        self.findings.count("games finished")

    async def until_over(self, game: asyncio.Future[Any]) -> None:
        """Wait for the game: "stalled" if no frame comes for --stall s, "unfinished" past --game-timeout."""
        started = time.monotonic()
        try:
            while not game.done():
                await asyncio.wait([game], timeout=1)
                now = time.monotonic()
                if now - max(s.last_frame for s in self.sessions) > self.args.stall:
                    raise TimeoutError("stalled")
                if now - started > self.args.game_timeout:
                    raise TimeoutError("unfinished")
        finally:
            game.cancel()
            game.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved: no warning
        await game

    async def watch(self, session: Session) -> None:
        while True:
            message = await session.recv()
            self.note(message)
            if message["type"] == "deal_revealed":
                return

    def note(self, message: dict[str, Any]) -> None:
        """What every receiver learns of the deal's fairness."""
        kind = message["type"]
        if kind == "deal_commitment":
            if self.facts.commitment not in (None, message["commitment"]):
                self.findings.add("fairness", f"{self.plan.describe()}: two commitments for one game")
            self.facts.commitment = message["commitment"]
        elif kind == "seed_contributed":
            self.facts.announced[message["seat"]] = message["seed"]
        elif kind == "deal_revealed":
            self.facts.server_seed = bytes.fromhex(message["server_seed"])
            self.facts.seeds = [None if s is None else bytes.fromhex(s) for s in message["player_seeds"]]

    async def play(self, seat: int, session: Session) -> None:
        rng, args = session.rng, self.args
        quiet = 0
        """Replayed messages still to come after a resume: old turns, not to be acted on."""
        while True:
            try:
                message = await session.recv()
            except Closed as closed:
                self.findings.add(
                    "closed", f"{self.plan.describe()} {session.name}: closed with {closed.code}"
                )
                welcome = await session.connect(resume=True)
                quiet = welcome["replayed"]
                continue
            if quiet:
                quiet -= 1
            self.note(message)
            kind = message["type"]
            if kind == "seated":
                session.token = message["token"]
            elif kind == "deal_revealed":
                return
            elif kind == "deal_commitment" and seat in message["seats"] and rng.random() < 0.75:
                if seat not in self.seeds and not quiet:
                    self.seeds[seat] = random_seed()
                    await session.send(
                        {"type": "contribute_seed", "table_id": self.table_id, "seed": self.seeds[seat]}
                    )
            elif kind == "hand_pause" and seat in message["pause"]["waiting"] and not quiet:
                await session.send({"type": "ready", "table_id": self.table_id})  # done looking
            elif kind == "turn" and message["seat"] != seat and message["legal_actions"]:
                self.findings.add(
                    "leak", f"{session.name}: seat {message['seat']}'s legal actions sent to {seat}"
                )
            elif kind == "turn" and message["legal_actions"] and not quiet:
                if rng.random() < args.wrong:
                    await self.misbehave(session, message["legal_actions"])
                if rng.random() < args.drop:
                    self.findings.count("drops and resumes")
                    await session.drop()
                    await asyncio.sleep(rng.random() * 0.2)
                    welcome = await session.connect(resume=True)
                    quiet = welcome["replayed"]
                    if {"table_id": self.table_id, "seat": seat} not in welcome["seats"]:
                        self.findings.add(
                            "resume", f"{session.name}: welcome.seats {welcome['seats']} lacks its seat"
                        )
                    continue
                action = choose(rng, message["legal_actions"])
                await session.send({"type": "act", "table_id": self.table_id, "action": action})

    async def misbehave(self, session: Session, legal: list[dict[str, Any]]) -> None:
        """One wrong command, and the error code the spec gives it (section 8)."""
        choice = session.rng.randrange(6)
        if choice == 0:
            ends = [None] if self.plan.game == "moon" else ["left", "right", "up", "down"]
            tiles = [[h, low] for h in range(7) for low in range(h + 1)]
            wrong = [
                {"type": "play", "tile": t, "end": e}
                for t in tiles
                for e in ends
                if {"type": "play", "tile": t, "end": e} not in legal
            ]
            action = session.rng.choice(wrong)
            await session.send({"type": "act", "table_id": self.table_id, "action": action}, "illegal_action")
        elif choice == 1:
            await session.send(
                {"type": "act", "table_id": "no-such-table", "action": legal[0]}, "no_such_table"
            )
        elif choice == 2:
            await session.send_raw(b"\xc1", "malformed_frame")
        elif choice == 3:
            raw = {"type": "act", "table_id": self.table_id, "action": {"type": "play", "tile": [4, 6]}}
            await session.send_raw(msgpack.packb(raw), "invalid_message")
        elif choice == 4:
            await session.send({"type": "get_record", "record_id": "no-such-record"}, "no_such_record")
        else:
            await session.send_raw(msgpack.packb({"type": "teleport"}), "unknown_type")


def choose(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal action; in Moon's auction mostly a pass or a low bid, so that games end."""
    weights = [0.05 if a.get("bid") == 21 else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


def start_server(log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`boneyard-server serve --port 0`, in memory, as a user would start it; its URL from what it prints."""
    executable = Path(sys.executable).with_name("boneyard-server")
    env = {**os.environ, "BONEYARD_DURABLE": "false", "BONEYARD_TABLES_PER_ADDRESS": "100000"}
    with log.open("wb") as out:
        process = subprocess.Popen([str(executable), "serve", "--port", "0"], stdout=out, stderr=out, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        found = re.search(r"serving (ws://\S+)", log.read_text(errors="replace"))
        if found:
            return process, found.group(1)
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"boneyard-server did not start: {log.read_text(errors='replace')[-500:]}")


async def run(args: Any) -> Findings:
    findings = Findings()
    schema = SchemaChecker()
    gate = asyncio.Semaphore(args.concurrency)
    rng = random.Random(args.seed)
    done = 0
    started = time.monotonic()

    async def one(plan: Plan) -> None:
        nonlocal done
        async with gate:
            try:
                await Table(plan, args.url, schema, findings, args).run()
            except Exception as error:  # the run goes on; the failure is reported
                findings.add("crashed", f"{plan.describe()}: {type(error).__name__}: {error}")
            done += 1
            if args.verbose:
                print(f"  done: {plan.describe()}, {time.monotonic() - started:.0f} s")
            if done % max(1, args.games // 20) == 0:
                elapsed = time.monotonic() - started
                print(
                    f"  {done}/{args.games} games, {findings.counts.get('frames', 0)} frames, {elapsed:.0f} s"
                )

    await asyncio.gather(*(one(p) for p in plans(args.games, rng, args.moon_target, args.straight_target)))
    return findings


def report(findings: Findings, seconds: float) -> int:
    counts = findings.counts
    print(f"games finished      {counts.get('games finished', 0)}  ({seconds:.0f} s)")
    print(f"frames checked      {counts.get('frames', 0)}")
    print(f"drops and resumes   {counts.get('drops and resumes', 0)}")
    print(f"turns in events     {counts.get('turns inside events', 0)} (feature turn_in_event)")
    right = counts.get("wrong commands answered right", 0)
    print(f"wrong commands      {right} answered with the documented code")
    for kind in FAILURES:
        print(f"{kind:<19} {counts.get(kind, 0)}")
        for example in findings.examples.get(kind, []):
            print(f"    {example}")
    print(f"unfinished          {counts.get('unfinished', 0)} (frames still coming at --game-timeout)")
    print(
        f"seeds too late      {counts.get('seeds too late', 0)} (seed_closed after the deal, as documented)"
    )
    return 1 if any(counts.get(kind) for kind in FAILURES) else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="specclient", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wrong", type=float, default=0.03, help="chance of a wrong command before a move")
    parser.add_argument(
        "--drop", type=float, default=0.01, help="chance of dropping the connection at a turn"
    )
    parser.add_argument(
        "--fold", type=float, default=0.5, help="chance that a connection accepts turn_in_event"
    )
    parser.add_argument("--moon-target", type=int, default=11)
    parser.add_argument("--straight-target", type=int, default=61)
    parser.add_argument("--verbose", action="store_true", help="a line per game")
    parser.add_argument("--game-timeout", type=float, default=900.0, help="a game's longest run (s)")
    parser.add_argument("--stall", type=float, default=60.0, help="no frame for this long is a stall (s)")
    args = parser.parse_args()
    server = None
    if args.url is None:
        log = Path(tempfile.mkdtemp(prefix="specclient-")) / "server.log"
        server, args.url = start_server(log)
        print(f"server {args.url}, its log in {log}")
    started = time.monotonic()
    try:
        findings = asyncio.run(run(args))
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
    return report(findings, time.monotonic() - started)


if __name__ == "__main__":
    sys.exit(main())
