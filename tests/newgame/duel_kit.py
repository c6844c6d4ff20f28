"""The test game registered for a test only (on the wire and in the server, then forgotten), and the
kits of the server and table tests on the path (a server on loopback, a protocol client, the
hidden-information oracle; a table on a manual clock). Imported before them."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from duel_spec import DUEL_SPEC
from duel_wire import DUEL

from boneyard.clients.cli.core.games import CLIENT_GAMES, register_client_game
from boneyard.protocol.wiregames import forget_wire_game, register_wire_game
from boneyard.server.app import BoneyardServer
from boneyard.server.games.registry import forget_game, register_game
from boneyard.server.settings import Settings

for kit in ("server", "tables"):
    sys.path.insert(0, str(Path(__file__).parent.parent / kit))


@contextmanager
def registered() -> Iterator[str]:
    """Duel known everywhere meanwhile; its name."""
    register_wire_game(DUEL)
    register_game(DUEL_SPEC)
    try:
        yield DUEL.name
    finally:
        forget_game(DUEL.name)
        forget_wire_game(DUEL.name)


@contextmanager
def registered_with_client() -> Iterator[str]:
    """Duel known to the server, the wire and the terminal client meanwhile; its name."""
    from duel_client import DUEL_CLIENT  # the client's drawing: only the client tests need it

    with registered() as name:
        register_client_game(DUEL_CLIENT)
        try:
            yield name
        finally:
            CLIENT_GAMES.pop(name, None)


@asynccontextmanager
async def duel_server(**settings: Any) -> AsyncIterator[str]:
    """A server on loopback for a client test (bots at once, no pause between hands); its URL."""
    base: dict[str, Any] = {
        "host": "127.0.0.1", "port": 0, "durable": False, "bot_delay_seconds": 0, "log_level": "warning",
        "hand_pause_seconds": 0, "bot_workers": 0,
    }  # fmt: skip
    async with BoneyardServer(Settings(**(base | settings))) as server:
        yield f"ws://127.0.0.1:{server.port}/"
