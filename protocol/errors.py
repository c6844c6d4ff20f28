"""Error codes (in ``error`` messages) and websocket close codes, as data.

Both tables are rendered into PROTOCOL.md; the codes are stable within protocol v1.

>>> print(ERROR_CODES["not_your_turn"])
It is not your seat's turn to act.
>>> CLOSE_CODES[4004].reconnect, CLOSE_CODES[4004].resume
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from boneyard.protocol.envelope import ReplyBase
from boneyard.protocol.values import Str

ErrorCode = Literal[
    "malformed_frame",
    "frame_too_large",
    "unknown_type",
    "invalid_message",
    "not_identified",
    "already_identified",
    "rate_limited",
    "no_such_table",
    "no_such_seat",
    "seat_taken",
    "not_a_bot",
    "not_invited",
    "not_seated",
    "already_seated",
    "invalid_options",
    "game_in_progress",
    "not_your_turn",
    "illegal_action",
    "game_over",
    "chat_too_long",
    "no_such_record",
    "seed_closed",
    "sign_in_refused",
    "name_taken",
    "name_refused",
    "not_signed_in",
    "banned",
    "no_such_player",
    "unavailable",
    "internal_error",
]
"""Every error code the server sends."""

RefusalCode = Literal["invalid_options", "no_such_seat"]
"""The codes of a well-formed command the models themselves refuse (options the rules forbid, a seat
the table does not have): not undecodable, so they never count toward the 1008 close."""

DecodeErrorCode = Literal[
    "malformed_frame", "frame_too_large", "unknown_type", "invalid_message", RefusalCode
]
"""The codes a frame can fail decoding with (see :mod:`boneyard.protocol.codec`)."""

ERROR_CODES: dict[ErrorCode, str] = {
    "malformed_frame": (
        "The frame is not one msgpack map within the decoding bounds (not msgpack, trailing bytes, "
        "an ext or bin value, a non-string map key, invalid UTF-8, nesting or a string/array/map "
        "longer than allowed)."
    ),
    "frame_too_large": "The frame is longer than `limits.max_frame_bytes`.",
    "unknown_type": "The map's `type` is not a message type of this protocol version.",
    "invalid_message": (
        "The message does not match its type: a missing or unknown field, a value of the wrong type "
        '(no coercion: "1" is not 1, 1 is not true) or out of range, or no `type` at all.'
    ),
    "not_identified": "Only `identify` and `ping` are accepted before `welcome`.",
    "already_identified": "`identify` was already accepted on this connection.",
    "rate_limited": "Commands arrive faster than `limits.commands_per_second`; this one was dropped.",
    "no_such_table": "No table has that `table_id` (or it was removed).",
    "no_such_seat": "The seat number is outside the table's seats.",
    "seat_taken": "Someone already holds that seat.",
    "not_a_bot": "`take_seat` names a seat that a bot does not hold.",
    "not_invited": "The table is private: `join` and `take_seat` need its `invite` code (since 1.1).",
    "not_seated": "You hold no seat at that table.",
    "already_seated": "You already hold a seat at that table.",
    "invalid_options": "The table options are well-formed but this server does not allow them.",
    "game_in_progress": "Not possible while a game runs at that table (e.g. `rematch` before it is over).",
    "not_your_turn": "It is not your seat's turn to act.",
    "illegal_action": "The rules do not allow that action now (it is not among your legal actions).",
    "game_over": "The game at that table is over.",
    "chat_too_long": "The chat line is longer than `limits.chat_max_chars`.",
    "no_such_record": "No finished game has that `record_id` (a running game's record is secret).",
    "seed_closed": (
        "`contribute_seed` came too late (the game's first deal is made) or twice for the same game: "
        "the deal is fixed without it."
    ),
    "sign_in_refused": (
        "Feature `accounts`: `identify.sign_in` was refused: no such account, a key that is not the "
        "account's, a signature that does not verify against this connection's `hello.nonce`, or a "
        "`link_code` that is unknown, spent or expired. The connection is then closed with 4001."
    ),
    "name_taken": (
        "Feature `accounts`: `sign_in.create` names an account that exists, or one that looks the "
        'same under the name rules (section 7, "Accounts"), or a guest\'s `identify.name` is such a name. '
        "The connection is then closed with 4001."
    ),
    "name_refused": (
        "Feature `accounts`: the name rules refuse `sign_in.account` for a new account (section 7, "
        '"Accounts"). The connection is then closed with 4001.'
    ),
    "not_signed_in": (
        "Feature `accounts`: the command is for signed-in players only (`link_device`; creating, joining "
        "or taking a seat at a rated table)."
    ),
    "banned": (
        "Feature `accounts`: the account is banned from this server (by its operator); the connection is "
        "then closed with 4001."
    ),
    "no_such_player": "Feature `ratings`: `get_profile` names no account and no bot level.",
    "unavailable": "The server is shutting down or full and takes no new tables or seats.",
    "internal_error": "The server failed; the command may or may not have taken effect.",
}
"""What each error code means."""

assert set(ERROR_CODES) == set(get_args(ErrorCode)), "every ErrorCode needs a description"
assert set(get_args(DecodeErrorCode)) <= set(ERROR_CODES)


class Error(ReplyBase):
    """A command failed, or a frame could not be decoded. Nothing changed because of it.

    ``reply_to`` is the failed command's ``id`` when the server could read one.
    """

    type: Literal["error"]
    code: ErrorCode
    """Stable and machine-readable: see the error code table (section 8)."""
    message: Str
    """For people; may change between server versions."""


@dataclass(frozen=True, slots=True)
class CloseCode:
    """A websocket close code the server uses, and what a client should do about it."""

    code: int
    name: str
    meaning: str
    reconnect: bool
    """Whether the client should reconnect (with backoff)."""
    resume: bool
    """Whether to send the resume token again when reconnecting."""


_CLOSE_CODES = (
    CloseCode(1000, "normal", "The session ended on purpose.", False, False),
    CloseCode(
        1001, "going_away", "The server is going away for good (not used on a restart: see 1012).", True, True
    ),
    CloseCode(
        1008,
        "policy_violation",
        "A text frame, or repeated undecodable frames. The close reason says which. (A first command "
        "other than `identify` is 4001.)",
        False,
        False,
    ),
    CloseCode(
        1002,
        "protocol_error",
        "The WebSocket framing was broken (sent by the WebSocket library: unmasked or fragmented control "
        "frames, bad opcodes, a continuation without a start).",
        False,
        False,
    ),
    CloseCode(
        1007,
        "invalid_data",
        "A text frame that is not valid UTF-8 (sent by the WebSocket library).",
        False,
        False,
    ),
    CloseCode(
        1009,
        "message_too_big",
        "A frame was longer than `limits.max_frame_bytes` (the server never answers it `frame_too_large`).",
        False,
        False,
    ),
    CloseCode(1011, "internal_error", "The server hit an unexpected condition.", True, True),
    CloseCode(
        1012,
        "service_restart",
        "The server is stopping or restarting (SIGTERM); reconnect in a few seconds and resume.",
        True,
        True,
    ),
    CloseCode(
        4000,
        "unsupported_protocol",
        "The client did not offer the websocket subprotocol `boneyard.v1`.",
        False,
        False,
    ),
    CloseCode(
        4001,
        "handshake_failed",
        "The first command was not a valid `identify`, or its `sign_in` was refused (the `error` before "
        "the close says why).",
        False,
        False,
    ),
    CloseCode(
        4002,
        "resume_rejected",
        "The resume token is unknown or expired. Reconnect and identify without `resume`.",
        True,
        False,
    ),
    CloseCode(
        4003, "replaced", "Another connection resumed this session; it now holds the seats.", False, False
    ),
    CloseCode(
        4004,
        "too_slow",
        "The client read too slowly: more than `limits.send_queue_frames` frames were waiting.",
        True,
        True,
    ),
    CloseCode(
        4005,
        "flood",
        "Commands kept exceeding the rate limit after `rate_limited` errors. Wait at least 10 s.",
        True,
        True,
    ),
    CloseCode(
        4006,
        "idle_timeout",
        "No `identify` within the handshake time, or websocket pings went unanswered.",
        True,
        True,
    ),
    CloseCode(
        4007, "server_full", "The server is at its connection limit. Back off, then retry.", True, True
    ),
)

CLOSE_CODES: dict[int, CloseCode] = {c.code: c for c in _CLOSE_CODES}
"""Every close code the server sends, by number."""
