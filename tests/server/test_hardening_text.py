"""Names and chat carry no terminal or layout tricks (issue #15, item 9): control characters, bidi
overrides and invisible characters are refused, and no human may be named like a bot."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgpack
import pytest
from durability_kit import durable
from server_testkit import Player, running_server

BAD_NAMES = ["bot-1", "Bot-2", "ana\u202e", "\u200b", "a\u200bb", "ana\x1b[31m", " ", "an\u2028a"]
BAD_CHAT = ["\r<bob> I resign", "\x1b[2J\x1b[Hgame over", "right\u202eto left", "in\u200bvisible", "a\u2029b"]


@pytest.mark.parametrize("name", BAD_NAMES, ids=[repr(n) for n in BAD_NAMES])
async def test_a_name_with_control_or_invisible_characters_or_a_bots_prefix_is_refused(name: str) -> None:
    async with running_server() as server:
        fresh = await Player.connect(server.url, "x", identify=False)
        await fresh.ws.send(msgpack.packb({"type": "identify", "id": 1, "name": name}))
        error = await fresh.next()
        assert error.type == "error" and error.code == "invalid_message", error
        assert await fresh.closed_with() == 4001


async def test_chat_with_control_or_invisible_characters_is_refused_and_emoji_sequences_pass() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
        table_id = created.table.table_id
        for i, text in enumerate(BAD_CHAT):
            await ana.ws.send(
                msgpack.packb({"type": "chat", "id": f"c{i}", "table_id": table_id, "text": text})
            )
            error = await ana.reply_to(f"c{i}")
            assert error.type == "error" and error.code == "invalid_message", (text, error)
        family = "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 caf\u00e9 \u05e9\u05dc\u05d5\u05dd"
        assert (await ana.request(type="chat", table_id=table_id, text=family)).type == "ok"
        line = await ana.until(lambda m: m.type == "chat")
        assert line.text == family and line.name == "ana"


async def test_names_stored_before_the_rule_are_cleaned_on_restore(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
    connection = sqlite3.connect(tmp_path / "boneyard.db")
    with connection:
        connection.execute("UPDATE seats SET name = ? WHERE seat = 0", ("an\u202ea\u200b",))
        connection.execute("UPDATE sessions SET name = ?", ("an\u202ea\u200b",))
    connection.close()
    async with durable(tmp_path) as server:
        bob = await Player.connect(server.url, "bob")
        (table,) = (await bob.request(type="list_tables")).tables
        assert table.table_id == created.table.table_id and table.seats[0].name == "ana"
