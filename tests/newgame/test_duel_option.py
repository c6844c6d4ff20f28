"""docs/ARCHITECTURE.md, "A new game option": an option is its field in the game's options model, and
nothing else. Duel's ``double_points`` is written in ``duel_options.py`` (the model) and read by the
rules in ``duel.py`` (the engine, which plays by it); no other file names it, and yet it reaches a real
server's ``create_table``, the table's lobby entry, the engine, the record, its replay and the spec."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from duel_kit import registered
from server_testkit import Player, is_event, running_server

from boneyard.protocol.spec import markdown
from boneyard.protocol.spec.gen import outputs
from boneyard.protocol.spec.schemas import json_schema
from boneyard.server.games.record_replay import replay

ROOT = Path(__file__).resolve().parent.parent.parent
OPTION = "double_points"
WHERE_IT_IS = {"tests/newgame/duel_options.py", "tests/newgame/duel.py", "tests/newgame/test_duel_option.py"}
"""The model that defines the option, the rules that play by it, and this test."""


@pytest.fixture
def duel() -> Iterator[str]:
    with registered() as name:
        yield name


def test_the_option_is_written_in_the_model_and_read_by_the_rules_only() -> None:
    named = {
        path.relative_to(ROOT).as_posix()
        for folder in ("protocol", "server", "clients", "tests", "docs")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".md", ".json", ".yaml", ".js")
        and "node_modules" not in path.parts
        and OPTION in path.read_text()
    }
    assert named == WHERE_IT_IS


async def test_an_option_of_the_model_reaches_the_table_the_engine_and_the_record(duel: str) -> None:
    async with running_server(seed=2) as server:
        watcher = await Player.connect(server.url, "watcher")
        options = {"target": 4, OPTION: True}
        created = await watcher.request(
            type="create_table", game=duel, bots=[0, 1], seat=None, options=options
        )
        table_id = created.table.table_id
        listed = await watcher.request(type="list_tables")
        await watcher.request(type="spectate", table_id=table_id)
        over = await watcher.until(is_event("game_over"), timeout=30)
        reply = await watcher.request(type="get_record", record_id=over.event.record_id)
        await watcher.close()
    assert created.table.options.model_dump() == options  # the lobby's entry, to its creator
    assert [t.options.model_dump() for t in listed.tables if t.table_id == table_id] == [options]
    record = json.loads(json.dumps(reply.record.model_dump()))
    assert record["options"] == options
    tricks = len(record["hands"]) * 5  # five tricks a hand
    assert sum(record["final_scores"]) == 2 * tricks  # the engine counted two points a trick
    assert list(replay(record).scores) == record["final_scores"]  # and so does a replay of the record


@pytest.fixture
def fresh_reference() -> Iterator[None]:
    """PROTOCOL.md's reference keeps the schema it read once: read afresh here, and again after."""
    markdown._defs.cache_clear()
    yield
    markdown._defs.cache_clear()


def test_the_spec_says_the_option_with_its_default(duel: str, fresh_reference: None) -> None:
    field = json_schema()["$defs"]["DuelOptions"]["properties"][OPTION]
    assert field["type"] == "boolean" and field["default"] is False
    generated = outputs()  # PROTOCOL.md, schema.json, asyncapi.yaml, as they would be with Duel registered
    assert all(OPTION in text for path, text in generated.items() if path.suffix in (".md", ".json"))
