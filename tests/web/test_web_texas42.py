"""Texas 42 in a real headless Chromium against a real server: a whole game of two browsers, partners,
against two bots, played by clicking, with a nello hand (the bidder's partner sits out, their hand face
down on both screens), the marks on the sheet,
the deal checked in the page, every frame through the hidden-information oracle, and the record stepped
through on the replay board."""

from __future__ import annotations

import asyncio

from browserkit import (
    DESKTOP,
    PHONE,
    check_hidden_information,
    chromium,
    create_table,
    move,
    open_page,
    page_url,
    play_to_the_end,
    screenshot,
    step_through_replay,
)
from playwright.async_api import Page
from server_testkit import running_server


async def test_a_whole_texas42_game_with_a_nello_hand_clicked_on_a_desktop() -> None:
    """Ana plays with bo across the table (two browsers) against two bots; ana bids nello once."""
    nello: list[str] = []

    async def mover(page: Page) -> None:
        """Until a nello hand was played: bid the highest mark offered, then name nello; after, as anyone."""
        buttons = page.locator(".actions button")
        texts = await buttons.all_inner_texts()
        if not nello and "Nello" in texts:
            await buttons.nth(texts.index("Nello")).click()
            partner = page.locator(".seat.at-top.out")  # across the table, face down, sitting out
            await partner.wait_for()
            nello.append(await partner.get_attribute("aria-label") or "")
            nello.append(await partner.inner_text())
            await bo.wait_for_selector(".hand .tile.face-down >> nth=6")  # bo's own seven, face down
            nello.append(await bo.inner_text(".sitting-out"))
            await screenshot(bo, "texas42-390x844-nello")
            await page.wait_for_selector('#table[data-my-turn="true"]')
            await move(page)  # the bidder leads; a trick of three (bo sits out)
            await page.wait_for_selector(".trick .trick-tile >> nth=1")
            await screenshot(page, "texas42-1440x900")
            return
        marks = [i for i, text in enumerate(texts) if "mark" in text]
        if not nello and marks:
            await buttons.nth(marks[-1]).click()
            return
        await move(page)

    async with running_server(bot_workers=0, seed=3) as server, chromium() as browser:
        page = await open_page(browser, page_url(server.url), "ana", DESKTOP)
        seats = ["me", "bot:basic", "open", "bot:basic"]
        table_id = await create_table(page, "texas42", seats=seats, target=3, choose={"nello": "true"})
        bo = await open_page(browser, page_url(server.url), "bo", PHONE)
        await bo.click(f'.table-row[data-table="{table_id}"] button:has-text("Sit")')
        assert await page.inner_text(".table-head h1") == "Texas 42"
        await page.wait_for_selector('.seat.at-top:has-text("bo")')
        assert "team A" in await page.inner_text(".seat.at-top")  # the partner sits across
        await asyncio.gather(play_to_the_end(page, mover=mover), play_to_the_end(bo))
        assert nello, "no nello hand was played"
        assert "face down, sitting out" in nello[0] and "sits out (nello)" in nello[1]
        assert "you sit this hand out" in nello[2]
        sheet = await page.inner_text(".sheet")
        assert "Team A (seats 1+3)" in sheet and "Team B (seats 2+4)" in sheet
        log = await page.inner_text(".log")
        assert "bids nello" in log and "mark" in log
        await screenshot(page, "texas42-1440x900-over")
        for player in (page, bo):  # partners see nothing of each other's hands
            mark = await player.inner_text(".game-over .deal-mark")
            assert mark.startswith("✓ deal verified"), mark
            assert await check_hidden_information(player, server.url, table_id) > 28

        await page.click(".game-over a:has-text('Replay')")  # the record, a move at a time
        await page.wait_for_selector("#replay .deal-mark")
        assert (await page.inner_text("#replay .deal-mark")).startswith("✓ deal verified")
        hands = await step_through_replay(page)
        await screenshot(page, "texas42-replay-1440x900")
        assert len(hands) >= 2
        for dealt, left, plays, draws in hands:  # every hand face up, less each tile played
            assert (dealt, left, draws) == (28, 28 - plays, 0) and plays > 0
        assert page.errors == [] and bo.errors == []  # type: ignore[attr-defined]
