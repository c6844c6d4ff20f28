"""The Duel client tests' fixtures, a plugin of theirs (``pytest_plugins = ["duel_fixtures"]``): Duel
registered with its terminal drawing, and a server on loopback that knows it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from duel_client import DUEL_CLIENT
from duel_kit import registered

from boneyard.clients.cli.core.games import CLIENT_GAMES, register_client_game
from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings


@pytest.fixture
def duel() -> Iterator[str]:
    """Duel known to the server, the wire and the terminal client meanwhile; its name."""
    with registered() as name:
        register_client_game(DUEL_CLIENT)
        try:
            yield name
        finally:
            CLIENT_GAMES.pop(name, None)


@pytest.fixture
async def duel_url(duel: str) -> AsyncIterator[str]:
    """A server on loopback that knows Duel, for a client test: bots at once, no pause between hands, and
    a wait for the players' seeds (which the client sends); its URL."""
    settings: dict[str, Any] = {
        "host": "127.0.0.1", "port": 0, "durable": False, "bot_delay_seconds": 0, "log_level": "warning",
        "hand_pause_seconds": 0, "bot_workers": 0, "deal_seed_wait_ms": 3000,
    }  # fmt: skip
    async with BoneyardServer(Settings(**settings)) as server:
        yield f"ws://127.0.0.1:{server.port}/"
