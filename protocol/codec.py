"""Frames: one msgpack map per binary websocket frame.

Decoding an untrusted frame is bounded and total: it returns a validated model or
raises :class:`ProtocolError` with one of four documented codes, and nothing else.

>>> from boneyard.protocol.handshake import Ping
>>> frame = encode(Ping(type="ping", id=7))
>>> frame.hex(" ")
'82 a4 74 79 70 65 a4 70 69 6e 67 a2 69 64 07'
>>> decode_command(frame)
Ping(type='ping', id=7)
>>> decode_command(b"\\xc1")
Traceback (most recent call last):
boneyard.protocol.codec.ProtocolError: malformed_frame: not msgpack (invalid byte or truncated)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypeVar, get_args

import msgpack
from pydantic import BaseModel, TypeAdapter, ValidationError

from boneyard.protocol.errors import DecodeErrorCode, RefusalCode
from boneyard.protocol.messages import (
    COMMAND_ADAPTER,
    COMMAND_TYPES,
    SERVER_MESSAGE_ADAPTER,
    SERVER_MESSAGE_TYPES,
    ClientCommand,
    ServerMessage,
)
from boneyard.protocol.play import Action
from boneyard.protocol.values import MAX_SAFE_INT, CommandId

M = TypeVar("M")

Frame = bytes | bytearray | memoryview
"""A binary websocket frame's payload."""


