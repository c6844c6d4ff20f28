"""Framing: bounded decoding, the four decoding errors, encoding, and the engine-event mapping."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, get_args

import msgpack
import pytest

from boneyard.protocol import (
    COMMAND_LIMITS,
    COMMAND_TYPES,
    ENGINE_EVENTS,
    ERROR_CODES,
    REPLIES,
    SERVER_LIMITS,
    SERVER_MESSAGE_TYPES,
    DecodeErrorCode,
    DecodeLimits,
    MoonEventMessage,
    Ping,
    ProtocolError,
    decode_command,
    decode_server_message,
    encode,
    event_from_engine,
)
from boneyard.protocol.errors import CLOSE_CODES, ErrorCode
from boneyard.protocol.spec.examples import ALL_EXAMPLES

ENGINE_API = Path(__file__).resolve().parents[2] / "docs" / "ENGINE-API.md"


def _code(frame: bytes, limits: DecodeLimits = COMMAND_LIMITS) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode_command(frame, limits)
    return caught.value.code


def _act(tile: Any) -> dict[str, Any]:
    return {"type": "act", "table_id": "t1", "action": {"type": "play", "tile": tile}}


MALFORMED = {
    "empty": b"",
    "reserved byte": b"\xc1",
    "truncated map": b"\x82\xa4type",
    "trailing bytes": msgpack.packb({"type": "ping"}) + b"\x00",
    "array at top": msgpack.packb(["ping"]),
    "string at top": msgpack.packb("ping"),
    "nil at top": b"\xc0",
    "integer key": msgpack.packb({1: "ping"}),
    "array key": b"\x81\x90\xa4ping",
    "bin value": msgpack.packb({"type": "ping", "id": b"\x01"}, use_bin_type=True),
    "ext value": b"\x82\xa4type\xa4ping\xa2id\xd4\x01\x00",
    "timestamp ext": b"\x82\xa4type\xa4ping\xa2id\xd6\xff\x00\x00\x00\x00",
    "bad utf-8": b"\x81\xa4type\xa2\xff\xfe",
    "str32 length beyond frame": b"\x81\xa4type\xdb\xff\xff\xff\xff",
    "array32 of 4G": b"\x81\xa4type\xdd\xff\xff\xff\xff",
    "map32 of 4G": b"\xdf\xff\xff\xff\xff",
    "long string": msgpack.packb({"type": "chat", "table_id": "t1", "text": "x" * 3000}),
    "long array": msgpack.packb({"type": "ping", "id": list(range(100))}),
    "big map": msgpack.packb({"type": "ping", **{f"k{i}": i for i in range(40)}}),
    "deep nesting": msgpack.packb(_act([[[[[[[[[1]]]]]]]]])),
    "nesting beyond msgpack's stack": b"\x81\xa4type" + b"\x91" * 2000 + b"\x00",
}


@pytest.mark.parametrize("frame", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed(frame: bytes) -> None:
    assert _code(frame) == "malformed_frame"


def test_frame_too_large() -> None:
    frame = msgpack.packb({"type": "chat", "table_id": "t1", "text": "x" * 490})
    assert _code(frame, DecodeLimits(500, 2048, 64, 32, 8)) == "frame_too_large"
    assert _code(b"\x00" * (COMMAND_LIMITS.max_frame_bytes + 1)) == "frame_too_large"


def test_text_is_not_a_frame() -> None:
    assert _code("{}") == "malformed_frame"  # type: ignore[arg-type]


def test_depth_within_limit_is_only_a_type_error() -> None:
    # Depth 3 is legal; the same shape one level deeper than the limit is malformed.
    assert _code(msgpack.packb(_act([[1], 2]))) == "invalid_message"
    limits = DecodeLimits(4096, 2048, 64, 32, 3)
    assert _code(msgpack.packb(_act([[1], 2])), limits) == "malformed_frame"


def test_valid_messages_are_within_the_depth_limits() -> None:
    def depth(value: Any) -> int:
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        return 0 if children is None else 1 + max((depth(c) for c in children), default=0)

    for example in ALL_EXAMPLES:
        limits = COMMAND_LIMITS if example.direction == "command" else SERVER_LIMITS
        assert depth(example.data) <= limits.max_depth - 2, example.title  # room for growth


def test_decode_error_codes_are_documented() -> None:
    assert set(get_args(DecodeErrorCode)) <= set(ERROR_CODES)
    assert set(ERROR_CODES) == set(get_args(ErrorCode))


def test_close_codes_are_in_range() -> None:
    assert {1000, 1001, 1008, 1009, 1011, 1012} <= set(CLOSE_CODES)
    standard = {1000, 1001, 1002, 1007, 1008, 1009, 1011, 1012}
    assert all(c in standard or 4000 <= c <= 4999 for c in CLOSE_CODES)
    assert all(not c.resume or c.reconnect for c in CLOSE_CODES.values())


def test_replies_name_real_messages() -> None:
    assert set(REPLIES) == COMMAND_TYPES
    assert set(REPLIES.values()) <= SERVER_MESSAGE_TYPES


def test_encode_sets_seq() -> None:
    message = next(e.model for e in ALL_EXAMPLES if isinstance(e.model, MoonEventMessage))
    assert decode_server_message(encode(message, seq=77)) == message.model_copy(update={"seq": 77})
    with pytest.raises(ValueError):
        encode(message, seq=0)
    with pytest.raises(ValueError):
        encode(Ping(type="ping"), seq=5)  # commands have no seq


def test_encoding_is_plain_msgpack() -> None:
    assert msgpack.unpackb(encode(Ping(type="ping", id=3))) == {"type": "ping", "id": 3}


def test_decode_accepts_bytearray_and_memoryview() -> None:
    frame = encode(Ping(type="ping", id=3))
    assert decode_command(bytearray(frame)) == decode_command(memoryview(frame)) == Ping(type="ping", id=3)
    wide = memoryview(b"\x00" * 4096).cast("I")  # 1024 items, 4096 bytes
    with pytest.raises(ProtocolError) as caught:
        decode_command(wide, DecodeLimits(4095, 2048, 64, 32, 8))
    assert caught.value.code == "frame_too_large"


# --- the engine events --------------------------------------------------------------------------


def _engine_api_events() -> dict[str, dict[str, set[str]]]:
    """The event tables of docs/ENGINE-API.md: game -> event type -> field names."""
    tables: dict[str, dict[str, set[str]]] = {"common": {}, "moon": {}, "straight": {}, "texas42": {}}
    section = "common"
    for line in ENGINE_API.read_text(encoding="utf-8").splitlines():
        if line.startswith("Texas 42 ("):
            section = "texas42"
        elif line.startswith(("Moon:", "Straight:", "Common")):
            section = line.split(":")[0].split()[0].lower()
        match = re.match(r"\| `(\w+)` \| (.*?) \|", line)
        if match and "game-specific" not in match.group(2):
            fields = set(re.findall(r"`(\w+)(?::[^`]*)?`", match.group(2)))
            tables[section][match.group(1)] = fields
    return tables


BEYOND_ENGINE_API = {
    ("moon", "game_over"): {"record_id"},  # added by the server
    ("straight", "game_over"): {"record_id"},
    ("texas42", "game_over"): {"record_id"},
    ("straight", "hand_scored"): {"winners"},  # the Straight engine's addition (shared awards, S12)
}


def test_wire_events_mirror_the_engine_api() -> None:
    tables = _engine_api_events()
    for game in ("moon", "straight", "texas42"):
        expected = {**tables["common"], **tables[game]}
        expected["hand_scored"] = tables[game]["hand_scored"]
        assert set(ENGINE_EVENTS[game]) == set(expected), game
        for kind, fields in expected.items():
            model_fields = set(ENGINE_EVENTS[game][kind].model_fields) - {"type"}
            assert model_fields == fields | BEYOND_ENGINE_API.get((game, kind), set()), (game, kind)


@dataclass(frozen=True)
class FakeTilePlayed:
    type: ClassVar[str] = "tile_played"
    seat: int
    tile: tuple[int, int]
    end: str | None
    count: int
    points: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class FakeGameOver:
    type: ClassVar[str] = "game_over"
    winner: int
    scores: tuple[int, ...] = field(default=(0, 0))


@dataclass(frozen=True)
class FakeHandDealt:
    type: ClassVar[str] = "hand_dealt"
    seat: int
    tiles: tuple[tuple[int, int], ...] | None


@dataclass(frozen=True)
class FakeFireworks:
    type: ClassVar[str] = "fireworks"


def test_event_from_engine() -> None:
    played = event_from_engine("straight", FakeTilePlayed(1, (4, 4), "right", 14, 0, (10, 0)))
    assert played.model_dump() == {
        "type": "tile_played",
        "seat": 1,
        "tile": (4, 4),
        "end": "right",
        "count": 14,
        "points": 0,
        "scores": (10, 0),
    }
    over = event_from_engine("moon", FakeGameOver(winner=0, scores=(21, 3, 4)), record_id="g1")
    assert over.model_dump()["record_id"] == "g1"
    hidden = event_from_engine("moon", FakeHandDealt(seat=2, tiles=None))
    assert hidden.model_dump() == {"type": "hand_dealt", "seat": 2, "tiles": None}
    with pytest.raises(ValueError, match="count, end, points, scores"):
        event_from_engine("moon", FakeTilePlayed(1, (4, 4), "right", 14, 0, (10, 0)))
    with pytest.raises(KeyError):
        event_from_engine("straight", FakeFireworks())
