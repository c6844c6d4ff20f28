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

from collections.abc import Mapping
from typing import Any

import msgpack
from pydantic import BaseModel, TypeAdapter

from boneyard.protocol import (
    ENGINE_EVENTS,
    Action,
    Error,
    ErrorCode,
    MoonView,
    StraightView,
    event_from_engine,
)
from boneyard.protocol.values import CommandId
from boneyard.server.games.moon import action_to_dict as moon_action_dict
from boneyard.server.games.registry import GameSpec

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
    at = _seq_at(body)
    return b"".join((body[:at], _pack(seq), body[at:]))


def error_body(code: ErrorCode, message: str, reply_to: CommandId | None = None) -> bytes:
    return body_of(Error(type="error", seq=1, reply_to=reply_to, code=code, message=message[:500]))


def ok_body(reply_to: CommandId | None) -> bytes:
    # ``reply_to`` comes from a validated command: no need to validate an ``Ok`` model for every act.
    return body_of_dict({"type": "ok", "seq": 1, "reply_to": reply_to})


# --- actions ----------------------------------------------------------------------------------

_WIRE_ACTIONS: dict[object, dict[str, Any]] = {}


def wire_action(action: Any) -> dict[str, Any]:
    """An engine action as its wire dict (every field, ``end: null`` included), cached per action.

    Engine actions are frozen values from a small finite set, so the cache stays small.
    """
    out = _WIRE_ACTIONS.get(action)
    if out is None:
        raw = action.as_dict() if hasattr(action, "as_dict") else moon_action_dict(action)
        out = _WIRE_ACTIONS[action] = _ACTION_ADAPTER.validate_python(raw).model_dump()
    return out


def engine_action(spec: GameSpec, action: BaseModel) -> Any | None:
    """The engine action of a wire action, or ``None`` when it is not an action of this game at all.

    Only the shape is checked here; whether it is legal now is the engine's call. Cached per game
    and (frozen, hashable) wire action: there are a few hundred of them.
    """
    key = (spec.name, type(action), *action.__dict__.values())  # cheaper than the model's own hash
    if key in _ENGINE_ACTIONS:
        return _ENGINE_ACTIONS[key]
    data = action.model_dump()
    engine: Any | None = None
    if spec.name != "moon" or data.get("end") is None:  # a Moon play has no end
        try:
            engine = spec.action_from_record(data)
        except (ValueError, KeyError, TypeError):
            engine = None
    if len(_ENGINE_ACTIONS) < _ENGINE_ACTIONS_KEPT:
        _ENGINE_ACTIONS[key] = engine
    return engine


_ENGINE_ACTIONS: dict[tuple[Any, ...], Any | None] = {}
_ENGINE_ACTIONS_KEPT = 10_000
"""Valid wire actions are few; a client sending odd ones cannot grow the cache past this."""


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
        packed = _EVENTS.get(event) if not overrides else None
        if packed is None:
            model = event_from_engine(self._game, event, **overrides)  # type: ignore[arg-type]
            packed = _pack(model.model_dump())
            if not overrides and model.type != "hand_dealt":  # a deal never recurs
                if len(_EVENTS) >= _EVENTS_KEPT:
                    _EVENTS.clear()
                _EVENTS[event] = packed
        return self._prefixes[auto] + packed


_EVENTS: dict[object, bytes] = {}
"""Validated, encoded events by value, shared by all tables: most events recur (a Moon ``tile_played``
is one of 84), and an engine event is a frozen value, so equal events encode equally."""
_EVENTS_KEPT = 20_000


# --- views ------------------------------------------------------------------------------------


def view_model(game: str, view: Any, *, hide_actions: bool = False) -> MoonView | StraightView:
    """The wire model of an engine view (``hide_actions``: the seat may not act, e.g. during a hand-over)."""
    data = view.as_dict()
    data["game"] = game  # the Moon view's dict does not name its game
    if hide_actions:
        data["legal_actions"] = []
    if game == "moon":
        return MoonView.model_validate(data)
    return StraightView.model_validate(data)
