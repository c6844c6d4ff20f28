"""Strict validation: wrong types are rejected, never coerced, with the documented error code."""

from __future__ import annotations

import copy
from typing import Any

import msgpack
import pytest

from boneyard.protocol import ProtocolError, decode_command, decode_server_message
from boneyard.protocol.spec.examples.base import MOON_TABLE, TOKEN

ACT: dict[str, Any] = {
    "type": "act",
    "id": 5,
    "table_id": "t7k2",
    "action": {"type": "play", "tile": [6, 4], "end": "left"},
}
BID: dict[str, Any] = {"type": "act", "id": 6, "table_id": "t7k2", "action": {"type": "bid", "bid": 5}}
STATUS: dict[str, Any] = {
    "type": "seat_status",
    "seq": 3,
    "table_id": "t7k2",
    "seat": 1,
    "connected": True,
    "auto": False,
}


def _with(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``base`` with the value at a dotted ``path`` replaced (or removed for ``...``)."""
    out = copy.deepcopy(base)
    *parents, last = path.split(".")
    node: Any = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is ...:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


def _command_error(data: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_command(msgpack.packb(data))
    return caught.value


def _server_error(data: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_server_message(msgpack.packb(data))
    return caught.value


COMMAND_CASES = {
    "str for int": _with(ACT, "action.tile.0", "6"),
    "bool for int": _with(BID, "action.bid", True),
    "float for int": _with(BID, "action.bid", 5.0),
    "bid not allowed": _with(BID, "action.bid", 8),
    "low before high": _with(ACT, "action.tile", [4, 6]),
    "pip out of range": _with(ACT, "action.tile", [7, 0]),
    "tile of three": _with(ACT, "action.tile", [6, 4, 1]),
    "tile as map": _with(ACT, "action.tile", {"high": 6, "low": 4}),
    "unknown end": _with(ACT, "action.end", "middle"),
    "unknown field": {**ACT, "colour": "red"},
    "unknown nested field": _with(ACT, "action.speed", 3),
    "missing field": _with(ACT, "table_id", ...),
    "null for required": _with(ACT, "table_id", None),
    "unknown action": _with(ACT, "action.type", "flip"),
    "bool id": _with(ACT, "id", True),
    "id too big": _with(ACT, "id", 2**53),
    "empty id": _with(ACT, "id", ""),
    "bad table id": _with(ACT, "table_id", "t 1"),
    "trump capitalised": _with(BID, "action", {"type": "trump", "trump": "Doubles"}),
    "trump out of range": _with(BID, "action", {"type": "trump", "trump": 7}),
    "trump bool": _with(BID, "action", {"type": "trump", "trump": True}),
    "empty name": {"type": "identify", "name": ""},
    "control character in name": {"type": "identify", "name": "a\nb"},
    "name too long": {"type": "identify", "name": "x" * 33},
    "short token": {"type": "identify", "name": "ana", "resume": {"token": "abc", "last_seq": 1}},
    "negative last_seq": {"type": "identify", "name": "ana", "resume": {"token": TOKEN, "last_seq": -1}},
    "moon table with straight options": {
        "type": "create_table",
        "game": "moon",
        "options": {"players": 4, "partnerships": True, "target": 250},
    },
    "unknown game": {"type": "create_table", "game": "chess"},
    "bot in creator's seat": {"type": "create_table", "game": "moon", "bots": [0], "seat": 0},
    "seat beyond players": {"type": "create_table", "game": "straight", "options": {"players": 2}, "seat": 3},
    "partnerships with 3": {
        "type": "create_table",
        "game": "straight",
        "options": {"players": 3, "partnerships": True},
    },
    "turn too short": {"type": "create_table", "game": "moon", "turn_seconds": 1},
    "chat too long": {"type": "chat", "table_id": "t1", "text": "x" * 501},
    "type not a string": {"type": 5},
    "no type": {"id": 3, "table_id": "t1"},
}


REFUSED = {"bot in creator's seat": "invalid_options", "seat beyond players": "no_such_seat"}
REFUSED["partnerships with 3"] = "invalid_options"
"""Well-formed commands the rules refuse: the spec's codes for them, not ``invalid_message``."""


@pytest.mark.parametrize("name", COMMAND_CASES.keys())
def test_command_rejected(name: str) -> None:
    assert _command_error(COMMAND_CASES[name]).code == REFUSED.get(name, "invalid_message")


def test_unknown_type() -> None:
    error = _command_error({"type": "dance", "id": 9})
    assert error.code == "unknown_type"
    assert error.reply_to == 9


def test_server_message_type_is_not_a_command() -> None:
    assert _command_error({"type": "hello"}).code == "unknown_type"


def test_the_failed_command_id_is_kept() -> None:
    assert _command_error(_with(ACT, "action.tile.0", "6")).reply_to == 5
    assert _command_error({**ACT, "id": "abc", "table_id": 1}).reply_to == "abc"
    assert _command_error({**ACT, "id": 2**60}).reply_to is None  # never echo an invalid id


SERVER_CASES = {
    "int for bool": _with(STATUS, "connected", 1),
    "str for bool": _with(STATUS, "auto", "false"),
    "seq zero": _with(STATUS, "seq", 0),
    "no seq": _with(STATUS, "seq", ...),
    "protocol true": {
        "type": "hello",
        "seq": 1,
        "protocol": True,
        "server": "x",
        "limits": {
            "max_frame_bytes": 1,
            "commands_per_second": 1,
            "command_burst": 1,
            "chat_max_chars": 1,
            "send_queue_frames": 1,
        },
        "heartbeat_seconds": 1,
    },
    "seat list too short": {
        "type": "table_updated",
        "seq": 2,
        "table": _with(MOON_TABLE, "seats", MOON_TABLE["seats"][:2]),
    },
    "options not all given": {
        "type": "table_updated",
        "seq": 2,
        "table": _with(MOON_TABLE, "options", {"target": 21}),
    },
    "unknown error code": {"type": "error", "seq": 2, "code": "oops", "message": ""},
    "event of the other game": {
        "type": "event",
        "seq": 2,
        "table_id": "t1",
        "game": "moon",
        "event": {"type": "domino", "seat": 0},
    },
}


@pytest.mark.parametrize("data", SERVER_CASES.values(), ids=SERVER_CASES.keys())
def test_server_message_rejected(data: dict[str, Any]) -> None:
    assert _server_error(data).code == "invalid_message"


def test_lenient_decoding_drops_unknown_fields_only() -> None:
    newer = {**STATUS, "mood": "happy", "table_id": "t7k2"}
    assert _server_error(newer).code == "invalid_message"
    message = decode_server_message(msgpack.packb(newer), lenient=True)
    assert message == decode_server_message(msgpack.packb(STATUS))
    with pytest.raises(ProtocolError) as caught:
        decode_server_message(msgpack.packb({**STATUS, "connected": 1}), lenient=True)
    assert caught.value.code == "invalid_message"
    with pytest.raises(ProtocolError) as caught:
        decode_server_message(msgpack.packb({"type": "fireworks", "seq": 9}), lenient=True)
    assert caught.value.code == "unknown_type"
