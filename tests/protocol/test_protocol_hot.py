"""The server's hot-path decoder (``decode_hot``) accepts exactly what ``decode_command`` accepts, and
refuses the rest with the same code, message and ``reply_to``."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_protocol_strict import ACT, BID, COMMAND_CASES, _with

from boneyard.protocol import Act, ProtocolError, decode_command
from boneyard.protocol.codec import HotAct, decode_hot

VALID = {
    "moon play": {**ACT, "action": {"type": "play", "tile": [6, 4]}},
    "straight play": ACT,
    "bid": BID,
    "no id": _with(BID, "id", ...),
    "null id": _with(BID, "id", None),
    "string id": _with(BID, "id", "x" * 64),
    "largest id": _with(BID, "id", 2**53 - 1),
    "fields in another order": {"action": {"bid": 5, "type": "bid"}, "table_id": "t7k2", "type": "act"},
    "pass": _with(BID, "action", {"type": "pass"}),
    "draw": _with(BID, "action", {"type": "draw"}),
    "trump": _with(BID, "action", {"type": "trump", "trump": 6}),
    "discard": _with(BID, "action", {"type": "discard", "tile": [3, 3]}),
    "end null": _with(ACT, "action.end", None),
    "longest table id": _with(BID, "table_id", "t" * 32),
}
INVALID = {
    **{name: data for name, data in COMMAND_CASES.items() if data.get("type") == "act"},
    "table id too long": _with(BID, "table_id", "t" * 33),
    "table id with a newline": _with(BID, "table_id", "t1\n"),
    "string id too long": _with(BID, "id", "x" * 65),
    "negative id": _with(BID, "id", -1),
    "float id": _with(BID, "id", 1.0),
    "action as list": _with(BID, "action", ["bid", 5]),
    "tile of floats": _with(ACT, "action.tile", [6.0, 4.0]),
    "tile of bools": _with(ACT, "action.tile", [True, False]),
    "nested list": _with(ACT, "action.tile", [[6], [4]]),
    "bid as string": _with(BID, "action.bid", "5"),
}


def outcome(decode: Any, data: Any) -> Any:
    """What decoding the packed ``data`` gives: the command's fields, or the error's."""
    try:
        command = decode(msgpack.packb(data))
    except ProtocolError as error:
        return ("error", error.code, error.message, error.reply_to)
    if isinstance(command, HotAct | Act):
        return ("act", command.type, command.id, command.table_id, command.action)
    return ("other", command)


@pytest.mark.parametrize("name", VALID)
def test_a_usual_act_takes_the_hot_path_and_decodes_as_the_model_does(name: str) -> None:
    data = VALID[name]
    assert isinstance(decode_hot(msgpack.packb(data)), HotAct)
    assert outcome(decode_hot, data) == outcome(decode_command, data)
    assert outcome(decode_hot, data)[0] == "act"


@pytest.mark.parametrize("name", INVALID)
def test_a_refused_act_is_refused_alike(name: str) -> None:
    data = INVALID[name]
    refused = outcome(decode_command, data)
    assert refused[0] == "error"
    assert outcome(decode_hot, data) == refused
    assert outcome(decode_hot, data) == refused  # and again once the cache has seen valid actions


def test_other_commands_decode_as_before() -> None:
    ping = {"type": "ping", "id": 1}
    assert outcome(decode_hot, ping) == outcome(decode_command, ping)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=False),
    st.sampled_from(["6", "left", ""]),
)
ACTION_VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.just("a"), SCALARS))


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(["play", "bid", "pass", "draw", "trump", "discard", "flip"]),
    fields=st.dictionaries(st.sampled_from(["tile", "end", "bid", "trump", "extra"]), ACTION_VALUES),
    command_id=st.one_of(st.none(), st.integers(-2, 2**53 + 1), st.booleans(), st.text(max_size=66)),
    table_id=st.one_of(st.sampled_from(["t1", "t 1", "", "x" * 33]), st.integers(0, 3)),
)
def test_any_act_shaped_map_decodes_alike(
    kind: str, fields: dict[str, Any], command_id: Any, table_id: Any
) -> None:
    data = {"type": "act", "id": command_id, "table_id": table_id, "action": {"type": kind, **fields}}
    assert outcome(decode_hot, data) == outcome(decode_command, data)
