"""Duel in the line client: a game registered by the tests only (its wire module, ``GameSpec`` and
client drawing) is created, followed, drawn and played to its end by ``--auto`` against a bot on a real
server over loopback, with no line of the client changed for it (issue 27)."""

from __future__ import annotations

import asyncio
import io
import re

from prompt_toolkit.application import create_app_session
from prompt_toolkit.output.plain_text import PlainTextOutput

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.ui.app import LineUI

pytest_plugins = ["duel_fixtures"]  # the duel and duel_url fixtures


async def test_the_line_client_plays_a_duel_to_the_end_against_a_bot(duel: str, duel_url: str) -> None:
    out = io.StringIO()
    with create_app_session(output=PlainTextOutput(out)):
        client = Client(duel_url, "tester")
        await client.connect()
        ui = LineUI(client, colour=False, auto=True, exit_on_game_over=True)

        async def startup(ui: LineUI) -> None:
            created = await ui.client.create_table(duel, options={"target": 2}, bots=[1], turn_seconds=60)
            ui.current = created.table.table_id

        code = await asyncio.wait_for(ui.run(startup), 60)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Game over" in text, text
    assert "Traceback" not in text
    assert re.search(r"── Duel · table t\S+ · hand 1 · first to 2 points ──", text)  # its own board
    assert "Tricks" in text and "Trick " in text
    assert re.search(r"tester plays \[\d\|\d\]", text) and "takes the trick" in text  # its own words
    assert text.count("Game over") == 1
    assert re.search(r"deals verified \([1-9]\d* hands? seen\)", text)  # its deals checked by its deal rule
