"""Every message type survives encode -> decode unchanged (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from protocol_strategies import for_def
from pydantic import BaseModel, TypeAdapter, ValidationError

from boneyard.protocol import (
    COMMAND_ADAPTER,
    COMMAND_MODELS,
    RECORD_ADAPTER,
    SERVER_MESSAGE_ADAPTER,
    SERVER_MESSAGE_MODELS,
    decode_command,
    decode_server_message,
    encode,
)

MODELS = [(m, "command") for m in COMMAND_MODELS] + [(m, "server") for m in SERVER_MESSAGE_MODELS]


def _valid(adapter: TypeAdapter[Any], data: Any) -> bool:
    try:
        adapter.validate_python(data)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("model", "direction"), MODELS, ids=[m.__name__ for m, _ in MODELS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip(model: type[BaseModel], direction: str, data: st.DataObject) -> None:
    adapter = COMMAND_ADAPTER if direction == "command" else SERVER_MESSAGE_ADAPTER
    decode = decode_command if direction == "command" else decode_server_message
    wire = data.draw(for_def(model.__name__).filter(lambda d: _valid(adapter, d)), label="wire data")
    message = adapter.validate_python(wire)
    assert type(message) is model
    frame = encode(message)
    again = decode(frame)
    assert again == message
    assert encode(again) == frame  # one canonical encoding


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_record_round_trip(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["MoonRecord", "StraightRecord"]))
    wire = data.draw(for_def(name).filter(lambda d: _valid(RECORD_ADAPTER, d)))
    record = RECORD_ADAPTER.validate_python(wire)
    assert RECORD_ADAPTER.validate_json(RECORD_ADAPTER.dump_json(record)) == record
