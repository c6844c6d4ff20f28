"""Cluster nodes for the tests: real ``boneyard-server serve --cluster`` subprocesses on one nats-server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

# The protocol client and the oracle of the server tests (their folder is not a package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from durability_kit import record_actions, seen_actions
from server_oracle import check_connection
from server_testkit import Player
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[2]

FAST = {
    "BONEYARD_BOT_DELAY_SECONDS": "0.005",
    "BONEYARD_BOTS_ONLY_MOVE_SECONDS": "0.005",
    "BONEYARD_COMMANDS_PER_SECOND": "10000",
    "BONEYARD_COMMAND_BURST": "10000",
    "BONEYARD_TABLES_PER_ADDRESS": "10000",
    "BONEYARD_MAX_BOT_TABLES": "10000",
    "BONEYARD_GC_FREEZE_SECONDS": "0",
    "BONEYARD_DEAL_SEED_WAIT_MS": "0",
    "BONEYARD_HAND_PAUSE_SECONDS": "0",
    "BONEYARD_LOG_LEVEL": "warning",
    "BONEYARD_BOT_WORKERS": "0",  # basic bots think on the loop anyway; a worker costs a node seconds
}


class Node:
    """One ``serve --cluster`` process on a free port."""

    def __init__(self, name: str, process: asyncio.subprocess.Process, url: str) -> None:
        self.name = name
        self.process = process
        self.url = url
        self.port = int(url.rsplit(":", 1)[1].rstrip("/"))

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        """Send ``signum`` and wait for the exit code."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signum)
        return await asyncio.wait_for(self.process.wait(), 15)

    async def errors(self) -> str:
        """What the node wrote to standard error (once it has exited)."""
        assert self.process.stderr is not None
        return (await self.process.stderr.read()).decode()


async def start_node(nats_url: str, name: str, env: dict[str, str] | None = None) -> Node:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
        "--cluster", nats_url, "--node", name,
        cwd=ROOT, env={**os.environ, **FAST, **(env or {})},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode().strip()
    if not line.startswith("boneyard: serving "):
        process.kill()
        raise AssertionError(f"node {name} did not start: {line!r} {(await process.stderr.read()).decode()}")
    return Node(name, process, line.removeprefix("boneyard: serving ") + "/")


@contextlib.asynccontextmanager
async def cluster(nats_url: str, count: int, env: dict[str, str] | None = None) -> AsyncIterator[list[Node]]:
    """``count`` nodes named ``n0``, ``n1``, ...; each is killed at the end if the test did not stop it."""
    nodes = list(await asyncio.gather(*(start_node(nats_url, f"n{i}", env) for i in range(count))))
    try:
        yield nodes
    finally:
        for node in nodes:
            if node.process.returncode is None:
                node.process.kill()
                await node.process.wait()


async def table_listed(player: Player, table_id: str, timeout: float = 10.0) -> Any:
    """Wait until ``table_id`` is in the player's ``list_tables`` (another node's table reaches every
    node's directory within moments); its description."""
    async with asyncio.timeout(timeout):
        while True:
            listing = await player.request(type="list_tables")
            found = [t for t in listing.tables if t.table_id == table_id]
            if found:
                return found[0]
            await asyncio.sleep(0.02)


async def join_seats(players: list[Player], table_id: str, first: int = 0) -> None:
    """Each player takes seat ``first``, ``first + 1``, ... once the table is listed on its own node."""
    for seat, player in enumerate(players, start=first):
        await table_listed(player, table_id)
        assert (await player.request(type="join", table_id=table_id, seat=seat)).type == "seated"


async def sit_down(
    nodes: list[Node], game: str, options: dict[str, Any], tag: str
) -> tuple[str, list[Player]]:
    """A table with 60 s turns, created by a player of ``nodes[0]`` at seat 0; seat ``i`` taken by a
    player of ``nodes[i]``. The table id and the players, by seat."""
    players = [await Player.connect(node.url, f"{tag}{i}") for i, node in enumerate(nodes)]
    created = await players[0].request(
        type="create_table", game=game, options=options, seat=0, turn_seconds=60
    )
    table_id: str = created.table.table_id
    await join_seats(players[1:], table_id, first=1)
    return table_id, players


def check_played(connections: list[list[Player]], record: dict[str, Any], table_id: str) -> None:
    """Each player's connections (one, or more after resumes) saw only actions of the record, in its
    order, no error and no tile they could not see (the oracle)."""
    actions = record_actions(record)
    for connection in connections:
        seen = [action for c in connection for action in seen_actions(c.log, table_id)]
        assert not not_subsequence(seen, actions)
        for c in connection:
            assert not [m for m in c.log if m.type == "error"]
            assert check_connection(c.log, c.seat, record, table_id) > 0


async def play_on(
    player: Player, table_id: str, rng: random.Random, elsewhere: str, codes: tuple[int, ...] = (1012,)
) -> list[Player]:
    """Play to the end; closed with one of ``codes``, resume through ``elsewhere`` and play on. Each
    connection."""
    try:
        await player.play(table_id, rng)
        return [player]
    except ConnectionClosed:
        assert player.ws.close_code in codes, player.ws.close_code
    again = await resume_through(player, elsewhere)
    await again.play(table_id, rng)
    return [player, again]


async def resume_through(player: Player, url: str) -> Player:
    """``player``'s session resumed on a new connection to ``url``: it holds the same seats, its
    ``welcome`` names them (in ``again.log[0]``), and the snapshots follow (``replayed: 0``)."""
    again = await Player.connect(url, player.name, identify=False)
    resume = {"token": player.token, "last_seq": player.seq}
    welcome = await again.request(type="identify", name=player.name, resume=resume)
    assert welcome.type == "welcome" and welcome.resumed and welcome.replayed == 0, welcome
    seats = [(s.table_id, s.seat) for s in welcome.seats]
    assert seats == [(player.table_id, player.seat)], (player.name, seats)
    again.token, again.seat, again.table_id = player.token, player.seat, player.table_id
    return again


def not_subsequence(seen: list[Any], record: list[Any]) -> list[Any]:
    """What of ``seen`` is not found, in order, in ``record`` (empty: a subsequence)."""
    it = iter(record)
    return [action for action in seen if not any(action == r for r in it)]
