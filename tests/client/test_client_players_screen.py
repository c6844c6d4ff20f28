"""The full-screen client's players screen (F2 in the lobby) against a real server whose ratings come from
real rated games: leaderboards per kind, a page at a time, profiles (yours, a row's, a name's), a guest's
view, refusals in one line, and Esc back to the lobby as it was."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static
from tui_support import until, url_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_testkit import Player, running_server
from test_accounts import connect_and_sign

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.clients.cli.standings import leaderboard_lines, profile_lines, rating_words
from boneyard.clients.cli.tui import players
from boneyard.clients.cli.tui.app import BoneyardApp
from boneyard.clients.cli.tui.lobby import LobbyScreen
from boneyard.clients.cli.tui.players import SIGN_IN, PlayersScreen


async def rated_games(player: Player, until_established: int) -> None:
    """Rated Moon against a basic and a good bot (the table left after each game) until ``until_established``
    players of the kind are established (the bot levels, rated once a game each, settle first)."""
    rng = random.Random(5)
    for _ in range(200):  # a safety limit, not a measurement: about 45 games of a hand or two
        created = await player.request(
            type="create_table", game="moon", seat=0, bots=[1, 2], bot_levels=["basic", "good"],
            turn_seconds=30, rated=True, options={"target": 1},
        )  # fmt: skip
        assert created.type == "table_created" and created.table.rated, created
        await player.play(created.table.table_id, rng)
        await player.until(lambda m: m.type == "rating_changes")
        await player.request(type="leave", table_id=created.table.table_id)
        board = await player.request(type="get_leaderboard", kind="moon")
        if board.total >= until_established:
            return
    raise AssertionError(f"too few established: {board}")


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def opened(pilot: Pilot[Any], app: BoneyardApp) -> PlayersScreen:
    await until(pilot, lambda: isinstance(app.screen, PlayersScreen), what="the players screen")
    screen = app.screen
    assert isinstance(screen, PlayersScreen)
    await until(pilot, lambda: screen.query_one(DataTable).row_count == 1, what="the moon leaderboard")
    return screen


async def test_the_players_screen_with_real_ratings_for_a_player_and_a_guest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(players, "PAGE", 1)  # two established players make two pages
    async with running_server(seed=11) as server:  # seeded: the same games, the same ratings, every run
        cy = await connect_and_sign(
            url_of(server), Signer("cy", KeyPair.create(tmp_path / "cy.key"), create=True)
        )
        await rated_games(cy, 0)  # one game: cy is a newcomer, provisional
        await cy.close()
        key = KeyPair.create(tmp_path / "ana.key")
        ana = await connect_and_sign(url_of(server), Signer("ana", key, create=True))
        await rated_games(ana, 2)
        pages = [await ana.request(type="get_leaderboard", kind="moon", offset=n, limit=1) for n in (0, 1)]
        profiles = {name: await ana.request(type="get_profile", player=name) for name in ("ana", "cy")}
        profiles["best"] = await ana.request(type="get_profile", player=pages[0].entries[0].player)
        await ana.close()  # the app signs in to the same account: it takes the session over
        await a_signed_in_player(Client(url_of(server), "ana", signer=Signer("ana", key)), pages, profiles)
        await a_guest(Client(url_of(server), "bo"), profiles["best"])


async def a_signed_in_player(client: Client, pages: list[Any], profiles: dict[str, Any]) -> None:
    mine, best, cy = profiles["ana"], profiles["best"], profiles["cy"]
    await client.connect()
    app = BoneyardApp(client, pause=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        command = lobby.query_one("#command", Input)
        command.value = "say half typed"
        await pilot.press("f2")
        screen = await opened(pilot, app)
        grid = screen.query_one(DataTable)
        # The established players as the server sends them, a page at a time, worded as the line client's.
        for page, step in (
            (pages[0], ""),
            (pages[1], "pagedown"),
            (pages[1], "pagedown"),
            (pages[0], "pageup"),
        ):
            if step:
                await pilot.press(step)
            number = page.entries[0].rank
            title = f"{leaderboard_lines(page)[0]} · page {number} of {page.total}"
            await until(pilot, lambda t=title: text_of(screen, "#board-title") == t, what=title)
            entry = page.entries[0]
            cells = [
                f"{number}.",
                entry.player,
                rating_words(entry.rating, entry.deviation, False),
                str(entry.games),
            ]
            assert grid.get_row_at(0) == cells and "?" not in cells[2]
        assert pages[0].total == 2  # the pages above: the first, the last (no further), the first
        # Yours first, then the row's (Enter): exactly as the line client has them, rated games newest first.
        await until(pilot, lambda: text_of(screen, "#profile").startswith("ana"), what="my profile")
        shown = text_of(screen, "#profile").splitlines()
        assert shown == profile_lines(mine) and shown[1].split()[0] == "moon"
        assert f"{mine.games[0].before} -> {mine.games[0].after}" in shown[3]  # the latest game first
        # A row's profile (Enter), then another kind (a key, and ← →), then back.
        await pilot.press("enter")
        await until(
            pilot, lambda: text_of(screen, "#profile").splitlines() == profile_lines(best), what="a row's"
        )
        await pilot.press("2")
        await until(pilot, lambda: text_of(screen, "#board-title") == "straight-2: 0 established players")
        assert grid.row_count == 0
        await pilot.press("left")
        await until(pilot, lambda: grid.row_count == 1, what="← back to moon")
        assert text_of(screen, "#board-title") == "moon: 2 established players · page 1 of 2"
        # A name typed: a newcomer's rating with its `?`; a refusal in one line, what was shown stays.
        screen.query_one("#player-name", Input).focus()
        await pilot.press(*"cy", "enter")
        await until(pilot, lambda: text_of(screen, "#profile").splitlines() == profile_lines(cy), what="cy's")
        assert text_of(screen, "#profile").splitlines()[1].split()[:2] == ["moon", f"{cy.ratings[0].rating}?"]
        screen.query_one("#player-name", Input).value = "nobody"
        await pilot.press("enter")
        await until(pilot, lambda: "no_such_player" in text_of(screen, "#status"), what="the refusal")
        assert len(text_of(screen, "#status").splitlines()) == 1
        assert text_of(screen, "#profile").startswith("cy")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, what="Esc back to the lobby")
        assert command.value == "say half typed" and app.focused is command
    await client.close()


async def a_guest(client: Client, best: Any) -> None:
    await client.connect()
    app = BoneyardApp(client, pause=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.click("#players")  # the lobby's button
        screen = await opened(pilot, app)
        assert text_of(screen, "#profile") == SIGN_IN
        await pilot.press("enter")  # anyone's profile is public
        await until(
            pilot, lambda: text_of(screen, "#profile").startswith(best.player), what="a row's profile"
        )
        await pilot.press("m")
        await until(pilot, lambda: text_of(screen, "#profile") == SIGN_IN, what="m: no profile of mine")
    await client.close()
