"""The published JSON Schema carries the rules a well-formed command must follow (issue #15): a tile's
high >= low, the partnerships rule, and create_table's seats within the game's players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

SCHEMA = Path(__file__).resolve().parents[2] / "protocol" / "spec" / "schema.json"

REFUSED: list[dict[str, Any]] = [
    {"type": "act", "table_id": "t1", "action": {"type": "play", "tile": [4, 6]}},
    {"type": "create_table", "game": "straight", "options": {"players": 2, "partnerships": True}},
    {"type": "create_table", "game": "straight", "options": {"players": 3, "partnerships": True}},
    {"type": "create_table", "game": "moon", "seat": 3},
    {"type": "create_table", "game": "moon", "seat": None, "bots": [0, 3]},
    {"type": "create_table", "game": "straight", "options": {"players": 2}, "seat": 2},
    {"type": "create_table", "game": "straight", "options": {"players": 3}, "bots": [3]},
]
ACCEPTED: list[dict[str, Any]] = [
    {"type": "act", "table_id": "t1", "action": {"type": "play", "tile": [6, 4]}},
    {"type": "create_table", "game": "straight", "options": {"partnerships": True}},
    {"type": "create_table", "game": "straight", "options": {"players": 2, "partnerships": False}, "seat": 1},
    {"type": "create_table", "game": "moon", "seat": 2, "bots": [0, 1]},
    {"type": "create_table", "game": "straight", "seat": 3, "bots": [0, 1, 2]},
]


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


@pytest.mark.parametrize("data", REFUSED, ids=[json.dumps(d) for d in REFUSED])
def test_the_schema_refuses_what_the_rules_refuse(data: dict[str, Any]) -> None:
    assert not validator().is_valid(data)


@pytest.mark.parametrize("data", ACCEPTED, ids=[json.dumps(d) for d in ACCEPTED])
def test_the_schema_accepts_what_the_rules_allow(data: dict[str, Any]) -> None:
    errors = list(validator().iter_errors(data))
    assert not errors, errors[0].message
