"""The full-screen client's answers to mistakes, through a real server on loopback: every bad input, in
the lobby and at a table, is one line in words on the status line and the app goes on."""

from __future__ import annotations

import random
import re
from typing import Any

import tui_support
from textual.geometry import Region
from textual.widgets import Input, Static
from tui_support import click_tile, make_app, moon_moved, my_turn, table, type_text, until

from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.tui.widgets import HandBar

seeded = tui_support.seeded


LOBBY_MISTAKES = [
    ("create straight players=5", "players must be 2, 3 or 4"),
    ("create moon bots=1,2,3", "bots: Moon has seats 0 to 2, not 3"),
    ("create moon seat=5", "seat: Moon has seats 0 to 2"),
    ("create moon turn=0", "turn: 5 to 3600 seconds per turn"),
    ("create straight players=2 partnerships=on", "partnerships need 4 players"),
    ("create moon delay=99999", "delay: 0 to 10000 milliseconds"),
    ("create chess", "game: create moon"),
    ("say " + "x" * 501, "say: at most 500 characters"),
    ("join t9 0", "no table t9 (no_such_table)"),
    ("join t1", "join TABLE SEAT"),
    ("64", "no game here yet"),
    ("frobnicate", "unknown command 'frobnicate'"),
]
TABLE_MISTAKES = [
    ("trump 7", "trump is a number 0-6"),
    ("bid 3", "bids are 4, 5, 6, 7 or 21"),
    ("9-9", "unknown command '9-9'"),
    ("12 sideways", "after a tile, name an end"),
    ("77", "there are choices 1 to"),
    ("{held}", "the bidding is not over: bid "),  # a held tile, sent: the engine says why not
    ("{not_held}", "you do not hold [{not_held[0]}|{not_held[1]}]"),
    ("join {table} 1", "you already hold a seat at this table (already_seated)"),  # the server's, in words
]


async def test_every_bad_input_is_one_line_and_the_app_goes_on(seeded: Any) -> None:
    app = await make_app(seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        for text, said in LOBBY_MISTAKES:
            await type_text(pilot, text)
            await until(pilot, lambda s=said: s in app.status_text, what=text)
            assert app.is_running and app.controller.current is None, text
        # The form checks its fields the same way, before sending anything.
        app.screen.query_one("#f-game", Input).value = "straight"
        app.screen.query_one("#f-players", Input).value = "5"
        await pilot.click("#create")
        await until(pilot, lambda: "players must be 2, 3 or 4" in app.status_text)
        assert app.client.mirror.lobby == {}  # nothing was sent
        app.screen.query_one("#f-players", Input).value = "3"
        app.screen.query_one("#f-game", Input).value = "moon"
        app.screen.query_one("#f-turn", Input).value = "none"
        app.screen.query_one("#f-level", Input).value = "expert"
        await pilot.pause(0.3)  # a button ignores clicks while it shows the last one (0.2 s)
        await pilot.click("#create")
        await until(
            pilot, lambda: "level: the bots play at basic, good or strong, not 'expert'" in app.status_text
        )
        assert app.client.mirror.lobby == {}
        app.screen.query_one("#f-level", Input).value = "good"
        await pilot.pause(0.3)
        await pilot.click("#create")
        await until(
            pilot, lambda: isinstance(app.screen, TableScreen), what=f"the table screen {app.screen_stack}"
        )
        created = app.client.mirror.lobby[app.controller.current]
        assert [seat.level for seat in created.seats] == [None, "good", "good"], created.seats
        await until(pilot, lambda: my_turn(app), what="our turn")
        hand = app.controller.mirror.view.hand
        held = "".join(map(str, max(hand)))  # never [0|0]: "00" would be a choice number
        not_held = next(f"{a}{b}" for a in range(7) for b in range(a + 1) if (a, b) not in hand)
        for text, said in TABLE_MISTAKES:
            text, said = (
                t.format(table=app.controller.current, held=held, not_held=not_held) for t in (text, said)
            )
            await type_text(pilot, text)
            await until(pilot, lambda s=said: s in app.status_text, what=text)
            assert app.is_running and isinstance(app.screen, TableScreen), text
        log = tui_support.log_text(app)
        assert "Error" not in log  # errors go to the status line, once, not into the log as well
        assert app.controller.mirror is not None and app.controller.mirror.my_turn  # still our move


async def test_a_refusal_at_80_columns_shows_whole_with_the_tiles_as_the_hand_shows_them(seeded: Any) -> None:
    """A held tile that does not follow suit, clicked: the server refuses it in its own words, once, with
    its code (not also what ``illegal_action`` means in general). The status line shows every word, and
    the server's ``[a-b]`` tiles read ``[a|b]`` like the hand's."""
    app = await make_app(seeded, table("moon"))
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            await until(pilot, lambda: my_turn(app), what="our turn")
            mirror = app.controller.mirror
            assert mirror is not None and mirror.view is not None
            illegal = [c for c in app.screen.query_one(HandBar).menu() if c.tile is not None and not c.legal]
            if mirror.view.phase == "playing" and illegal:
                break
            before = len(mirror.view.hand), mirror.view.phase, len(app._lines)
            await app.controller.act(tui_support.bot_choice(app, rng))
            await until(pilot, lambda m=mirror, b=before: moon_moved(app, m, b), what="the move made")
        await click_tile(pilot, illegal[0].number)
        await until(pilot, lambda: "you must follow" in app.status_text, what="the refusal")
        said = app.status_text
        assert re.search(r"\[\d\|\d\]", said) and not re.search(r"\[\d-\d\]", said), said
        assert len(said) > 40 and said.count("(illegal_action)") == 1 and "do not allow" not in said, said
        status = app.screen.query_one("#status", Static)
        rows = [strip.text for strip in status.render_lines(Region(0, 0, *status.outer_size))]
        assert " ".join(" ".join(rows).split()) == " ".join(said.split()), rows  # every word on the screen
        assert status.region.bottom <= 23, status.region  # above the command line
