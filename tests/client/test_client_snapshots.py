"""Screen snapshots (SVG) of the full-screen client at 80x24 and 120x40, compared with the committed ones.

Each scene is reached through a real, seeded server with turn timers off, so the same screen comes
back every run (no clock, no random id in the picture). After a deliberate change of the screens,
``pytest tests/client/test_client_snapshots.py --snapshot-update`` writes them again: look at them
(``__snapshots__/``) before committing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import tui_support
from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import Input
from tui_support import make_app, my_turn, table, until

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.screens import GameOverScreen
from boneyard.protocol import StraightView

seeded = tui_support.seeded
SIZES = ((80, 24), (120, 40))


@pytest.fixture
def svg(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(SVGImageExtension)


async def _shots(
    pilot: Pilot[Any], app: BoneyardApp, svg: SnapshotAssertion, name: str, sizes: Any = SIZES
) -> None:
    for field in app.screen.query(Input):
        field.cursor_blink = False  # a blinking cursor is a clock in the picture
    for width, height in sizes:
        await pilot.resize_terminal(width, height)
        assert svg(name=f"{name}-{width}x{height}") == await _settled(pilot, app)


async def _settled(pilot: Pilot[Any], app: BoneyardApp) -> str:
    """The screen once two pictures 0.1 s apart agree: on a loaded machine a resize may still be
    redrawing (focus and highlight styles come a refresh later) when a fixed pause is over."""
    shot = ""
    for _ in range(50):
        await pilot.pause(0.1)
        await pilot.wait_for_scheduled_animations()
        again = app.export_screenshot(title="Boneyard")
        if again == shot:
            break
        shot = again
    return shot


async def _play_until(
    pilot: Pilot[Any], app: BoneyardApp, done: Any, seed: int = 3, limit: int = 200, choose: Any = None
) -> None:
    """Play our seat with the basic bot (seeded; or ``choose``) until ``done(mirror)`` holds at our turn."""
    rng = random.Random(seed)
    for _ in range(limit):
        await until(pilot, lambda: my_turn(app))
        mirror = app.controller.mirror
        assert mirror is not None and mirror.view is not None
        if done(mirror):
            return
        before = len(app._lines)
        await app.controller.act((choose or tui_support.bot_choice)(app, rng))
        await until(pilot, lambda b=before: len(app._lines) > b)
    raise AssertionError("the position never came")


async def test_lobby(seeded: Any, svg: SnapshotAssertion) -> None:
    # The tables are made while the app watches the lobby, so they always reach it as pushes (a line
    # each in the log); made before it connects, they would come in its table list or in a push,
    # whichever the push timer made first.
    app = await make_app(seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        host = Client(tui_support.url_of(seeded), "host")
        await host.connect()
        await host.create_table("moon", bots=[1], turn_seconds=None)
        await host.create_table("straight", options={"players": 4}, bots=[1, 3], turn_seconds=60, seat=2)
        await until(pilot, lambda: tui_support.log_text(app).count("lobby: t") == 2)
        await _shots(pilot, app, svg, "lobby")
    await host.close()


async def test_moon_trick(seeded: Any, svg: SnapshotAssertion) -> None:
    app = await make_app(seeded, table("moon"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_until(pilot, app, lambda m: m.view.phase == "playing" and m.view.trick and m.hands)
        await _shots(pilot, app, svg, "moon-trick")


def _four_arms_and_a_crosswise_double(mirror: Any) -> bool:
    view = mirror.view
    if not isinstance(view, StraightView):
        return False
    lay = view.layout
    if not all(lay.arms.get(end) for end in ("left", "right", "up", "down")):
        return False
    return any(p.crosswise and tuple(p.tile) != tuple(lay.spinner) for arm in lay.arms.values() for p in arm)


async def test_straight_layout(seeded: Any, svg: SnapshotAssertion) -> None:
    app = await make_app(seeded, table("straight", players=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_until(pilot, app, _four_arms_and_a_crosswise_double)
        await _shots(pilot, app, svg, "straight-layout")


def _a_long_line(mirror: Any) -> bool:
    view = mirror.view
    if not isinstance(view, StraightView) or view.layout.opening is None:
        return False
    arms = view.layout.arms
    return len(arms.get("left", ())) + len(arms.get("right", ())) >= 9


async def test_straight_narrow(seeded: Any, svg: SnapshotAssertion) -> None:
    """Issue 24.10: a line longer than a narrow board: the tiles it cannot fit beside the spinner are
    named on a free row, not hidden."""
    app = await make_app(seeded, table("straight", players=2))
    async with app.run_test(size=(64, 30)) as pilot:
        await _play_until(pilot, app, _a_long_line)
        await _shots(pilot, app, svg, "straight-narrow", sizes=((64, 30),))


async def test_game_over(seeded: Any, svg: SnapshotAssertion) -> None:
    app = await make_app(seeded, table("moon", target=9), auto=True, rng=random.Random(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and _judged(app.screen), timeout=40)
        await _shots(pilot, app, svg, "game-over")


def _judged(screen: GameOverScreen) -> bool:
    """The deals' verdict is in: the seeds are revealed a moment after the game's end, and a loaded machine
    took the pictures before (the screen still said "waiting for the seeds")."""
    deals = screen.mirror.deals
    return deals is not None and deals.verdict is not None


async def test_texas42_trick(seeded: Any, svg: SnapshotAssertion) -> None:
    """Issue 28: the auction in marks, the contract, the trick as it is built, each team's points against
    the bid, marks per team."""
    app = await make_app(seeded, table("texas42"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_until(pilot, app, lambda m: m.view.phase == "playing" and len(m.view.trick) >= 2)
        await _shots(pilot, app, svg, "texas42-trick")


def _nello(app: BoneyardApp, rng: random.Random) -> Any:
    """Our seat bids a mark and names nello when it may, else plays as the basic bot."""
    mirror = app.controller.mirror
    assert mirror is not None and mirror.view is not None
    legal = mirror.view.legal_actions
    wanted = [a for a in legal if getattr(a, "bid", None) == 42 or getattr(a, "trump", None) == "nello"]
    return wanted[0] if wanted else tui_support.bot_choice(app, rng)


async def test_texas42_nello(seeded: Any, svg: SnapshotAssertion) -> None:
    """Nello shown: the bidder's partner sits out, their hand face down; tricks of three."""
    app = await make_app(seeded, table("texas42", nello=True))
    async with app.run_test(size=(80, 24)) as pilot:
        done = lambda m: m.view.out is not None and len(m.view.trick) >= 1  # noqa: E731
        await _play_until(pilot, app, done, choose=_nello)
        await _shots(pilot, app, svg, "texas42-nello")
