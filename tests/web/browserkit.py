"""What the browser client's tests share: the server test kit on the path, Node's command line."""

from __future__ import annotations

import base64
import os
import shutil
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, async_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE.parent / "client"))

from server_oracle import check_connection, check_seed_secrecy  # noqa: E402
from server_testkit import Player  # noqa: E402

from boneyard.protocol import decode_server_message  # noqa: E402


def node_command(*test_files: Path) -> list[str]:
    """``node --test`` on the files, with the page's import map (``register.mjs``) and a WebSocket class."""
    node = shutil.which("node")
    assert node is not None, "Node.js must be on the machine (see README.md)"
    imports = ["--import", str(HERE / "register.mjs")]
    return [node, "--experimental-websocket", *imports, "--test", "--test-force-exit", *map(str, test_files)]


# -- the browser ----------------------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium package (``.ci/run`` installs it): Playwright drives it, it downloads no browser."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SCREENSHOTS = ROOT / "build" / "web-screenshots"
"""Where the tests write their screenshots (three of them are in the README: ``README_SHOTS``)."""
TURN_OR_OVER = '#table[data-my-turn="true"], #table[data-over="true"], .hand-result button.primary'


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    assert Path(CHROMIUM).exists(), "install Debian's chromium package (see README.md)"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(
    browser: Browser, url: str, name: str | None, viewport: dict[str, int] = DESKTOP, *, muted: bool = True
) -> Page:
    """A new context (its own storage) on ``url``: a guest named ``name`` (None: the page asks who plays),
    every frame kept for the oracle; ``muted``: the turn chime is off at every load (else the page's own
    setting)."""
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    named = "" if name is None else f"localStorage.setItem('boneyard.name', {name!r});"
    mute = "localStorage.setItem('boneyard.sound', 'off');" if muted else ""
    await context.add_init_script(f"localStorage.setItem('boneyard.debug', '1'); {named} {mute}")
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(url)
    return page


def page_url(server_url: str, path: str = "/") -> str:
    return server_url.replace("ws://", "http://").rstrip("/") + path


async def create_table(
    page: Page,
    game: str,
    *,
    seats: list[str],
    target: int,
    turn: str = "none",
    choose: dict[str, str] | None = None,
    **fields: str,
) -> str:
    """Fill the lobby's form (``seats``: "me", "open" or "bot:LEVEL" per seat; ``turn``: seconds or "none";
    ``choose``: the game's own selects, by name) and create; the table id."""
    await page.wait_for_selector("#lobby form.create")
    await page.select_option("select[name=game]", game)
    if game == "straight":
        await page.select_option("select[name=players]", str(len(seats)))
    for name, value in (choose or {}).items():
        await page.select_option(f"select[name={name}]", value)
    for i, role in enumerate(seats):
        await page.select_option(f"select[name=seat{i}]", role)
    await page.fill("input[name=target]", str(target))
    await page.select_option("select[name=turn_seconds]", turn)
    if fields:
        await page.click("form.create details summary")
        for name, value in fields.items():
            await page.fill(f"input[name={name}]", value)
    await page.click("form.create button[type=submit]")
    await page.wait_for_url("**/t/*")
    return page.url.rsplit("/t/", 1)[1].split("?")[0]


async def move(page: Page, *, keyboard: bool = False) -> None:
    """Make one move as a person would: a lit tile (and its end when it fits two), else a button."""
    tiles = page.locator(".hand .tile")
    legal = await tiles.evaluate_all("ts => ts.map(t => t.classList.contains('legal'))")
    if True in legal:
        index = legal.index(True)
        if keyboard:
            await page.keyboard.press(str(index + 1))
        else:
            await tiles.nth(index).click()
        ends = page.locator(".actions button[data-end]")
        if await ends.count():
            await (page.keyboard.press("1") if keyboard else ends.first.click())
        return
    buttons = page.locator(".actions button")
    texts = await buttons.all_inner_texts()
    # Moon's auction: open at 4, then pass (random bids make games of many hands).
    choice = texts.index("Bid 4") if "Bid 4" in texts else texts.index("Pass") if "Pass" in texts else 0
    if keyboard:
        await buttons.nth(choice).focus()
        await page.keyboard.press("Enter")
    else:
        await buttons.nth(choice).click()


