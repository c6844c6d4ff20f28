"""The full-screen client, driven headless by Textual's Pilot through a real server on loopback."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import tui_support
from textual.widgets import DataTable, Markdown
from tui_support import click_action, click_tile, make_app, my_turn, table, type_text, until

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.tui.screens import (
    ConfirmScreen,
    GameOverScreen,
    HandResultScreen,
    HelpScreen,
    RulesScreen,
)
from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.tui.widgets import ActionBar, Board, HandBar
from boneyard.clients.cli.ui.choices import action_text, choices
from boneyard.clients.cli.ui.controller import WATCH_PACE_MS

seeded = tui_support.seeded


async def test_a_whole_moon_hand_by_keyboard(seeded: Any) -> None:
    app = await make_app(seeded, table("moon"), pause=30)
    rng = random.Random(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and my_turn(app))
        await pilot.press("question_mark")  # `?` on an empty command line: the keys and commands
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Keys at the table" in str(app.screen.query_one("#help-text").render())
        await pilot.press("escape")
        await type_text(pilot, "rules")  # the rules of the game at this table, from docs/RULES.md
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        rules = app.screen.query_one("#rules-text", Markdown).source
        assert "Three-Player Moon" in rules and "Straight Dominoes" not in rules
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        ways = {"number": 0, "arrows": 0, "tile": 0, "words": 0}
        while not isinstance(app.screen, HandResultScreen):
            await until(pilot, lambda: my_turn(app) or isinstance(app.screen, HandResultScreen))
            if isinstance(app.screen, HandResultScreen):
                break
            mirror = app.controller.mirror
            assert mirror is not None and mirror.view is not None
            view = mirror.view
            before = len(view.hand), view.phase, len(app._lines)
            action = tui_support.bot_choice(app, rng)
            menu = choices(view.hand, view.legal_actions)
            number = next(c.number for c in menu if action in c.actions)
            if action.type in ("bid", "pass", "trump"):
                if ways["words"] == 0:  # in words: `pass`, `bid 5`, `trump 6`
                    await type_text(pilot, action_text(action))
                    ways["words"] += 1
                else:
                    await type_text(pilot, str(number))  # the number of the offered action
                    ways["number"] += 1
            elif sum(ways.values()) % 3 == 0:
                # Arrows along the hand to the tile, then Enter.
                hand = app.screen.query_one(HandBar)
                steps = (number - 1 - hand.selected) % len(menu)
                await pilot.press(*(["right"] * steps), "enter")
                ways["arrows"] += 1
            elif sum(ways.values()) % 3 == 1:
                await type_text(pilot, f"{action.tile[0]}{action.tile[1]}")
                ways["tile"] += 1
            else:
                await type_text(pilot, str(number))  # the tile's place in the hand
                ways["number"] += 1
            await until(
                pilot, lambda m=mirror, b=before: (len(m.view.hand), m.view.phase, len(app._lines)) != b
            )
            assert app.status_text.strip() == "", app.status_text
        assert all(ways.values()), ways
        mirror = app.controller.mirror
        assert mirror is not None and len(mirror.hands) == 1
        log = tui_support.log_text(app)
        assert log.count("takes the trick") == 7
        # In the order the server sent them: every trick before the hand's score.
        assert log.rindex("takes the trick") < log.index("Hand scored")
        shown = str(app.screen.query_one("Static").render())
        assert "Hand 1:" in shown and ("made" in shown or "set" in shown)
        await pilot.press("space")  # the pause between hands is skipped by a key
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.is_running


async def test_straight_plays_by_mouse(seeded: Any) -> None:
    app = await make_app(seeded, table("straight", players=2))
    rng = random.Random(2)
    async with app.run_test(size=(120, 40)) as pilot:
        plays = draws = ends = 0
        while plays < 6:
            await until(pilot, lambda: my_turn(app))
            mirror = app.controller.mirror
            assert mirror is not None and mirror.view is not None
            view = mirror.view
            count_before = len(view.hand), view.boneyard, len(view.layout.arms.get("left", ()))
            action = tui_support.bot_choice(app, rng)
            if action.type == "play":
                number = next(c.number for c in choices(view.hand, view.legal_actions) if action in c.actions)
                await click_tile(pilot, number)
                if len([a for a in view.legal_actions if tuple(a.tile or ()) == tuple(action.tile)]) > 1:
                    assert "fits" in app.status_text  # which end? the ends are offered to click
                    await click_action(pilot, action)
                    ends += 1
                plays += 1
            else:
                await click_action(pilot, action)  # draw or pass
                draws += 1
            await until(pilot, lambda m=mirror, b=count_before: _straight_moved(m, b))
            assert "Error" not in app.status_text, app.status_text
            if mirror.game_over is not None:
                break
        assert plays >= 3
        log = tui_support.log_text(app)
        assert log.count("tester (you) plays") == plays


def _straight_moved(mirror: Any, before: tuple[int, int, int]) -> bool:
    view = mirror.view
    now = (len(view.hand), view.boneyard, len(view.layout.arms.get("left", ())))
    return now != before or mirror.game_over is not None


async def test_a_game_to_the_end_offers_rematch_save_and_lobby(
    seeded: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    app = await make_app(seeded, table("moon", target=3), auto=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=40)
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Game over:" in text and "wins" in text and "record rec" in text
        # Fair deals: the client's own check of the seeds revealed after the game, on the same screen
        # (this server deals from a fixed seed, for the same game every run: predictable, so not fair).
        fixed = "deals NOT verified: not fair: the server seed is fixed"
        await until(pilot, lambda: fixed in str(app.screen.query_one("#verdict").render()))
        await pilot.click("#save")  # save the record
        await until(pilot, lambda: list(tmp_path.glob("rec*.json")) != [])
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("l")  # typing goes to the command line, not to the window's buttons
        assert isinstance(app.screen, GameOverScreen)
        await type_text(pilot, "eave")  # `leave`: back to the lobby
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        assert app.controller.current is None


async def test_every_rematch_ends_with_its_own_game_over_window(seeded: Any) -> None:
    """Issue 24.4: the windows shown were remembered by table and number of hands, so a rematch that
    ended after as many hands as the game before showed no game-over window."""
    app = await make_app(seeded, table("moon", target=1), auto=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for game in range(3):
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=40, what=f"{game}")
            over = app.controller.mirror.game_over
            await pilot.click("#rematch")
            await until(pilot, lambda o=over: app.controller.mirror.game_over is not o, what="the next game")
            assert isinstance(app.screen, TableScreen) or app.controller.mirror.game_over is not None


async def test_the_lobby_shows_the_tables_there_before_we_came(seeded: Any) -> None:
    """Issue 24.2: `boneyard connect URL` opened on an empty lobby until `tables` was typed."""
    other, witness = Client(tui_support.url_of(seeded), "early"), Client(tui_support.url_of(seeded), "w")
    await other.connect()
    await witness.connect()
    try:
        created = await other.create_table("moon", bots=[1], turn_seconds=None, seat=0)
        async with asyncio.timeout(20):  # the lobby's push about it has gone (to the witness in the lobby)
            while created.table.table_id not in witness.mirror.lobby:
                await asyncio.sleep(0.02)
        app = await make_app(seeded)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            grid = app.screen.query_one(DataTable)
            table_id = created.table.table_id
            await until(pilot, lambda: grid.row_count == 1, what="the waiting table listed")
            assert grid.get_row_at(0)[0] == table_id and "early" in grid.get_row_at(0)[3]
            assert [c.label.plain for c in grid.columns.values()][3] == "seats"  # each cell under its name
    finally:
        await other.close()
        await witness.close()


def _shown(app: Any, widget: type[Any]) -> str:
    return str(app.screen.query_one(widget).render())


async def test_the_moon_screen_says_what_its_numbers_marks_and_steps_mean(seeded: Any) -> None:
    """Issue 24.6: during the auction only the bids are numbered (not the hand too); the discard and the
    naming of trump say so; `trump none` reads as typed; green and `*` are explained; naming trump does
    not renumber the hand; the trick area says who led, who is winning and the tricks taken."""
    app = await make_app(seeded, table("moon"))
    rng = random.Random(7)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: my_turn(app), what="our bid")
        mirror = app.controller.mirror
        assert mirror.view.phase == "bidding"
        numbers, tiles = _shown(app, HandBar).split("\n")[:2]
        assert not re.search(r"\d", numbers) and "[" in tiles, numbers  # the hand is not numbered now
        assert "1) pass" in _shown(app, ActionBar) and "your bid" in _shown(app, Board)
        top = max((a for a in mirror.view.legal_actions if a.type == "bid"), key=lambda a: a.bid)
        await app.controller.act(top)  # the highest bid wins the auction (21: nobody can go over it)
        await until(pilot, lambda: my_turn(app) and mirror.view.phase == "discarding", what="the discard")
        assert "you took the widow: discard one tile" in _shown(app, Board)
        assert "green: you may discard it" in _shown(app, HandBar)
        await app.controller.act(next(a for a in mirror.view.legal_actions if a.type == "discard"))
        await until(pilot, lambda: my_turn(app) and mirror.view.phase == "naming_trump", what="naming trump")
        assert "trump none" in _shown(app, ActionBar) and "no trump" not in _shown(app, ActionBar)
        before = list(mirror.view.hand)
        trump = next(a for a in mirror.view.legal_actions if a.type == "trump" and a.trump == before[0][0])
        await app.controller.act(trump)
        await until(pilot, lambda: my_turn(app) and mirror.view.phase == "playing", what="the first lead")
        assert list(mirror.view.hand) == before  # the same order, the same numbers
        legend = _shown(app, HandBar).split("\n")[-1]
        assert "green: you may play it" in legend and "*: a trump" in legend, legend
        assert "tricks taken: you 0 · bot-1 0 · bot-2 0" in _shown(app, Board)
        while not (len(mirror.view.trick) >= 2 and my_turn(app)):
            await app.controller.act(tui_support.bot_choice(app, rng))
            await until(pilot, lambda: my_turn(app) or mirror.hand_result is not None, what="our turn")
            assert mirror.hand_result is None, "the hand ended before a trick of two reached us"
        board = _shown(app, Board)
        assert re.search(r"led \[\d\|\d\] · (you|bot-\d) winning with \[\d\|\d\]", board), board


async def test_the_lobby_is_current_after_leaving_a_table(seeded: Any) -> None:
    """The lobby's pushes go to sessions in the lobby only: a table made while we sat elsewhere never showed
    once we were back, until `tables` was typed."""
    app = await make_app(seeded, table("moon"))
    other = Client(tui_support.url_of(seeded), "later")
    await other.connect()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and my_turn(app))
            created = await other.create_table("straight", bots=[1], turn_seconds=None, seat=0)
            await type_text(pilot, "leave")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            grid = app.screen.query_one(DataTable)
            table_id = created.table.table_id
            await until(pilot, lambda: table_id in [grid.get_row_at(i)[0] for i in range(grid.row_count)])
    finally:
        await other.close()


async def test_no_colour_and_the_bell(seeded: Any) -> None:
    """--no-color: no colour at all on the screen; the bell rings when it becomes our turn."""
    app = await make_app(seeded, table("moon"), colour=False, bell=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_turn(app))
        assert app.rings >= 1  # our turn
        svg = app.export_screenshot()
        colours = set(re.findall(r"fill: (#[0-9a-f]{6})", svg))
        rgb = {c: [int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colours}
        tinted = [c for c, (r, g, b) in rgb.items() if max(r, g, b) - min(r, g, b) > 8]
        assert colours and not tinted, tinted  # black, white and greys only


async def test_a_bots_only_table_created_to_be_watched(seeded: Any) -> None:
    """`create ... seat=none delay=MS`: the client watches it; the bots play at the creator's pace."""
    app = await make_app(seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        await type_text(pilot, "create moon bots=0,1,2 seat=none delay=20 target=1")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=40)
        mirror = app.controller.mirror
        assert mirror is not None and mirror.seat is None and mirror.table is not None
        assert mirror.table.bot_delay_ms == 20
        log = tui_support.log_text(app)
        assert log.count("takes the trick") >= 7 and "Game over" in log


async def test_a_bots_only_table_to_watch_moves_at_a_watchers_pace(seeded: Any) -> None:
    """Issue 24.7: a bots-only table created to be watched, with no pace named, moved at the server's pace
    for such tables (its floor, 0.25 s); the client now asks for a pace a person can follow."""
    app = await make_app(seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        await type_text(pilot, "create moon bots=0,1,2 seat=none")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), what="the table watched")
        mirror = app.controller.mirror
        assert mirror is not None and mirror.seat is None and mirror.table is not None
        assert mirror.table.bot_delay_ms == WATCH_PACE_MS > seeded.settings.bots_only_move_seconds * 1000
        await type_text(pilot, "leave")
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")


async def test_leaving_a_game_in_progress_asks_first(seeded: Any) -> None:
    app = await make_app(seeded, table("moon"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and my_turn(app))
        await type_text(pilot, "leave")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # no: still at the table
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.controller.current is not None
        await type_text(pilot, "leave")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        assert app.controller.current is None
