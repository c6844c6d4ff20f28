"""The full-screen client's players screen (F2 in the lobby) against a real server whose ratings come from
real rated games: leaderboards per kind, profiles (yours, a row's, a name's), a guest's view, refusals in
one line, and Esc back to the lobby as it was."""

from __future__ import annotations

import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Static
from tui_support import until, url_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_testkit import Player, running_server
from test_accounts import connect_and_sign

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.clients.cli.standings import leaderboard_lines, profile_lines, rating_words
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.lobby import LobbyScreen
from boneyard.clients.cli.tui.players import SIGN_IN, PlayersScreen


@pytest.fixture
async def rated(tmp_path: Path) -> AsyncIterator[tuple[Any, KeyPair, Player]]:
    """A server where ana (signed in) has played rated Moon against two basic bots until one player of
    the kind is established (bot-basic: rated once a game, it settles first; ana, playing at random, stays
    provisional). Yields the server, ana's key and her connection (to ask the server what it says)."""
    async with running_server() as server:
        key = KeyPair.create(tmp_path / "ana.key")
        ana = await connect_and_sign(url_of(server), Signer("ana", key, create=True))
        rng = random.Random(5)
        for _ in range(200):  # a safety limit, not a measurement: about 65 games of a hand or two
            created = await ana.request(
                type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30, rated=True,
                options={"target": 1},
            )  # fmt: skip
            assert created.type == "table_created" and created.table.rated, created
            await ana.play(created.table.table_id, rng)
            await ana.until(lambda m: m.type == "rating_changes")
            await ana.request(type="leave", table_id=created.table.table_id)
            board = await ana.request(type="get_leaderboard", kind="moon")
            if board.total:
                break
        assert board.total == 1 and board.entries[0].player == "bot-basic"
        yield server, key, ana
        await ana.close()


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_the_players_screen_shows_real_ratings_and_goes_back_to_the_lobby_as_it_was(rated: Any) -> None:
    server, key, ana = rated
    board = await ana.request(type="get_leaderboard", kind="moon")
    mine = await ana.request(type="get_profile", player="ana")
    bots = await ana.request(type="get_profile", player="bot-basic")
    await ana.close()  # the app signs in to the same account: it takes the session over
    client = Client(url_of(server), "ana", signer=Signer("ana", key))
    await client.connect()
    app = BoneyardApp(client, pause=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        command = lobby.query_one("#command", Input)
        command.value = "say half typed"
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, PlayersScreen), what="F2 opens the players screen")
        screen = app.screen
        grid = screen.query_one(DataTable)
        await until(pilot, lambda: grid.row_count == 1, what="the moon leaderboard")
        # The established players, as the server sends them, worded as the line client words them.
        entry = board.entries[0]
        assert text_of(screen, "#board-title") == leaderboard_lines(board)[0] == "moon: 1 established player"
        cells = ["1.", "bot-basic", rating_words(entry.rating, entry.deviation, False), str(entry.games)]
        assert grid.get_row_at(0) == cells and "?" not in cells[2]
        # Yours first: provisional ratings with `?`, rated games newest first, as the line client has them.
        await until(pilot, lambda: text_of(screen, "#profile").startswith("ana"), what="my profile")
        shown = text_of(screen, "#profile").splitlines()
        assert shown == profile_lines(mine)
        assert shown[1].split()[:2] == ["moon", f"{mine.ratings[0].rating}?"]
        assert f"{mine.games[0].before} -> {mine.games[0].after}" in shown[3]  # the latest game first
        # A row's profile (Enter), then another kind (a key, and ← →), then back.
        await pilot.press("enter")
        await until(
            pilot, lambda: text_of(screen, "#profile").startswith("bot-basic"), what="the row's profile"
        )
        assert text_of(screen, "#profile").splitlines() == profile_lines(bots)
        await pilot.press("2")
        await until(pilot, lambda: text_of(screen, "#board-title") == "straight-2: 0 established players")
        assert grid.row_count == 0
        await pilot.press("left")
        await until(pilot, lambda: grid.row_count == 1, what="← back to moon")
        assert text_of(screen, "#board-title") == "moon: 1 established player"
        # A name typed: a refusal is one line, and what was shown stays.
        screen.query_one("#player-name", Input).focus()
        await pilot.press(*"nobody", "enter")
        await until(pilot, lambda: "no_such_player" in text_of(screen, "#status"), what="the refusal")
        assert len(text_of(screen, "#status").splitlines()) == 1
        assert text_of(screen, "#profile").startswith("bot-basic")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, what="Esc back to the lobby")
        assert command.value == "say half typed" and app.focused is command
    await client.close()


async def test_a_guest_sees_the_leaderboard_and_how_to_sign_in(rated: Any) -> None:
    server, _, _ = rated
    client = Client(url_of(server), "bo")
    await client.connect()
    app = BoneyardApp(client, pause=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.click("#players")
        await until(pilot, lambda: isinstance(app.screen, PlayersScreen), what="the button opens it")
        screen = app.screen
        await until(pilot, lambda: screen.query_one(DataTable).row_count == 1, what="the leaderboard")
        assert text_of(screen, "#profile") == SIGN_IN
        await pilot.press("enter")  # anyone's profile is public
        await until(
            pilot, lambda: text_of(screen, "#profile").startswith("bot-basic"), what="a row's profile"
        )
        await pilot.press("m")
        await until(pilot, lambda: text_of(screen, "#profile") == SIGN_IN, what="m: no profile of mine")
    await client.close()
