"""Line mode (scripts, pipes, screen readers), driven through its standard input against a real server."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import client_support
import pytest
from client_support import FAST, auto_play
from prompt_toolkit.application import create_app_session
from prompt_toolkit.output.plain_text import PlainTextOutput

from boneyard.clients.cli.core import Client
from boneyard.clients.cli.ui.app import LineUI
from boneyard.clients.cli.ui.choices import choices
from boneyard.protocol import Turn

# Fixtures from client_support (a conftest.py here would clash with tests/conftest.py).
server = client_support.server
url = client_support.url


async def _client(url: str, name: str = "tester") -> Client:
    client = Client(url, name, backoff=FAST)
    await client.connect()
    return client


def _table_startup(game: str, options: dict[str, Any], bots: list[int]) -> Any:
    async def startup(ui: LineUI) -> None:
        created = await ui.client.create_table(game, options=options, bots=bots, turn_seconds=60)
        ui.current = created.table.table_id

    return startup


async def test_typing_moves_plays_a_moon_hand_while_events_print(url: str) -> None:
    out = io.StringIO()
    with create_app_session(output=PlainTextOutput(out)):
        client = await _client(url)
        stdin = asyncio.StreamReader()
        ui = LineUI(client, colour=False, stdin=stdin)
        stream = client.listen()
        run = asyncio.create_task(ui.run(_table_startup("moon", {}, [1, 2])))

        async def type_line(text: str) -> None:
            stdin.feed_data((text + "\n").encode())
            await asyncio.sleep(0.05)

        await type_line("help")
        async with asyncio.timeout(20):
            typed = 0
            while True:
                item = await anext(stream)
                mirror = client.mirror.tables.get(ui.current or "")
                if mirror is None:
                    continue
                if mirror.hand_result is not None:
                    break  # a whole hand has been played and scored
                if isinstance(item, Turn) and item.legal_actions and mirror.my_turn:
                    # Alternate the ways of choosing: by number, and by naming the tile or bid.
                    action = item.legal_actions[-1]
                    assert mirror.view is not None
                    menu = choices(mirror.view.hand, item.legal_actions)
                    number = next(c.number for c in menu if action in c.actions)
                    if typed % 2 and action.type == "play":
                        await type_line(f"{action.tile[0]}-{action.tile[1]}")
                    elif typed % 2 and action.type == "bid":
                        await type_line(f"bid {action.bid}")
                    else:
                        await type_line(str(number))
                    typed += 1
            await type_line("say hello table")
            await type_line("9-9")  # not a tile: an error in words, and the game goes on
            await type_line("join nowhere 1")  # a server error, in words
            await type_line("board")
            await type_line("trump 7")  # said in words, not "unknown command"
            await type_line("join t9 0")  # said once
            while not any(m.text == "hello table" for m in mirror.chat):
                await anext(stream)
            stdin.feed_eof()  # end of input: leave cleanly, exit 0
            assert await run == 0
    text = out.getvalue()
    for expected in (
        "Commands:",  # help
        "Your move: ",  # the numbered legal moves
        "── Moon · table",  # the board
        "takes the trick",
        "Hand scored:",
        "<tester> hello table",
        "unknown command '9-9'",
        "no table t9 (no_such_table)",  # the server's words, once, and the code
        "trump is a number 0-6",
    ):
        assert expected in text, expected
    assert text.count("(no_such_table)") == 2  # `join nowhere 1` and `join t9 0`, each said once
    assert typed >= 7  # at least one play per trick of the hand
    assert not client.connected and client.close_code == 1000


async def test_auto_plays_to_the_end_and_exits_zero(url: str) -> None:
    out = io.StringIO()
    with create_app_session(output=PlainTextOutput(out)):
        client = await _client(url)
        ui = LineUI(client, colour=False, auto=True, exit_on_game_over=True)
        code = await asyncio.wait_for(
            ui.run(_table_startup("straight", {"players": 2, "target": 50}, [1])), 30
        )
    assert code == 0
    text = out.getvalue()
    assert "Game over:" in text and "wins" in text and "Final scores" in text
    assert "── Straight · table" in text and "Layout" in text and "count" in text


async def test_json_mode_prints_every_message_as_a_json_line(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client = await _client(url)
    ui = LineUI(client, json_mode=True, auto=True, exit_on_game_over=True)
    code = await asyncio.wait_for(ui.run(_table_startup("moon", {"target": 5}, [1, 2])), 30)
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    types = {line.get("type") for line in lines}
    assert {"welcome", "table_created", "seated", "snapshot", "turn", "event", "ok"} <= types
    events = [line["event"]["type"] for line in lines if line.get("type") == "event"]
    assert events[-1] == "game_over"
    seqs = [line["seq"] for line in lines if "seq" in line]
    assert seqs == sorted(seqs)


async def test_the_lobby_updates_live_and_takes_commands(url: str, tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)  # `record` saves the record here
    out = io.StringIO()
    with create_app_session(output=PlainTextOutput(out)):
        client = await _client(url, "lobbyist")
        stdin = asyncio.StreamReader()
        ui = LineUI(client, colour=False, stdin=stdin)
        run = asyncio.create_task(ui.run())

        async def type_line(text: str) -> None:
            stdin.feed_data((text + "\n").encode())
            await asyncio.sleep(0.1)

        await type_line("tables")
        other = await _client(url, "host")
        created = await other.create_table("straight", options={"players": 2, "target": 30}, bots=[1])
        table_id = created.table.table_id
        stream = client.listen()
        async with asyncio.timeout(10):
            while table_id not in client.mirror.lobby:  # the lobby's next push
                await anext(stream)
        await type_line(f"watch {table_id}")
        await auto_play(other, table_id, lambda m: m.game_over is not None)
        await type_line("say nice game")
        async with asyncio.timeout(10):
            while client.mirror.tables[table_id].game_over is None or not client.mirror.tables[table_id].chat:
                await anext(stream)
        await type_line("record")
        await type_line(f"leave {table_id}")
        await type_line("create moon bots=1,2 turn=none")
        async with asyncio.timeout(10):
            while not any(m.my_turn for m in client.mirror.tables.values()):
                await anext(stream)
        await type_line("quit")
        assert await run == 0
        await other.close()
    text = out.getvalue()
    for expected in (
        "No tables yet",  # `tables` before anyone created one
        f"lobby: {table_id}",  # pushed while the prompt was waiting
        "── Straight · table",  # the spectator's board
        "host plays",  # the game watched live
        "Game over:",
        "<lobbyist> nice game",
        f"Left table {table_id}",
        "── Moon · table",  # our own new table
        "Your move: ",
    ):
        assert expected in text, expected
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["format"] == "boneyard-record/1"


async def test_line_mode_says_ready_at_once_between_hands(url: str) -> None:
    """A table that pauses a minute between hands: line mode (here with --auto) says ``ready`` as the
    pause starts, so the game goes on at once (a minute per hand would not end in the test's time)."""
    out = io.StringIO()
    with create_app_session(output=PlainTextOutput(out)):
        client = await _client(url)
        ui = LineUI(client, colour=False, auto=True, exit_on_game_over=True)

        async def startup(ui: LineUI) -> None:
            # Moon to 10: two hands at least unless one is a made 21 (a Straight game may end in its first).
            created = await ui.client.create_table(
                "moon", options={"target": 10}, bots=[1, 2], turn_seconds=60, hand_pause_ms=60_000
            )
            ui.current = created.table.table_id

        code = await asyncio.wait_for(ui.run(startup), 30)
    assert code == 0
    text = out.getvalue()
    assert "next hand in 60 s, or once " in text  # the pause was announced, waiting for us
    assert text.count("Game over:") == 1
