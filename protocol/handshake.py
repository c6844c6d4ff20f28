"""Opening a session: ``hello``, ``identify``, ``welcome``; and ``ping``/``pong``/``ok``.

The server speaks first: right after the websocket opens it sends ``hello`` (seq 1)
with its limits. The client's first command must be ``identify``; the server answers
``welcome``, or closes with 4001 (bad identify) or 4002 (resume token rejected).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from boneyard.protocol.envelope import CommandBase, ReplyBase, ServerMessageBase
from boneyard.protocol.values import (
    Bool,
    Count,
    Id,
    Int,
    Name,
    Seat,
    Seq,
    Str,
    Token,
    WireModel,
    exact_int,
)

Positive = Annotated[Int, Field(ge=1, le=2**31 - 1)]


class Limits(WireModel):
    """What the server enforces on this connection."""

    max_frame_bytes: Positive
    """The longest frame the server accepts; a longer one closes the connection (1009)."""
    commands_per_second: Positive
    """Sustained command rate (a token bucket refilled at this rate)."""
    command_burst: Positive
    """Commands that may arrive at once (the bucket's size)."""
    chat_max_chars: Positive
    """The longest chat line accepted."""
    send_queue_frames: Positive
    """Frames the server will queue for a slow reader before closing with 4004."""


FEATURE_BOT_DELAY = "bot_delay"
"""``hello.features`` names it when ``create_table`` accepts ``bot_delay_ms``."""
FEATURE_BOT_LEVELS = "bot_levels"
"""``hello.features`` names it when ``create_table`` accepts ``bot_levels``."""


class Hello(ServerMessageBase):
    """The server's first message on every connection."""

    type: Literal["hello"]
    protocol: Annotated[Literal[1], BeforeValidator(exact_int)]
    """The protocol version; always 1 in this version."""
    server: Str
    """Server software and version, e.g. ``boneyard/0.1.0``; for logs only."""
    limits: Limits
    heartbeat_seconds: Positive
    """The server sends a websocket ping this often; a client that stops answering is closed (4006)."""
    features: Seq[Str] = ()
    """Optional features this server supports beyond protocol 1.0 (see Versioning): ``bot_delay``,
    ``create_table`` takes ``bot_delay_ms``; ``bot_levels``, ``create_table`` takes ``bot_levels``."""


class Resume(WireModel):
    """A request to take back a previous session after a disconnection."""

    token: Token
    """A token from ``seated`` (any one of the session's seats)."""
    last_seq: Count
    """The last ``seq`` the client processed on the connection it lost (0 if none)."""


class Identify(CommandBase):
    """The client's first command: who is playing, and optionally a session to resume."""

    type: Literal["identify"]
    name: Name
    """The display name shown at tables."""
    resume: Resume | None = None


class SeatRef(WireModel):
    """A seat at a table."""

    table_id: Id
    seat: Seat


class Welcome(ReplyBase):
    """The answer to ``identify``: the session is open."""

    type: Literal["welcome"]
    player_id: Id
    """Stable for this session (and kept when it is resumed)."""
    name: Name
    """The display name as accepted."""
    resumed: Bool
    """True when ``identify.resume`` was accepted and the session's seats are back."""
    replayed: Count
    """How many messages missed since ``resume.last_seq`` follow, re-sent in order.

    0 with ``resumed`` true means the server could not replay: a fresh ``snapshot`` of
    every table in ``seats`` follows instead.
    """
    seats: Seq[SeatRef]
    """The seats this session holds (empty for a new session)."""


class Ping(CommandBase):
    """Ask for a ``pong``: an application-level round trip (browsers cannot send websocket pings)."""

    type: Literal["ping"]


class Pong(ReplyBase):
    """The answer to ``ping``."""

    type: Literal["pong"]


class Ok(ReplyBase):
    """The command with id ``reply_to`` succeeded and has no other reply.

    Sent only for commands that carried an ``id``; after any events the command caused.
    """

    type: Literal["ok"]
