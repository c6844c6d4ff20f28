"""Fixtures and helpers for the client tests: a real server on loopback, a proxy that drops connections.

A plain module rather than a ``conftest.py``: the suite runs with ``--doctest-modules``, and a
second ``conftest`` module would clash with ``tests/conftest.py``. Test modules import the
fixtures they use by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from boneyard.clients.cli import bots
from boneyard.clients.cli.core import Backoff, Client, ConnectionLost, NotConnected, TableMirror

FAST = Backoff(first=0.05, cap=0.2, jitter=0.1)
"""Reconnect quickly in tests (the real client starts at 1 s)."""

PUBLIC = ("hand_number", "tile_counts", "scores", "to_move", "target")


async def wait_for(client: Client, check: Callable[[], bool], timeout: float = 10) -> None:
    """Wait until ``check()`` holds, re-checking after every message the client gets."""
    stream = client.listen()
    async with asyncio.timeout(timeout):
        while not check():
            await anext(stream)


async def auto_play(
    client: Client, table_id: str, until: Callable[[TableMirror], bool], seed: int = 0
) -> None:
    """Play our seat with the client's bot until ``until(mirror)``, riding out reconnections."""
    rng = random.Random(seed)
    stream = client.listen()
    async with asyncio.timeout(40):
        while True:
            mirror = client.mirror.tables.get(table_id)
            if mirror is not None and until(mirror):
                return
            if (
                mirror is not None
                and mirror.my_turn
                and mirror.view is not None
                and mirror.view.legal_actions
            ):
                try:
                    await client.act(table_id, bots.choose(mirror.view, rng))
                    continue
                except (ConnectionLost, NotConnected):
                    pass  # the reconnect brings the state back; the next turn says what to do
            await anext(stream)


def public(mirror: TableMirror) -> dict[str, Any]:
    view = mirror.view
    assert view is not None
    data = {k: getattr(view, k) for k in PUBLIC}
    if view.game == "moon":
        data |= {k: getattr(view, k) for k in ("phase", "bids", "trump", "trick", "played", "tricks")}
    else:
        data |= {"layout": view.layout, "boneyard": view.boneyard, "count": view.count}
    return data


@pytest.fixture
async def server() -> AsyncIterator[Any]:
    """A Boneyard server in this process on a free port; bots act at once; deals wait up to 3 s for seeds."""
    from boneyard.server.app import BoneyardServer
    from boneyard.server.settings import Settings

    settings: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "durable": False,
        "bot_delay_seconds": 0,
        "log_level": "warning",
        # Long enough that a client's seed arrives in time on a loaded machine (a game deals as soon as
        # every seated human has sent one, so a contributing client never waits for it).
        "deal_seed_wait_ms": 3000,
        "hand_pause_seconds": 0,  # the pause between hands is tested where a test asks for it
        "bot_workers": 0,  # bots think on the loop: a worker process costs each server's stop about a second
    }
    async with BoneyardServer(Settings(**settings)) as running:
        yield running


@pytest.fixture
def url(server: Any) -> str:
    return f"ws://127.0.0.1:{server.port}/"


class Proxy:
    """Forwards TCP to the server; :meth:`drop` cuts every connection at once, as a network failure would."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self.drops = 0
        self._links: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self._links.append((writer, up_writer))
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        dst.close()

    def drop(self) -> None:
        """Reset every open connection (no websocket close frame: the client sees 1006)."""
        self.drops += 1
        for a, b in self._links:
            for writer in (a, b):
                if writer.transport is not None:
                    writer.transport.abort()
        self._links.clear()

    async def close(self) -> None:
        self.drop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()


@pytest.fixture
async def proxy(server: Any) -> AsyncIterator[Proxy]:
    running = Proxy(server.port)
    await running.start()
    yield running
    await running.close()


@pytest.fixture
async def connect(url: str) -> AsyncIterator[Any]:
    """``await connect(name, url=...)`` opens a client that is closed after the test."""
    clients: list[Client] = []

    async def open_client(name: str, at: str | None = None, **kwargs: Any) -> Client:
        client = Client(at or url, name, backoff=FAST, **kwargs)
        await client.connect()
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        await client.close()
