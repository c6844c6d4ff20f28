"""Records the engines write are valid ``boneyard-record/1`` as the protocol publishes it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import OPTION_SETS, option_set_id
from pydantic import ValidationError

from boneyard.protocol import RECORD_ADAPTER
from boneyard.server.games.registry import game_spec
from boneyard.server.simulate import simulate


@pytest.mark.parametrize("option_set", OPTION_SETS, ids=option_set_id)
def test_simulated_records_validate_as_published(option_set: tuple[str, dict[str, Any]]) -> None:
    game, options = option_set
    spec = game_spec(game)
    for record in simulate(spec, spec.options_from_dict(options), games=10, seed=5):
        text = json.dumps(record)
        parsed = RECORD_ADAPTER.validate_json(text)
        assert parsed.game == game
        assert json.loads(parsed.model_dump_json()) == json.loads(text)


def test_the_model_refuses_a_record_with_a_wrong_format_tag() -> None:
    spec = game_spec("moon")
    record = next(simulate(spec, spec.options_from_dict({}), games=1, seed=5))
    with pytest.raises(ValidationError):
        RECORD_ADAPTER.validate_python({**record, "format": "boneyard-record/2"})
