"""The lobby and the page's settings in a real Chromium against a real server: seeking a game (feature
seeks) until the server seats two browsers together, an invite link that seats its holder at a private
table (and only its holder), the turn chime's switch (kept across page loads, silent when off), and the
team colours told apart under the common colour blindnesses."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from browserkit import DESKTOP, PHONE, chromium, create_table, open_page, page_url
from playwright.async_api import Browser, Page
from server_testkit import running_server

from boneyard.server.app import BoneyardServer

pytestmark = pytest.mark.asyncio(loop_scope="module")
Served = tuple[BoneyardServer, Browser]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def served() -> AsyncIterator[Served]:
    """One server and one browser for the module's tests (each test its own pages and players' names)."""
    async with running_server(bot_workers=0) as server, chromium() as browser:
        yield server, browser


async def test_two_browsers_seek_the_same_kind_and_are_seated_together(
    served: Served,
) -> None:
    server, browser = served
    ana = await open_page(browser, page_url(server.url), "ana", DESKTOP)
    bo = await open_page(browser, page_url(server.url), "bo", PHONE)
    await bo.wait_for_selector(".seek-form")
    await ana.select_option(".seek-form select[name=kind]", "straight-2")
    await ana.click(".seek-form button[type=submit]")
    await ana.wait_for_selector('.seeking:has-text("Seeking Straight, 2 players")')
    await bo.wait_for_selector('.seek-counts li:has-text("1 seeking Straight, 2 players")')  # the lobby hears
    await bo.select_option(".seek-form select[name=kind]", "straight-2")
    await bo.click(".seek-form button[type=submit]")
    for page in (ana, bo):  # the server made the table and seated both: each page is there
        await page.wait_for_url("**/t/*")
        await page.wait_for_selector(".hand .tile")
    assert ana.url.split("/t/")[1] == bo.url.split("/t/")[1]
    names = await ana.locator(".seat .seat-name").all_inner_texts()
    assert any("bo" in n for n in names) and any("ana" in n for n in names)

    cy = await open_page(browser, page_url(server.url), "cy", DESKTOP)
    await cy.click(".seek-form button[type=submit]")
    await cy.click('.seek button:has-text("Cancel")')  # stops seeking: the form is back
    await cy.wait_for_selector(".seek-form")
    await cy.wait_for_selector(".seek-counts li", state="detached")  # and nobody seeks any more
    for page in (ana, bo, cy):
        assert page.errors == []  # type: ignore[attr-defined]


async def test_an_invite_link_seats_its_holder_and_only_its_holder(
    served: Served,
) -> None:
    server, browser = served
    ana = await open_page(browser, page_url(server.url), "ana", DESKTOP)
    await ana.wait_for_selector("#lobby form.create")
    await ana.click("form.create details summary")
    await ana.check("input[name=private]")
    table_id = await create_table(ana, "straight", seats=["me", "open"], target=50)
    assert "code=" in ana.url  # the page's address is the invitation
    await ana.wait_for_selector('.chip:has-text("share this page")')
    stranger = await open_page(browser, page_url(server.url, f"/t/{table_id}"), "eve", PHONE)
    await stranger.click('.seat button:has-text("Sit here")')
    await stranger.wait_for_selector('.prompt.error:has-text("not_invited")')
    friend = await open_page(browser, ana.url, "bo", PHONE)
    await friend.click('.seat button:has-text("Sit here")')
    await friend.wait_for_selector(".hand .tile")  # seated: the game starts
    assert friend.errors == [] and ana.errors == []  # type: ignore[attr-defined]


async def chimes(page: Page) -> int:
    return int(await page.evaluate("window.tones"))


COUNT_TONES = """window.tones = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };"""


async def test_the_turn_chime_sounds_on_your_turn_until_switched_off_and_stays_off(
    served: Served,
) -> None:
    server, browser = served
    page = await open_page(browser, page_url(server.url), "ana", DESKTOP, muted=False)
    await page.context.add_init_script(COUNT_TONES)
    await page.reload()
    button = page.locator("#sound")
    assert await button.get_attribute("aria-pressed") == "true"  # on by default
    await create_table(page, "straight", seats=["me", "bot:basic"], target=50)
    await page.wait_for_selector('#table[data-my-turn="true"]')
    assert await chimes(page) > 0  # your turn: the chime
    await button.click()
    assert await button.get_attribute("aria-pressed") == "false"
    assert await button.inner_text() == "Sound off"
    await page.reload()  # kept across page loads (the page takes its seat back, its turn again)
    await page.wait_for_selector('#table[data-my-turn="true"]')
    assert await page.locator("#sound").get_attribute("aria-pressed") == "false"
    assert await chimes(page) == 0  # silent while off


# Colour-vision deficiency simulation (Machado, Oliveira and Fernandes 2009, severity 1), on linear RGB.
Matrix = tuple[tuple[float, ...], ...]
DEFICIENCIES: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
MIN_DELTA_E = 20.0
"""The rule docs/WEB.md states: two colours that tell things apart stay at least this far apart (CIE76
delta E in CIELAB) for typical vision and under each simulated deficiency."""


def linear(rgb: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb))


def lab(lin: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(rgb: tuple[float, ...], matrix: Matrix | None) -> tuple[float, float, float]:
    lin = linear(rgb)
    if matrix is not None:
        lin = tuple(sum(m * c for m, c in zip(row, lin, strict=True)) for row in matrix)
    return lab(lin)


def delta_e(
    a: tuple[float, ...], b: tuple[float, ...], matrix: tuple[tuple[float, ...], ...] | None
) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(seen(a, matrix), seen(b, matrix), strict=True)) ** 0.5)


STYLE = """(selector) => { const s = getComputedStyle(document.querySelector(selector));
  return [s.backgroundColor, s.borderRadius, s.borderTopStyle]; }"""


FELT = "getComputedStyle(document.querySelector('.felt')).getPropertyValue('--felt')"


def rgb(css: str) -> tuple[float, ...]:
    """A computed colour, rgb(r, g, b) or #rrggbb."""
    css = css.strip()
    if css.startswith("#"):
        return tuple(float(int(css[i : i + 2], 16)) for i in (1, 3, 5))
    return tuple(float(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


async def test_the_teams_colours_stay_apart_for_colour_blind_players_and_differ_in_shape_too(
    served: Served,
) -> None:
    server, browser = served
    page = await open_page(browser, page_url(server.url), "ana", DESKTOP)
    await create_table(page, "texas42", seats=["me", "bot:basic", "bot:basic", "bot:basic"], target=1)
    await page.wait_for_selector(".seat.team-b")
    a_colour, a_shape, _ = await page.evaluate(STYLE, ".seat.team-a .seat-badge")
    b_colour, b_shape, _ = await page.evaluate(STYLE, ".seat.team-b .seat-badge")
    _, _, a_seat = await page.evaluate(STYLE, ".seat.team-a")
    _, _, b_seat = await page.evaluate(STYLE, ".seat.team-b")
    felt = rgb(
        await page.evaluate("getComputedStyle(document.querySelector('.felt')).getPropertyValue('--felt')")
    )
    for name, matrix in [("typical", None), *DEFICIENCIES.items()]:
        apart = delta_e(rgb(a_colour), rgb(b_colour), matrix)
        assert apart >= MIN_DELTA_E, f"teams A and B {apart:.1f} apart for {name} vision"
        for team in (a_colour, b_colour):  # and each stands out from the felt
            assert delta_e(rgb(team), felt, matrix) >= MIN_DELTA_E, f"{team} on the felt for {name}"
    assert a_shape != b_shape and a_seat != b_seat  # told apart without colour: badge and border shapes