class ProtocolError(Exception):
    """A frame that could not be decoded into a message.

    ``code`` is one of ``malformed_frame``, ``frame_too_large``, ``unknown_type``,
    ``invalid_message``; ``message`` says what was wrong, for people. ``reply_to`` is
    the frame's ``id`` when one could be read, so the error can answer the command.
    """

    def __init__(self, code: DecodeErrorCode, message: str, reply_to: CommandId | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code: DecodeErrorCode = code
        self.message = message
        self.reply_to = reply_to


@dataclass(frozen=True, slots=True)
class DecodeLimits:
    """Bounds on an untrusted frame; anything beyond them is rejected before validation."""

    max_frame_bytes: int
    max_str_bytes: int
    max_array_len: int
    max_map_len: int
    max_depth: int
    """Maps and arrays nested deeper than this are malformed (the top-level map is depth 1)."""


COMMAND_LIMITS = DecodeLimits(
    max_frame_bytes=4096, max_str_bytes=2048, max_array_len=64, max_map_len=32, max_depth=8
)
"""Limits for client-to-server frames (a server may lower ``max_frame_bytes``)."""

SERVER_LIMITS = DecodeLimits(
    max_frame_bytes=1 << 20, max_str_bytes=4096, max_array_len=10_000, max_map_len=64, max_depth=16
)
"""Limits for server-to-client frames (records and table lists are the large ones)."""


def encode(message: BaseModel, *, seq: int | None = None) -> bytes:
    """The frame for ``message``; ``seq`` (server messages) overrides the model's ``seq``.

    Maps keep the models' field order, so the same message always gives the same bytes.
    """
    data = message.model_dump()
    if seq is not None:
        if "seq" not in data or not 1 <= seq <= MAX_SAFE_INT:
            raise ValueError(f"cannot set seq {seq} on {type(message).__name__}")
        data["seq"] = seq
    return msgpack.packb(data)  # type: ignore[no-any-return]


def decode_command(frame: Frame, limits: DecodeLimits = COMMAND_LIMITS) -> ClientCommand:
    """Decode and validate a client-to-server frame. Raises :class:`ProtocolError` only."""
    data = _unpack(frame, limits)
    return _validate(data, COMMAND_ADAPTER, COMMAND_TYPES, limits, None)


class HotAct(NamedTuple):
    """An ``act`` decoded by :func:`decode_hot`: the fields of :class:`~boneyard.protocol.play.Act`,
    checked exactly as strictly, without building the model (the action model is shared)."""

    table_id: str
    action: Any
    """The validated action model (one of :data:`~boneyard.protocol.play.Action`)."""
    id: CommandId | None = None
    type: Literal["act"] = "act"


def decode_hot(frame: Frame, limits: DecodeLimits = COMMAND_LIMITS) -> ClientCommand | HotAct:
    """:func:`decode_command` for a server's hot path: an ``act`` of the usual shape comes back as a
    :class:`HotAct` instead of a model (validating one costs more than the rest of the decode).

    It accepts exactly what :func:`decode_command` accepts: anything out of the ordinary (a field
    of another type, an extra field, an action not seen before that does not validate) goes through
    :func:`decode_command`'s validation, so refusals keep their codes and messages.

    >>> from boneyard.protocol.play import Act, PassAction
    >>> act = decode_hot(encode(Act(type="act", id=3, table_id="t1", action=PassAction(type="pass"))))
    >>> act.type, act.id, act.table_id, act.action
    ('act', 3, 't1', PassAction(type='pass'))
    """
    data = _unpack(frame, limits)
    if data.get("type") == "act" and (act := _hot_act(data)) is not None:
        return act
    return _validate(data, COMMAND_ADAPTER, COMMAND_TYPES, limits, None)


_ACT_FIELDS = frozenset(("type", "id", "table_id", "action"))
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""``Id``'s pattern (``^[A-Za-z0-9_-]{1,32}$``), matched whole."""
_ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
_ACTIONS: dict[bytes, Any] = {}
"""Validated action models by their exact input (the action's map packed again): the valid actions
are a small finite set, so this stays small; only valid ones are kept."""
_pack = msgpack.Packer().pack
_ACTIONS_KEPT = 4096


def _hot_act(data: dict[str, Any]) -> HotAct | None:
    table_id, action, command_id = data.get("table_id"), data.get("action"), data.get("id")
    if (
        not data.keys() <= _ACT_FIELDS
        or type(table_id) is not str
        or type(action) is not dict
        or _TABLE_ID.fullmatch(table_id) is None
    ):
        return None
    if command_id is not None:
        kind = type(command_id)
        if kind is int:
            if not 0 <= command_id <= MAX_SAFE_INT:
                return None
        elif kind is not str or not 1 <= len(command_id) <= 64:
            return None
    key = _pack(action)  # msgpack tells apart what strict validation does: True, 1 and 1.0 differ
    model = _ACTIONS.get(key)
    if model is None:
        try:
            model = _ACTION_ADAPTER.validate_python(action)
        except ValidationError:
            return None  # the full validation says why
        if len(_ACTIONS) < _ACTIONS_KEPT:
            _ACTIONS[key] = model
    return HotAct(table_id, model, command_id)


def decode_server_message(
    frame: Frame, limits: DecodeLimits = SERVER_LIMITS, *, lenient: bool = False
) -> ServerMessage:
    """Decode and validate a server-to-client frame. Raises :class:`ProtocolError` only.

    ``lenient=True`` is for clients: unknown fields (added by a newer 1.x server) are
    dropped instead of rejected. An ``unknown_type`` error tells a client to skip the frame.
    """
    data = _unpack(frame, limits)
    extra: Literal["ignore"] | None = "ignore" if lenient else None
    return _validate(data, SERVER_MESSAGE_ADAPTER, SERVER_MESSAGE_TYPES, limits, extra)


def _unpack(frame: Frame, limits: DecodeLimits) -> dict[str, Any]:
    if not isinstance(frame, bytes | bytearray | memoryview):
        raise ProtocolError("malformed_frame", "a frame is binary")
    size = frame.nbytes if isinstance(frame, memoryview) else len(frame)
    if size > limits.max_frame_bytes:
        raise ProtocolError("frame_too_large", f"{size} bytes > {limits.max_frame_bytes}")
    try:
        data = msgpack.unpackb(
            frame,
            raw=False,
            strict_map_key=True,
            max_str_len=limits.max_str_bytes,
            max_bin_len=0,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=0,
        )
    except msgpack.ExtraData:
        raise ProtocolError("malformed_frame", "trailing bytes after the map") from None
    except UnicodeDecodeError:
        raise ProtocolError("malformed_frame", "a string is not valid UTF-8") from None
    except msgpack.StackError:
        raise ProtocolError("malformed_frame", f"nested deeper than {limits.max_depth}") from None
    except ValueError as error:
        # msgpack reports bad bytes, truncation, oversize lengths, bin/ext values and non-string
        # keys all as ValueError; say which kind when the message allows.
        text = str(error)
        detail = text if "exceeds" in text or "map key" in text else "not msgpack (invalid byte or truncated)"
        raise ProtocolError("malformed_frame", detail) from None
    except Exception:  # anything else msgpack may raise on hostile input
        raise ProtocolError("malformed_frame", "not msgpack") from None
    if type(data) is not dict:
        raise ProtocolError("malformed_frame", f"a frame is one map, not {_kind(data)}")
    return data


def _validate(
    data: dict[str, Any],
    adapter: TypeAdapter[M],
    types: frozenset[str],
    limits: DecodeLimits,
    extra: Literal["ignore"] | None,
) -> M:
    kind = data.get("type")
    if type(kind) is not str or kind not in types:
        _check_depth(data, limits.max_depth)
        if type(kind) is str:
            raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}", _id_of(data))
        raise ProtocolError("invalid_message", "the map has no string `type`", _id_of(data))
    try:
        # The context carries ``extra`` into the fields validated by game (``wiregames``).
        return adapter.validate_python(data, extra=extra, context=_LENIENT if extra else None)
    except ValidationError as error:
        # Valid messages are never deeper than the limit, so only failures pay for the walk.
        _check_depth(data, limits.max_depth)
        kinds = {item["type"] for item in error.errors(include_url=False)}
        code: DecodeErrorCode = "invalid_message"
        if len(kinds) == 1 and kinds <= _REFUSALS:
            code = kinds.pop()  # type: ignore[assignment]  # one of RefusalCode's, checked just above
        raise ProtocolError(code, _describe(error), _id_of(data)) from None


_LENIENT = {"extra": "ignore"}

_REFUSALS: frozenset[str] = frozenset(get_args(RefusalCode))
"""Validation errors of well-formed messages the rules refuse (the models raise them by these names)."""


def _check_depth(data: dict[str, Any], max_depth: int) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            raise ProtocolError("malformed_frame", f"nested deeper than {max_depth}")
        for child in node.values() if type(node) is dict else node:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))


def _id_of(data: dict[str, Any]) -> CommandId | None:
    # Echo the id only when it is a valid id: never reflect arbitrary input.
    value = data.get("id")
    if type(value) is int and 0 <= value <= MAX_SAFE_INT:
        return value
    if type(value) is str and 1 <= len(value) <= 64:
        return value
    return None


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False, include_input=False, include_context=False)[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _kind(value: object) -> str:
    return {list: "an array", str: "a string", int: "an integer", float: "a float", bool: "a boolean"}.get(
        type(value), "nil" if value is None else type(value).__name__
    )
