"""Between the engines and the wire: message bodies, ``seq`` stamping, actions, events and views.

A **body** is a server message encoded without its ``seq``. A table encodes a public event once and
every connection stamps its own ``seq`` into the same body, which is also what a session keeps for
resume. Stamping splices the number into the bytes: every server message is a msgpack map whose first
keys are ``type`` and ``seq``, so the ``seq`` value sits right after a fixed-length head.

>>> from boneyard.protocol import Pong, decode_server_message, encode
>>> body = body_of(Pong(type="pong", seq=1, reply_to=7))
>>> stamp(body, 300) == encode(Pong(type="pong", seq=300, reply_to=7))
True
>>> decode_server_message(stamp(body, 2))
Pong(type='pong', seq=2, reply_to=7)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgpack
from pydantic import BaseModel, TypeAdapter

from boneyard.protocol import (
    ENGINE_EVENTS,
    Action,
    Error,
    ErrorCode,
    View,
    decode_server_message,
    event_from_engine,
    unfolded,
)
from boneyard.protocol.values import CommandId
from boneyard.server.games.registry import GAMES, GameSpec

_pack = msgpack.Packer().pack
# packb of a fresh Packer each call is slower than one shared Packer (it keeps no state between calls).

_ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def _seq_at(body: bytes) -> int:
    # fixmap header (1) + "type" (5) + fixstr type value (1 + len) + "seq" (4)
    return 11 + (body[6] & 0x1F)


def body_of_dict(data: Mapping[str, Any]) -> bytes:
    """The body of a message given as a dict whose first keys are ``type`` and ``seq`` (any ``seq``)."""
    packed: bytes = _pack({**data, "seq": 1})  # seq 1 packs to the one byte 0x01
    if not 0x80 <= packed[0] <= 0x8F or packed[1:6] != b"\xa4type":
        raise ValueError("a server message is a map of under 16 fields starting with type")
    at = _seq_at(packed)
    return packed[:at] + packed[at + 1 :]


def body_of(message: BaseModel) -> bytes:
    """The body of a server message model (its own ``seq`` is ignored)."""
    return body_of_dict(message.model_dump())


def stamp(body: bytes, seq: int) -> bytes:
    """The frame of ``body`` with ``seq`` spliced in."""
    at = 11 + (body[6] & 0x1F)  # _seq_at, inline: this runs for every frame
    return b"".join((body[:at], _pack(seq), body[at:]))


def error_body(code: ErrorCode, message: str, reply_to: CommandId | None = None) -> bytes:
    return body_of(Error(type="error", seq=1, reply_to=reply_to, code=code, message=message[:500]))


_OK_HEAD = body_of_dict({"type": "ok", "seq": 1, "reply_to": None})[:-1]  # all but the packed None


def ok_body(reply_to: CommandId | None) -> bytes:
    """``ok``: a fixed head and the packed ``reply_to`` (taken from a validated command: no model to
    validate for every act).

    >>> ok_body(7) == body_of_dict({"type": "ok", "seq": 1, "reply_to": 7})
    True
    """
    packed: bytes = _pack(reply_to)
    return _OK_HEAD + packed


def array_header(n: int) -> bytes:
    """The msgpack header of an array of ``n`` items.

    >>> array_header(3) + b"".join(msgpack.packb(i) for i in range(3)) == msgpack.packb([0, 1, 2])
    True
    """
    if n < 16:
        return bytes((0x90 | n,))
    return b"\xdc" + n.to_bytes(2, "big") if n < 65536 else b"\xdd" + n.to_bytes(4, "big")


_TIME_LEFT_KEY = _pack("time_left_ms")
_LEGAL_KEY = _pack("legal_actions")


def turn_head(table_id: str) -> bytes:
    """The fixed start of a table's ``turn`` bodies (everything up to the seat's value)."""
    full = body_of_dict(
        {
            "type": "turn",
            "seq": 1,
            "table_id": table_id,
            "seat": None,
            "time_left_ms": None,
            "legal_actions": None,
        }
    )
    return full[: -(3 + len(_TIME_LEFT_KEY) + len(_LEGAL_KEY))]


def turn_body(head: bytes, seat: int, time_left_ms: int | None, legal_actions: Sequence[Any]) -> bytes:
    """A ``turn`` body from its table's head, the seat to move and the engine actions it may take
    (each packed once, ever).

    >>> from boneyard.server.games.moon import Pass
    >>> turn_body(turn_head("t1"), 2, 900, [Pass()]) == body_of_dict({"type": "turn", "seq": 1,
    ...     "table_id": "t1", "seat": 2, "time_left_ms": 900, "legal_actions": [wire_action(Pass())]})
    True
    """
    return head + _turn_fields(seat, time_left_ms, legal_actions)


def _turn_fields(seat: int, time_left_ms: int | None, legal_actions: Sequence[Any]) -> bytes:
    # The packed values of seat, then the keys and values of time_left_ms and legal_actions: made for
    # every listener of every action, so the fixed part is kept, and each action is found by its id.
    head = _FIELD_HEADS.get((seat, time_left_ms))
    if head is None:
        if len(_FIELD_HEADS) >= _KEPT:
            _FIELD_HEADS.clear()
        head = _FIELD_HEADS[(seat, time_left_ms)] = b"".join(
            (_pack(seat), _TIME_LEFT_KEY, _pack(time_left_ms), _LEGAL_KEY)
        )
    parts = [head, array_header(len(legal_actions))]
    packed_by_id = _PACKED_BY_ID.get
    for action in legal_actions:
        parts.append(packed_by_id(id(action)) or _PACKED_OF.get(action) or _pack(wire_action(action)))
    return b"".join(parts)


_KEPT = 4096
_FIELD_HEADS: dict[tuple[int, int | None], bytes] = {}
"""The packed seat, ``time_left_ms`` and the ``legal_actions`` key, by seat and time (a table's turn
time is one number; a resumed player's time left is any: hence the bound)."""


_TURN_INFO_HEAD: bytes = _pack("turn") + b"\x83" + _pack("seat")  # "turn": {"seat": ...: a map of 3
_REPLY_TO_KEY: bytes = _pack("reply_to")


def turn_field(seat: int, time_left_ms: int | None, legal_actions: Sequence[Any]) -> bytes:
    """Feature ``turn_in_event``: the ``turn`` field of an event (key and value) that stands for the
    ``turn`` message :func:`turn_body` makes from the same arguments."""
    return _TURN_INFO_HEAD + _turn_fields(seat, time_left_ms, legal_actions)


def reply_field(reply_to: CommandId) -> bytes:
    """Feature ``turn_in_event``: the ``reply_to`` field of an event (key and value) that stands for
    the ``ok`` of the receiver's ``act``."""
    return _REPLY_TO_KEY + _pack(reply_to)  # type: ignore[no-any-return]


def with_fields(body: bytes, fields: bytes, count: int) -> bytes:
    """A message body (a map of under 16 fields) with ``count`` more fields (``fields``: their packed keys
    and values) at its end.

    >>> from boneyard.protocol import decode_server_message, encode, unfolded
    >>> from boneyard.server.games.events import Passed
    >>> from boneyard.server.games.moon import Pass
    >>> event = EventEncoder("moon", "t1").body(Passed(seat=0))
    >>> folded = with_fields(event, turn_field(1, None, [Pass()]) + reply_field(4), 2)
    >>> [m.type for m in unfolded(decode_server_message(stamp(folded, 3)))]
    ['event', 'turn', 'ok']
    >>> plain, turn, ok = unfolded(decode_server_message(stamp(folded, 3)))
    >>> alone = turn_body(turn_head("t1"), 1, None, [Pass()])
    >>> encode(plain) == stamp(event, 3), encode(turn) == stamp(alone, 3)
    (True, True)
    >>> ok.reply_to
    4
    """
    head = body[0] + count
    if not 0x80 <= head <= 0x8F:
        raise ValueError("a body with fields added stays a map of under 16 fields")
    return _BYTE[head] + body[1:] + fields  # bodies are short: plain copies beat a memoryview and a join


_BYTE = [bytes((i,)) for i in range(256)]


def plain_bodies(body: bytes) -> list[bytes]:
    """Feature ``turn_in_event`` undone: what a connection without it gets for ``body``. An event
    carrying a turn (and a reply) is the event, the ``turn`` and the ``ok``; any other body is itself.
    (A cluster node needs it when a relayed body was folded for a connection its player has since
    replaced with a plain one.)

    >>> from boneyard.server.games.events import Passed
    >>> from boneyard.server.games.moon import Pass
    >>> event = EventEncoder("moon", "t1").body(Passed(seat=0))
    >>> folded = with_fields(event, turn_field(1, None, [Pass()]) + reply_field(4), 2)
    >>> plain_bodies(folded) == [event, turn_body(turn_head("t1"), 1, None, [Pass()]), ok_body(4)]
    True
    >>> plain_bodies(event) == [event]
    True
    """
    parts = unfolded(decode_server_message(stamp(body, 1)))
    if len(parts) == 1:
        return [body]
    return [body_of(part) for part in parts]


# --- actions ---------------------------------------------------------------------------------
#
# A game's actions are a small finite set (``GameSpec.actions``: 71 in Moon, 142 in Straight), so
# both directions are complete tables built once at import, not caches: an engine action to its
# wire dict and its stored JSON, and each game's wire actions (by their field values) to the
# engine's. No record parser runs on the live path, and no game is named here.


def _key(model: BaseModel) -> tuple[Any, ...]:
    # The model's class and field values: cheaper than the model's own hash, and exact.
    return (type(model), *model.__dict__.values())


_WIRE_OF: dict[object, dict[str, Any]] = {}
_PACKED_OF: dict[object, bytes] = {}
_JSON_OF: dict[object, str] = {}
_ENGINE_OF: dict[str, dict[tuple[Any, ...], Any]] = {}
_PACKED_BY_ID: dict[int, bytes] = {}
"""Packed engine actions by ``id()``: the engines hand out their ``GameSpec.actions`` objects, which live
as long as the process, so an id is exact; ``_PACKED_OF`` would hash and compare a dataclass (Python
code, some 300 ns an action, for each legal action of every turn). Each game's own objects are listed:
games that share an action class have equal actions, which ``_PACKED_OF`` keeps under one key."""


def _learn_actions(spec: GameSpec) -> dict[tuple[Any, ...], Any]:
    """A game's tables of actions, both ways (at import for the games known then, at first use for a
    game registered later)."""
    engine_of: dict[tuple[Any, ...], Any] = {}
    for action in spec.actions:
        model = _ACTION_ADAPTER.validate_python(action.as_dict())
        _WIRE_OF[action] = model.model_dump()
        _PACKED_OF[action] = _PACKED_BY_ID[id(action)] = _pack(_WIRE_OF[action])
        _JSON_OF[action] = json.dumps(_WIRE_OF[action], separators=(",", ":"))
        engine_of[_key(model)] = action
    _ENGINE_OF[spec.name] = engine_of
    return engine_of


for _spec in GAMES.values():
    _learn_actions(_spec)


def wire_action(action: Any) -> dict[str, Any]:
    """An engine action as its wire dict (every field, ``end: null`` included).

    >>> from boneyard.server.games.moon import Play
    >>> wire_action(Play((6, 4)))
    {'type': 'play', 'tile': (6, 4), 'end': None}
    """
    out = _WIRE_OF.get(action)
    if out is None:  # not one of its game's actions as listed (never, for the engines' own)
        out = _ACTION_ADAPTER.validate_python(action.as_dict()).model_dump()
    return out


def action_json(action: Any) -> str:
    """An engine action as stored: its wire form as compact JSON."""
    return _JSON_OF.get(action) or json.dumps(wire_action(action), separators=(",", ":"))


def engine_action(spec: GameSpec, action: BaseModel) -> Any | None:
    """The engine action of a wire action, or ``None`` when it is not an action of this game at all.

    Only the shape is checked here; whether it is legal now is the engine's call.

    >>> from boneyard.protocol import PlayAction
    >>> from boneyard.server.games.registry import GAMES
    >>> engine_action(GAMES["moon"], PlayAction(type="play", tile=(6, 4)))
    Play(tile=(6, 4))
    >>> engine_action(GAMES["moon"], PlayAction(type="play", tile=(6, 4), end="left")) is None
    True
    """
    engine_of = _ENGINE_OF.get(spec.name)
    if engine_of is None:
        engine_of = _learn_actions(spec)
    return engine_of.get(_key(action))


# --- events -----------------------------------------------------------------------------------


class EventEncoder:
    """Encodes one table's events as ``event`` bodies (the table id and game are encoded once)."""

    __slots__ = ("_game", "_prefixes")

    def __init__(self, game: str, table_id: str) -> None:
        if game not in ENGINE_EVENTS:
            raise ValueError(f"no events for game {game!r}")
        self._game = game
        self._prefixes = tuple(
            # everything but the packed None of "event"
            body_of_dict(
                {"type": "event", "seq": 1, "table_id": table_id, "game": game, "auto": auto, "event": None}
            )[:-1]
            for auto in (False, True)
        )

    def body(self, event: object, auto: bool = False, **overrides: object) -> bytes:
        """The body of an engine event as one viewer sees it (already passed through ``seen_by``);
        ``auto``: the server took the action for a player."""
        if overrides or not getattr(event, "recurs", True):  # an event that almost never comes again
            return self._prefixes[auto] + event_bytes(self._game, event, overrides)
        packed = _EVENTS.get(event)
        if packed is None:
            packed = event_bytes(self._game, event, overrides)
            if len(_EVENTS) >= _EVENTS_KEPT:
                _EVENTS.clear()
            _EVENTS[event] = packed
        return self._prefixes[auto] + packed


def event_bytes(game: str, event: object, overrides: Mapping[str, object]) -> bytes:
    """An engine event's encoding: validated against its wire model the first time its class is seen
    (and whenever ``overrides`` add fields), directly from its fields afterwards."""
    shape = _SHAPES.get((game, type(event))) if not overrides else None
    if shape is not None:
        return _pack({name: getattr(event, name, default) for name, default in shape})  # type: ignore[no-any-return]
    model = event_from_engine(game, event, **overrides)
    packed: bytes = _pack(model.model_dump())
    if not overrides and dataclasses.is_dataclass(event):
        fields = type(model).model_fields
        learnt = tuple((name, None if info.is_required() else info.default) for name, info in fields.items())
        if _pack({name: getattr(event, name, default) for name, default in learnt}) == packed:
            _SHAPES[(game, type(event))] = learnt
    return packed


_EVENTS: dict[object, bytes] = {}
"""Validated, encoded events by value, shared by all tables: most events recur (a Moon ``tile_played``
is one of 84), and an engine event is a frozen value, so equal events encode equally. Events whose
class says they do not recur (``Event.recurs``) are encoded each time instead."""
_EVENTS_KEPT = 20_000
_SHAPES: dict[tuple[str, type], tuple[tuple[str, Any], ...]] = {}
"""Each engine event class's wire fields in order, with the defaults of those it lacks: learnt from
its first validated encoding, so that later ones skip validation (most events of a trick-taking game
do not recur: a ``trick_won`` names its three tiles). ``tests/server/test_wire_events.py`` checks
both encodings agree over whole games of both engines."""


# --- views ------------------------------------------------------------------------------------


_VIEW_ADAPTER: TypeAdapter[Any] = TypeAdapter(View)


def view_model(game: str, view: Any, *, hide_actions: bool = False) -> Any:
    """The wire model of an engine view (``hide_actions``: the seat may not act, e.g. during a hand-over),
    chosen by its ``game``."""
    data = view.as_dict()
    data["game"] = game  # named here: not every engine's view names its game
    if hide_actions:
        data["legal_actions"] = []
    return _VIEW_ADAPTER.validate_python(data)
