"""Helpers for driving the full-screen client headless (Textual's Pilot) against a real server.

The server is seeded (``settings.seed``): deals and bots' moves repeat, so a test can wait for a
position and a snapshot shows the same screen every run. Bots answer at once.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from boneyard.clients.cli import bots
from boneyard.clients.cli.core import Client
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.widgets import SLOT, ActionBar, HandBar
from boneyard.clients.cli.ui.options import check_options, players_of

SEED = 11


@pytest.fixture
async def seeded(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """A seeded server on loopback; record ids count up and the run tag in table ids is fixed (the real
    ones are random, and they show on screen)."""
    from boneyard.server import lobby
    from boneyard.server.app import BoneyardServer
    from boneyard.server.settings import Settings

    numbers = itertools.count(1)
    monkeypatch.setattr(lobby.Lobby, "new_record_id", lambda self: f"rec{next(numbers)}")
    monkeypatch.setattr(lobby, "run_tag", lambda: "snap")
    settings = Settings(
        host="127.0.0.1", port=0, durable=False, bot_delay_seconds=0, log_level="warning", seed=SEED,
        deal_seed_wait_ms=0,  # the deals from the seed alone (still committed to): the same every run
        hand_pause_seconds=0,  # the pause between hands is tested where a test asks for it
        bot_workers=0,  # bots think on the loop: a worker process costs each server's stop about a second
    )  # fmt: skip
    async with BoneyardServer(settings) as running:
        yield running


def url_of(server: Any) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def make_app(
    server: Any, table: dict[str, Any] | None = None, name: str = "tester", **kwargs: Any
) -> BoneyardApp:
    client = Client(url_of(server), name)
    await client.connect()

    async def startup(app: BoneyardApp) -> None:
        if table is not None:
            await app.controller.create(table)

    kwargs.setdefault("pause", 0)
    kwargs.setdefault("bell", False)
    return BoneyardApp(client, startup=startup, **kwargs)


def table(game: str, **options: Any) -> dict[str, Any]:
    players = players_of(check_options(game, options))
    return {
        "game": game,
        "options": options,
        "bots": list(range(1, players)),
        "turn_seconds": None,
        "seat": 0,
    }


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 20, what: str = "") -> None:
    """Let the app run until ``check()`` holds (a safety limit, not a measurement)."""
    try:
        async with asyncio.timeout(timeout):
            while not check():
                await pilot.pause(0.02)
    except TimeoutError:
        app = pilot.app
        raise AssertionError(f"never happened: {what}; status {getattr(app, 'status_text', '')!r}") from None
    await pilot.pause()


def moon_moved(app: Any, mirror: Any, before: tuple[int, str, int]) -> bool:
    """A Moon move was made since ``before`` (the hand's size, the phase, the log's length then)."""
    return (len(mirror.view.hand), mirror.view.phase, len(app._lines)) != before


def my_turn(app: BoneyardApp) -> bool:
    mirror = app.controller.mirror
    return mirror is not None and mirror.my_turn and bool(mirror.view and mirror.view.legal_actions)


async def type_text(pilot: Pilot[Any], text: str, enter: bool = True) -> None:
    """Type into the command line (a long text is pasted: key by key would take a while)."""
    if len(text) > 12:
        pilot.app.screen.query_one("#command", Input).value = text
        text = ""
    keys = ["space" if ch == " " else ch for ch in text]
    await pilot.press(*keys, *(["enter"] if enter else []))
    await pilot.pause()


async def click_tile(pilot: Pilot[Any], number: int) -> None:
    """Click hand tile ``number`` (1..n), on the tile itself."""
    hand = pilot.app.screen.query_one(HandBar)
    per_row = hand.per_row()
    row, col = divmod(number - 1, per_row)
    await pilot.click(HandBar, offset=(col * SLOT + 2, row * 2 + 1))
    await pilot.pause()


async def click_action(pilot: Pilot[Any], action: Any) -> None:
    """Click an action (a bid, pass, draw, trump, or an end for a tile) in the action bar."""
    bar = pilot.app.screen.query_one(ActionBar)
    bar.refresh()
    await pilot.pause()
    for y, start, _end, offered in bar._spans:
        if offered == action:
            await pilot.click(ActionBar, offset=(start + 1, y))
            await pilot.pause()
            return
    raise AssertionError(f"{action} is not offered: {bar._spans}")


def bot_choice(app: BoneyardApp, rng: random.Random) -> Any:
    mirror = app.controller.mirror
    assert mirror is not None and mirror.view is not None
    return bots.choose(mirror.view, rng)


def log_text(app: BoneyardApp) -> str:
    return "\n".join(text.plain for _, text in app._lines)
