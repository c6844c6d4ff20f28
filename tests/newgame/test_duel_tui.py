"""Duel in the full-screen client: the test game, registered by the tests only, is created from the app,
drawn by its client module's board, played to its end by ``--auto`` against a bot on a real server over
loopback, and ends on the game-over window, with no line of the app changed for it (issue 27)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.screens import GameOverScreen
from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.tui.widgets import Board

pytest_plugins = ["duel_fixtures"]  # the duel and duel_url fixtures


async def _until(pilot: Pilot[Any], check: Callable[[], bool], what: str) -> None:
    try:
        async with asyncio.timeout(40):  # a safety limit, not a measurement
            while not check():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


async def test_the_full_screen_client_plays_a_duel_to_the_end_against_a_bot(duel: str, duel_url: str) -> None:
    client = Client(duel_url, "tester")
    await client.connect()
    boards: list[str] = []

    async def startup(app: BoneyardApp) -> None:
        table = {"game": duel, "options": {"target": 2}, "bots": [1], "turn_seconds": 60, "seat": 0}
        await app.controller.create(table)

    app = BoneyardApp(client, startup=startup, auto=True, pause=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:

        def drawn() -> bool:
            if isinstance(app.screen, TableScreen):
                boards.append(str(app.screen.query_one(Board).render()))
            return isinstance(app.screen, GameOverScreen)

        await _until(pilot, drawn, "the game-over window")
        mirror = app.controller.mirror
        assert mirror is not None and mirror.game_over is not None and mirror.table is not None
        assert mirror.table.game == duel
    assert any(board.startswith("trick ") for board in boards), boards[-3:]  # Duel's own board drew it
