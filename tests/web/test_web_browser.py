"""The browser client in a real headless Chromium (Playwright), against a real server: whole games played by
clicking and by keyboard, on a phone and on a desktop, with every frame the page received put through the
server's hidden-information oracle."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import msgpack
from browserkit import (
    DESKTOP,
    PHONE,
    check_hidden_information,
    chromium,
    create_table,
    frames_of,
    move,
    open_page,
    page_url,
    play_to_the_end,
    screenshot,
    step_through_replay,
)
from client_support import Proxy
from playwright.async_api import WebSocketRoute
from server_testkit import Player, running_server

from boneyard.protocol import decode_server_message, unfolded

ACTION_EVENTS = {"bid": "bid_made", "pass": "passed", "discard": "discarded", "trump": "trump_named"}
ACTION_EVENTS |= {"play": "tile_played", "draw": "tile_drawn"}


async def shot_and_move(page: Any, name: str, *, keyboard: bool = False) -> None:
    """A screenshot of the table on the page's turn (the README shows two), then the move."""
    await screenshot(page, name)
    await move(page, keyboard=keyboard)


async def actions_of_record(url: str, messages: list[Any], table_id: str) -> list[tuple[str, int]]:
    """Every action of the game's record as the event it makes, with its seat, in order."""
    over = next(m for m in messages if m.type == "event" and m.event.type == "game_over")
    reader = await Player.connect(url, "reader")
    record = (await reader.request(type="get_record", record_id=over.event.record_id)).record
    await reader.close()
    return [(ACTION_EVENTS[a.type], a.seat) for hand in record.hands for a in hand.actions]


FAST = {"bot_workers": 0, "deal_seed_wait_ms": 2000}
"""Bots think on the loop, at once; a game waits for the players' seeds (the page sends its own at once)."""


async def test_a_whole_moon_game_clicked_on_a_phone_with_a_pause_between_hands_then_a_rematch() -> None:
    async with running_server(**FAST) as server, chromium() as browser:
        page = await open_page(browser, page_url(server.url), "ana", PHONE)
        table_id = await create_table(
            page, "moon", seats=["me", "bot:basic", "bot:good"], target=7, hand_pause_ms="4000"
        )
        await play_to_the_end(page, at=2, then=lambda: shot_and_move(page, "moon-390x844"))
        mark = page.locator(".game-over .deal-mark")
        await mark.wait_for()
        assert (await mark.inner_text()).startswith("✓ deal verified")
        await screenshot(page, "moon-390x844-over")
        assert await check_hidden_information(page, server.url, table_id) > 50
        link = await page.locator(".game-over a:has-text('Replay')").evaluate("a => a.href")
        replay = await open_page(browser, link, "reader", PHONE)  # the record, stepped through by another
        for dealt, left, plays, draws in await step_through_replay(replay):
            assert draws == 0 and dealt == 21 and left == 21 - plays  # the widow in, the discard out
        assert replay.errors == []  # type: ignore[attr-defined]
        await page.click("text=Rematch")  # the only human: the next game starts at once
        await page.wait_for_selector('#table[data-over="false"] .hand .tile')
        assert page.errors == []  # type: ignore[attr-defined]


async def test_a_straight_partnership_game_played_by_keyboard_alone_on_a_desktop() -> None:
    # Seeded deals and no players' seeds: the same game every run, long enough for its screenshot.
    async with running_server(bot_workers=0, seed=5) as server, chromium() as browser:
        page = await open_page(browser, page_url(server.url), "ana", DESKTOP)
        table_id = await create_table(
            page, "straight", seats=["me", "bot:basic", "bot:basic", "bot:basic"], target=100
        )
        await page.wait_for_selector('#table[data-my-turn="true"]')
        assert "team A" in await page.inner_text(".seat.at-top")  # the partner sits across
        moves = await play_to_the_end(
            page, keyboard=True, at=4, then=lambda: shot_and_move(page, "straight-1440x900", keyboard=True)
        )
        await screenshot(page, "straight-1440x900-over")
        assert moves > 5
        assert (await page.inner_text(".game-over .deal-mark")).startswith("✓ deal verified")
        assert await check_hidden_information(page, server.url, table_id) > 20
        await page.click(".game-over a:has-text('Replay')")  # the record, its deals checked again
        await page.wait_for_selector("#replay .deal-mark")
        assert (await page.inner_text("#replay .deal-mark")).startswith("✓ deal verified")
        (hand, *_) = await step_through_replay(page, hands=1)  # the first hand's layout built move by move
        dealt, left, plays, draws = hand
        assert (dealt, left) == (28, 28 - plays + draws) and plays > 0
        assert await page.locator("#replay-board .layout .placed").count() == plays
        assert page.errors == []  # type: ignore[attr-defined]


