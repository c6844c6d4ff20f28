"""Duel in the browser client the server serves: the test game, which no file of the page names, is offered
by the create form (the server's ``hello.games``), created with a bot, played to its end by clicking lit
tiles and drawn by the page's generic drawing (``ui/generic.js``, ``sdk/generic.js``), its final scores
those of the server's record; a second page lists the table in its lobby and watches it, with no error in
either console, every frame through the hidden-information oracle, and the record shown on the replay page
(issue 27)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

from boneyard.protocol import decode_server_message

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))  # the browser tests' kit

from browserkit import (
    DESKTOP,
    PHONE,
    check_hidden_information,
    chromium,
    frames_of,
    move,
    open_page,
    page_url,
    screenshot,
)
from browserkit import play_to_the_end as play
from server_testkit import Player

pytest_plugins = ["duel_fixtures"]  # the duel and duel_url fixtures


async def create_duel(page: Page, duel: str) -> str:
    """Create a Duel from the lobby's form, with its default options: you and a basic bot; the table id."""
    await page.wait_for_selector("#lobby form.create")
    await page.select_option("select[name=game]", duel)
    assert await page.locator("form.create fieldset.seats select").count() == 2  # hello.games: 2 seats
    await page.select_option("select[name=seat0]", "me")
    await page.select_option("select[name=seat1]", "bot:basic")
    await page.select_option("select[name=turn_seconds]", "none")
    await page.click("form.create button[type=submit]")
    await page.wait_for_url("**/t/*")
    return page.url.rsplit("/t/", 1)[1]


async def record_of(page: Page, url: str, table_id: str) -> dict[str, Any]:
    """The server's record of the game the page saw end, fetched over the wire."""
    messages = [decode_server_message(frame) for frame in await frames_of(page)]
    events = [m.event for m in messages if m.type == "event" and m.table_id == table_id]
    over = next(event for event in events if event.type == "game_over")
    reader = await Player.connect(url, "reader")
    reply = await reader.request(type="get_record", record_id=over.record_id)
    await reader.close()
    return reply.record.model_dump(mode="json")


async def test_a_duel_offered_created_and_played_to_its_end_in_the_browser(duel: str, duel_url: str) -> None:
    shown: list[tuple[int, list[str]]] = []  # after each of ana's plays: tiles held, and those in the middle

    async def mover(page: Page) -> None:
        held = await page.locator(".hand .tile").count()
        await move(page)  # a lit tile, clicked
        await expect(page.locator(".hand .tile")).to_have_count(held - 1)
        middle = page.locator(".centre .trick .trick-tile")
        shown.append((held - 1, await middle.evaluate_all("ts => ts.map(t => t.getAttribute('aria-label'))")))
        if len(shown) == 2:
            await screenshot(page, "duel-1440x900")  # the generic drawing, mid-hand

    async with chromium() as browser:
        ana = await open_page(browser, page_url(duel_url), "ana", DESKTOP)
        await ana.wait_for_selector("#lobby form.create")
        offered = await ana.locator("select[name=game] option").evaluate_all("os => os.map(o => o.value)")
        assert offered == ["moon", "straight", "texas42", duel]  # the server's games, in its order
        assert await ana.inner_text(f"select[name=game] option[value={duel}]") == duel  # by the server's name
        table_id = await create_duel(ana, duel)
        assert await ana.inner_text(".table-head h1") == duel

        bo = await open_page(browser, page_url(duel_url), "bo", PHONE)  # a lobby listing the Duel table
        row = bo.locator(f'.table-row[data-table="{table_id}"]')
        await row.wait_for()
        assert (await row.locator("header strong").inner_text()) == duel
        await row.locator("button:has-text('Watch')").click()
        await bo.wait_for_selector("#table .seat.at-bottom")

        moves = await play(ana, mover=mover)
        await bo.wait_for_selector('#table[data-over="true"]')
        record = await record_of(ana, duel_url, table_id)
        hands = record["hands"]
        assert moves == 5 * len(hands)  # five tricks a hand, ana plays once in each
        assert [held for held, _ in shown] == [4, 3, 2, 1, 0] * len(hands)  # each tile leaves her hand
        names, scores = record["seat_names"], record["final_scores"]
        by = re.compile(rf"({'|'.join(map(re.escape, names))}) played (\d-\d|double \d)")  # by its player
        assert all(middle and all(map(by.match, middle)) for _, middle in shown), shown  # trick, or the last
        log = await ana.inner_text(".log")
        assert log.count(" plays ") == 10 * len(hands) and "wins the trick" in log

        final = " · ".join(f"{name} {score}" for name, score in zip(names, scores, strict=True))
        winner = f"{names[scores.index(max(scores))]} wins"
        for page in (ana, bo):  # the player and the watcher see the server's result
            assert await page.inner_text(".game-over p") == final
            assert await page.inner_text(".game-over h2") == winner
            now = await page.locator(".sheet tfoot td").all_inner_texts()
            assert now == [str(score) for score in scores]
            notes = " ".join(await page.locator(".seat-note").all_inner_texts())
            assert sum(map(int, re.findall(r"(\d+) tricks?\b", notes))) == 5  # the last hand's tricks
            mark = await page.inner_text(".game-over .deal-mark")
            assert mark == "deal not checked: this page does not know how this game deals"
        checked = await asyncio.gather(*(check_hidden_information(p, duel_url, table_id) for p in (ana, bo)))
        assert all(count > 0 for count in checked)

        await bo.click(".game-over a:has-text('Replay')")  # the record: each hand's deal and plays in words
        await bo.wait_for_selector("#replay .replay-where")
        heading = f"{duel}: final {' – '.join(map(str, scores))}"
        assert await bo.inner_text("#replay h1") == heading
        assert await bo.inner_text("#replay .deal-mark") == mark
        assert await bo.locator("#replay-board .replay-seat svg").count() == 10  # the first deal, face up
        words = await bo.locator("#replay .replay-hand ol.log li").all_text_contents()
        assert sum(" plays " in w for w in words) == 10 * len(hands)
        assert ana.errors == [] and bo.errors == []  # type: ignore[attr-defined]
