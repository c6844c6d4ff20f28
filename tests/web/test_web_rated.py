"""The browser's create form and rated tables (PROTOCOL.md section 5, "Rated games") in a real Chromium
against a real server: a signed-in player's "Rated" box makes a rated, timed table (the form takes "no
timer" away while it is ticked); a guest's box is off, with the reason and a way to sign in, and so are a
rated table's seats in a guest's lobby."""

from __future__ import annotations

from browserkit import DESKTOP, chromium, create_table, frames_of, open_page, page_url
from server_testkit import running_server
from test_web_accounts import who

from boneyard.protocol import decode_server_message

RATED = "form.create input[name=rated]"  # the seek form has a box of that name too
UNTIMED = "form.create select[name=turn_seconds] option[value=none]"


async def test_a_signed_in_player_creates_a_rated_table_and_a_guests_box_is_off() -> None:
    async with running_server(bot_workers=0) as server, chromium() as browser:
        ana = await open_page(browser, page_url(server.url), None, DESKTOP)
        await who(ana, "create", "Ana")
        await ana.wait_for_selector('#account .chip:has-text("signed in as Ana")')
        await ana.wait_for_selector("#lobby form.create")
        assert await ana.is_enabled(RATED)
        assert await ana.is_enabled("form.seek-form input[name=rated]")
        await ana.select_option("select[name=turn_seconds]", "none")
        await ana.check(RATED)  # a rated table is timed: "no timer" goes
        assert await ana.input_value("select[name=turn_seconds]") == "30"
        assert await ana.is_disabled(UNTIMED)
        table_id = await create_table(ana, "moon", seats=["me", "bot:basic", "bot:good"], target=3, turn="60")
        created = [m for m in map(decode_server_message, await frames_of(ana)) if m.type == "table_created"]
        made = [(c.table.table_id, c.table.rated, c.table.turn_seconds) for c in created]
        assert made == [(table_id, True, 60)]

        guest = await open_page(browser, page_url(server.url), None, DESKTOP)
        await who(guest, "guest", "bo")
        await guest.wait_for_selector(f'.table-row[data-table="{table_id}"] .chip:has-text("rated")')
        takeover = guest.locator(f'.table-row[data-table="{table_id}"] button:has-text("Take over")')
        assert await takeover.count() == 2  # the bots' seats: offered, but not to a guest, and why
        assert await takeover.first.is_disabled()
        assert await takeover.first.get_attribute("title") == "Rated games are for signed-in players."
        assert await guest.is_disabled(RATED)
        assert await guest.is_disabled("form.seek-form input[name=rated]")  # seeking rated too
        assert await guest.is_enabled(UNTIMED)  # an unrated table may be untimed
        hint = guest.locator("#rated-hint")
        assert "Rated games are for signed-in players." in await hint.inner_text()
        await hint.locator("button").click()  # back to the first screen, to make an account
        await guest.wait_for_selector(".name-form button[value=create]")
        for page in (ana, guest):
            assert page.errors == []  # type: ignore[attr-defined]
