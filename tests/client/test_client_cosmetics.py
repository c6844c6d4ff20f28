"""Issue 24.10, the full-screen client's rough edges, each through the real app and a real server."""

from __future__ import annotations

import random
from typing import Any

import tui_support
from client_support import Proxy
from textual.widgets import Static
from tui_support import make_app, my_turn, table, type_text, until

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import tile_word
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.drawing import straight_layout
from boneyard.clients.cli.tui.screens import HelpScreen, RulesScreen
from boneyard.clients.cli.tui.sheet import sheet_text
from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.ui.describe import event_line, plain
from boneyard.protocol.game import GameOver

seeded = tui_support.seeded


async def _to_a_scored_hand(pilot: Any, app: BoneyardApp) -> None:
    """Play our seat with the basic bot until a hand is scored and it is our move again."""
    rng = random.Random(8)
    for _ in range(200):
        await until(pilot, lambda: my_turn(app))
        mirror = app.controller.mirror
        assert mirror is not None
        if mirror.hands:
            return
        before = len(app._lines)
        await app.controller.act(tui_support.bot_choice(app, rng))
        await until(pilot, lambda b=before: len(app._lines) > b)
    raise AssertionError("no hand was scored")


def _sheet_rows(app: BoneyardApp) -> list[str]:
    return str(app.screen.query_one("#sheet", Static).render()).split("\n")


async def test_the_sheet_names_every_player_whole_and_follows_a_resize(seeded: Any) -> None:
    """At 80 columns the sheet's header read "teste"; a resize left the sheet laid out for the old width
    until the next move."""
    app = await make_app(seeded, table("moon"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_a_scored_hand(pilot, app)
        header = " ".join(_sheet_rows(app)[:2])
        assert all(name in header.split() for name in ("tester", "bot-1", "bot-2")), header
        mirror = app.controller.mirror
        for size in ((120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            sheet = app.screen.query_one("#sheet", Static)
            await until(pilot, lambda s=sheet: s.size.width > 0)
            await pilot.pause(0.2)
            drawn = str(sheet.render())
            assert drawn == sheet_text(mirror, sheet.size.width, last=3).plain, (size, drawn)
        players = str(app.screen.query_one("#players").render())
        assert " 1 tiles" not in players and " 1 tricks" not in players


async def test_long_or_repeated_words_stay_short(seeded: Any) -> None:
    """A 600-character unknown command was echoed over five lines; a refusal said its reason twice."""
    app = await make_app(seeded, table("moon"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and my_turn(app))
        await type_text(pilot, "x" * 600)
        await until(pilot, lambda: "unknown command" in app.status_text)
        assert len(app.status_text) < 80 and "…" in app.status_text, app.status_text
        mirror = app.controller.mirror
        assert mirror is not None and mirror.view is not None
        held = "".join(map(str, max(mirror.view.hand)))
        await type_text(pilot, held)  # a held tile during the auction: the server says why not, once
        await until(pilot, lambda: "(illegal_action)" in app.status_text)
        assert "—" not in app.status_text and "do not allow" not in app.status_text, app.status_text


async def test_the_help_and_the_rules_read_as_the_table_does(seeded: Any) -> None:
    """The help's lines fit its window (they broke mid-phrase at 80 columns); the rules page wrote tiles
    [6-4] where the table writes [6|4]."""
    app = await make_app(seeded, table("moon"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        app.action_help()
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_text = app.screen.query_one("#help-text", Static)
        lines = str(help_text.render()).split("\n")
        assert all(len(line) <= help_text.size.width for line in lines), (help_text.size.width, lines)
        await pilot.press("escape")
        app.action_rules()
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        rules = app.screen.query_one("#rules-text").source  # type: ignore[attr-defined]
        assert "[6|4]" in rules and "[6-4]" not in rules


async def test_the_disconnected_status_goes_once_resumed(seeded: Any) -> None:
    """ "[disconnected] ... 1006" stayed on the status line after a successful resume."""
    proxy = Proxy(seeded.port)
    await proxy.start()
    try:
        client = Client(f"ws://127.0.0.1:{proxy.port}/", "tester")
        await client.connect()
        app = BoneyardApp(client, pause=0, bell=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            await type_text(pilot, "create moon bots=1,2 turn=none")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and my_turn(app))
            proxy.drop()
            await until(pilot, lambda: "disconnected" in app.status_text, what="the drop said")
            await until(pilot, lambda: client.connected and app.status_text.strip() == "", what="cleared")
            assert "resumed" in tui_support.log_text(app) or "back;" in tui_support.log_text(app)
    finally:
        await proxy.close()


def test_a_won_game_is_cheered_once() -> None:
    """ "well played!." ended the game-over line."""
    mirror = TableMirror("t1", seat=1)
    line = plain(event_line(mirror, GameOver(type="game_over", winner=1, scores=(3, 21, 5))) or [])
    assert "well played!" in line and "!." not in line, line


def test_straight_arms_stay_in_sight_and_whole_while_rows_allow() -> None:
    """Straight's up and down arms vanished on a short board (80x24), and a long down arm lost tiles
    beside the spinner while rows above the line stayed empty."""
    lay = layouts.play(
        layouts.play(layouts.play(layouts.EMPTY, (6, 4), None), (4, 4), "right"), (4, 1), "right"
    )
    for tile, end in (((4, 3), "up"), ((4, 2), "down"), ((2, 2), "down"), ((2, 5), "down")):
        lay = layouts.play(lay, tile, end)
    # Upright, the arms take 4 rows up (a tile and the arrow) and 8 down (two tiles, the double, the
    # arrow) beside the spinner's 3: 15 rows show every tile.
    for height in range(7, 22):
        text = straight_layout(lay, 40, height).plain()
        assert "▴" in text and "▾" in text, (height, text)
        assert ("[3|4]" in text or "┌3┐" in text) and ("[2|5]" in text or "└5┘" in text), (height, text)
        if height >= 15:
            assert "⋮" not in text and "└2┘" in text and "[2|2]" in text, (height, text)


def _long_line() -> Any:
    """A spinner ([6|6]) with five tiles to its right and six to its left: 12 in the line."""
    lay = layouts.play(layouts.EMPTY, (6, 6), None)
    for tile, end in (((6, 5), "right"), ((5, 4), "right"), ((4, 3), "right"), ((3, 2), "right"),
                      ((2, 1), "right"), ((6, 4), "left"), ((4, 2), "left"), ((2, 0), "left"),
                      ((0, 0), "left"), ((0, 1), "left"), ((1, 1), "left")):  # fmt: skip
        lay = layouts.play(lay, tile, end)
    return lay


def test_a_narrow_board_names_the_tiles_it_cannot_fit_beside_the_spinner() -> None:
    """Issue 24.10: on a narrow board the Straight line hid tiles beside the spinner though rows were free
    (and a wide board drew large tiles that did not fit, hiding tiles where small ones would show all)."""
    lay = _long_line()
    singles = [tile_word(t) for t in ((6, 5), (5, 4), (4, 3), (3, 2), (2, 1), (4, 6), (2, 4), (0, 2), (1, 0))]
    for width, height in ((40, 8), (50, 12), (78, 30)):
        text = straight_layout(lay, width, height).plain()
        missing = [t for t in singles if t not in text]
        assert not missing, (width, height, missing, text)
    assert "…" not in straight_layout(lay, 78, 30).plain()  # small tiles fit it whole: nothing elided
    assert "… = [0|2] [2|4] [4|6] · … = [6|5]" in straight_layout(lay, 40, 8).plain()