async def play_to_the_end(
    page: Page,
    *,
    keyboard: bool = False,
    moves: int = 400,
    at: int = -1,
    then: Any = None,
    mover: Callable[[Page], Awaitable[None]] | None = None,
) -> int:
    """Play every turn of the page's seat (and say ready between hands) until the game is over, each move
    by ``mover`` (default: :func:`move`); on the turn of move ``at``, ``await then()`` instead (a
    screenshot and a move, a cut connection)."""
    made = 0
    while made < moves:
        await page.wait_for_selector(TURN_OR_OVER, timeout=30_000)
        if await page.get_attribute("#table", "data-over") == "true":
            return made
        ready = page.locator(".hand-result button.primary")
        if await ready.count():
            await (page.keyboard.press("Enter") if keyboard else ready.click())
            await page.wait_for_timeout(50)
            continue
        if made == at and then is not None:
            await then()
        else:
            await (mover(page) if mover is not None else move(page, keyboard=keyboard))
        made += 1
        await page.wait_for_timeout(20)
    raise AssertionError(f"no game over after {moves} moves")


async def frames_of(page: Page) -> list[bytes]:
    """Every frame the page's SDK received, in order (the debug hook of app.js)."""
    kept = await page.evaluate("window.boneyard.frames.map(f => f.frame)")
    return [base64.b64decode(frame) for frame in kept]


async def check_hidden_information(page: Page, server_url: str, table_id: str, *, seeds: bool = True) -> int:
    """The server's oracle on every frame the page received: no tile it could not see, no early seed
    (``seeds``: the page saw the game from its commitment on, not only after it was loaded again)."""
    raw = await frames_of(page)
    messages = [decode_server_message(frame) for frame in raw]
    over = next(
        m for m in messages if m.type == "event" and m.table_id == table_id and m.event.type == "game_over"
    )
    seat = await page.evaluate(f"window.boneyard.mirror.table({table_id!r}).seat")
    reader = await Player.connect(server_url, "reader")
    reply = await reader.request(type="get_record", record_id=over.event.record_id)
    await reader.close()
    record = reply.record.model_dump()
    checked = check_connection(messages, seat, record, table_id)
    if seeds:
        check_seed_secrecy(raw, messages, record, table_id)
    return checked


README_SHOTS = {
    "straight-1440x900": ROOT / "docs" / "images" / "web-straight-1440x900.png",
    "moon-390x844": ROOT / "docs" / "images" / "web-moon-390x844.png",
    "texas42-1440x900": ROOT / "docs" / "images" / "web-texas42-1440x900.png",
}
"""The screenshots the README shows, where it shows them from: written there too when the environment has
``BONEYARD_README_SHOTS=1`` (``tests/web/readme-screenshots.sh``), so the README's pictures are the tests'."""


async def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    if os.environ.get("BONEYARD_README_SHOTS") == "1" and name in README_SHOTS:
        shutil.copyfile(path, README_SHOTS[name])
    return path


async def step_through_replay(page: Page, hands: int = 3) -> list[tuple[int, int, int, int]]:
    """On a replay page: step the board through every move of its first ``hands`` hands (→, then ↓), one
    move back and forth by the buttons on the way (the board is left at the last hand's end); per hand, the
    tiles in the seats' hands at its deal and after its last move, and the plays and draws its actions (in
    words, below the board) make."""
    where = page.locator("#replay-board .replay-where")
    await where.wait_for()
    tiles = page.locator("#replay-board .replay-seat svg")
    seen = []
    for hand in range(min(hands, await page.locator("#replay .replay-hand").count())):
        if hand:
            await page.keyboard.press("ArrowDown")
        assert (await where.inner_text()).startswith(f"Hand {hand + 1}/")
        dealt = await tiles.count()
        moves = int((await where.inner_text()).rsplit("/", 1)[1])
        for _ in range(moves):
            await page.keyboard.press("ArrowRight")
        assert (await where.inner_text()).endswith(f"move {moves}/{moves}")
        left = await tiles.count()
        if moves:
            await page.click("button[aria-label='Back a move']")
            assert (await where.inner_text()).endswith(f"move {moves - 1}/{moves}")
            await page.click("button[aria-label='Forward a move']")
            assert await tiles.count() == left
        words = await page.locator("#replay .replay-hand").nth(hand).locator("ol.log li").all_text_contents()
        seen.append((dealt, left, sum(" plays " in w for w in words), sum(" draws " in w for w in words)))
    return seen
