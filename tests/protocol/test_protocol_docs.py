"""Every example in the committed PROTOCOL.md decodes, validates, and matches its JSON form."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jsonschema
import msgpack
import pytest

from boneyard.protocol import (
    COMMAND_ADAPTER,
    COMMAND_MODELS,
    ENGINE_EVENTS,
    SERVER_MESSAGE_ADAPTER,
    SERVER_MESSAGE_MODELS,
    Act,
    decode_command,
    decode_server_message,
    encode,
)
from boneyard.protocol.spec.examples import ALL_EXAMPLES
from boneyard.protocol.spec.gen import PROTOCOL_MD, SCHEMA
from boneyard.protocol.spec.markdown import type_text

EXAMPLE = re.compile(
    r"<!-- example: (command|server) -->\n```json\n(.*?)\n```\n\n```hex\n(.*?)\n```", re.DOTALL
)


@cache
def documented() -> list[tuple[str, str, bytes]]:
    """(direction, JSON text, frame) of every example in the committed PROTOCOL.md."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    return [(d, j, bytes.fromhex(h.replace("\n", " "))) for d, j, h in EXAMPLE.findall(text)]


def test_every_example_is_documented() -> None:
    # Each game's event wrapper shows one example in its own section; all are shown with their events.
    assert len(documented()) == len(ALL_EXAMPLES) + len(ENGINE_EVENTS)


@pytest.mark.parametrize("index", range(len(ALL_EXAMPLES) + len(ENGINE_EVENTS)))
def test_documented_example(index: int) -> None:
    direction, text, frame = documented()[index]
    adapter = COMMAND_ADAPTER if direction == "command" else SERVER_MESSAGE_ADAPTER
    decode = decode_command if direction == "command" else decode_server_message
    data = json.loads(text)
    assert msgpack.unpackb(frame) == data  # the hex is the JSON form, key for key
    from_json = adapter.validate_json(text)  # JSON as JSON (strict JSON mode)
    assert decode(frame) == from_json == adapter.validate_python(data)
    assert decode(encode(from_json)) == from_json
    if direction == "server":
        assert encode(from_json) == frame  # servers send exactly these bytes


@cache
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_schema_accepts_every_example() -> None:
    for _, text, _ in documented():
        errors = list(validator().iter_errors(json.loads(text)))
        assert not errors, errors[0].message


@pytest.mark.parametrize(
    "data",
    [
        {"type": "act", "table_id": "t1", "action": {"type": "play", "tile": ["6", 4]}},
        {"type": "act", "table_id": "t1", "action": {"type": "play", "tile": [6, 4], "spin": 1}},
        {"type": "ping", "id": 1.5},
        {"type": "teleport"},
        {"type": "seat_status", "seq": 0, "table_id": "t1", "seat": 0, "connected": True, "auto": False},
    ],
)
def test_schema_rejects(data: dict[str, Any]) -> None:
    assert not validator().is_valid(data)


def test_examples_cover_every_message() -> None:
    shown = {type(e.model) for e in ALL_EXAMPLES}
    assert set(COMMAND_MODELS) | set(SERVER_MESSAGE_MODELS) <= shown
    events = {type(getattr(e.model, "event", None)) for e in ALL_EXAMPLES}
    assert {m for by_type in ENGINE_EVENTS.values() for m in by_type.values()} <= events
    actions = {e.model.action.type for e in ALL_EXAMPLES if isinstance(e.model, Act)}
    assert actions == {"bid", "pass", "discard", "trump", "play", "draw"}


def test_walkthrough_compiles() -> None:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    code = re.search(r"## 13\. A minimal client.*?```python\n(.*?)\n```", text, re.DOTALL)
    assert code is not None
    compile(code.group(1), "walkthrough", "exec")


def test_the_tile_type_reads_as_the_array_it_is() -> None:
    """A tile is ``[high, low]``: the type line beside its array examples says so, not "string"; so does
    every other list of values that are not strings."""
    tile = PROTOCOL_MD.read_text(encoding="utf-8").split("#### Tile\n", 1)[1].split("<a id=", 1)[0]
    assert "Type: [integer 0..6, integer 0..6] (one of 28 values)" in tile
    enums = _non_string_enums(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert enums, "the schema lists the tiles"
    for schema in enums:
        assert not type_text(schema).startswith("string"), schema


def _non_string_enums(schema: Any) -> list[dict[str, Any]]:
    """Every sub-schema with an ``enum`` whose values are not all strings."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        enum = schema.get("enum")
        if isinstance(enum, list) and not all(isinstance(v, str) for v in enum):
            found.append(schema)
        for value in schema.values():
            found += _non_string_enums(value)
    elif isinstance(schema, list):
        for value in schema:
            found += _non_string_enums(value)
    return found