async def test_two_browsers_play_each_other_chat_and_a_third_watches() -> None:
    async with running_server(**FAST) as server, chromium() as browser:
        ana = await open_page(browser, page_url(server.url), "ana", DESKTOP)
        table_id = await create_table(ana, "straight", seats=["me", "open"], target=40, turn="60")
        # The watcher comes before the deal, so that it sees a whole hand from the deal whatever the game
        # (one that came later and saw none would say "deal not checked": a game can end in its first hand).
        watcher = await open_page(browser, page_url(server.url), "cy", PHONE)
        await watcher.click(f'.table-row[data-table="{table_id}"] button:has-text("Watch")')
        await watcher.wait_for_selector("#table.spectating .felt .seat")
        bo = await open_page(browser, page_url(server.url), "bo", PHONE)
        await bo.click(f'.table-row[data-table="{table_id}"] button:has-text("Sit")')
        await bo.wait_for_url(f"**/t/{table_id}")
        clock = await bo.locator("#table .seat.to-move .clock").inner_text()  # the turn clock runs
        assert re.fullmatch(r"\d+ s", clock) and 0 < int(clock.split()[0]) <= 60, clock
        await ana.fill("input[name=chat]", "good luck!")
        await ana.press("input[name=chat]", "Enter")
        await bo.wait_for_selector('.chat-line:has-text("good luck!")')
        await watcher.wait_for_selector('.chat-line:has-text("good luck!")')
        await asyncio.gather(play_to_the_end(ana), play_to_the_end(bo))
        await watcher.wait_for_selector('#table[data-over="true"] .game-over .deal-mark')
        for page in (ana, bo, watcher):
            assert (await page.inner_text(".game-over .deal-mark")).startswith("✓ deal verified")
            assert await check_hidden_information(page, server.url, table_id) > 10
            assert page.errors == []  # type: ignore[attr-defined]


async def test_a_page_whose_connection_is_killed_resumes_and_misses_no_event() -> None:
    async with running_server(bot_workers=0, seed=4) as server, chromium() as browser:
        proxy = Proxy(server.port)  # the page loads and connects through it: dropping it is a cut cable
        await proxy.start()
        try:
            url = f"http://127.0.0.1:{proxy.port}/"
            page = await open_page(browser, url, "ana", DESKTOP)
            table_id = await create_table(
                page, "straight", seats=["me", "bot:basic"], target=25, bot_delay_ms="250"
            )

            async def cut() -> None:
                await move(page)  # the bot answers while the page is cut off
                proxy.drop()
                await page.wait_for_selector('#status:has-text("reconnecting")')  # shown to the player
                await page.wait_for_selector('#status:has-text("resumed")')

            await play_to_the_end(page, at=3, then=cut)
        finally:
            await proxy.close()
        messages = [decode_server_message(frame) for frame in await frames_of(page)]
        (resumed,) = [m for m in messages if m.type == "welcome" and m.resumed]
        assert resumed.replayed > 0  # the missed messages came again, not a snapshot
        assert await check_hidden_information(page, server.url, table_id) > 20
        events = [e.event for m in messages if m.type == "event" for e in unfolded(m) if e.type == "event"]
        seen = [(e.type, getattr(e, "seat", None)) for e in events if e.type in ACTION_EVENTS.values()]
        assert seen == await actions_of_record(server.url, messages, table_id)


async def test_a_tampered_reveal_shows_deal_not_verified() -> None:
    async def tamper(route: WebSocketRoute) -> None:
        upstream = route.connect_to_server()
        route.on_message(lambda frame: upstream.send(frame))
        upstream.on_message(lambda frame: route.send(altered(frame)))

    def altered(frame: str | bytes) -> str | bytes:
        message = msgpack.unpackb(frame)
        if message["type"] == "deal_revealed":  # one digit of the server seed changed on the way
            seed = message["server_seed"]
            message["server_seed"] = ("1" if seed[0] == "0" else "0") + seed[1:]
            return bytes(msgpack.packb(message))
        return frame

    async with running_server(**FAST) as server, chromium() as browser:
        page = await open_page(browser, "about:blank", "ana", DESKTOP)
        await page.route_web_socket(server.url, tamper)
        await page.goto(page_url(server.url))
        table_id = await create_table(page, "straight", seats=["me", "bot:basic"], target=30)
        await play_to_the_end(page)
        mark = page.locator(".game-over .deal-mark")
        await mark.wait_for()
        assert (await mark.inner_text()).startswith("✗ deal NOT verified")
        assert "SHA-256 of the revealed server seed is not the commitment" in await mark.inner_text()
        # The seed it got is not the server's: the tiles are still checked, the seed's secrecy cannot be.
        assert await check_hidden_information(page, server.url, table_id, seeds=False) > 5


async def test_a_page_loaded_again_mid_game_takes_its_seat_back() -> None:
    reloaded: list[bool] = []
    async with running_server(bot_workers=0, seed=2) as server, chromium() as browser:
        page = await open_page(browser, page_url(server.url), "ana", PHONE)
        table_id = await create_table(page, "straight", seats=["me", "bot:basic"], target=30)

        async def reload() -> None:
            before = await page.locator(".hand .tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")
            await page.reload()  # the token in localStorage resumes the seat, with a fresh snapshot
            await page.wait_for_selector('#table[data-my-turn="true"]')
            assert (
                await page.locator(".hand .tile").evaluate_all("ts => ts.map(t => t.dataset.tile)") == before
            )
            reloaded.append(True)
            await move(page)

        await play_to_the_end(page, at=1, then=reload)
        assert reloaded
        mark = await page.inner_text(".game-over .deal-mark")
        assert mark.startswith("deal not checked")  # no hand was dealt after this page load
        assert await check_hidden_information(page, server.url, table_id, seeds=False) > 5
        assert page.errors == []  # type: ignore[attr-defined]
