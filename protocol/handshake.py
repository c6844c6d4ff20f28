"""Opening a session: ``hello``, ``identify``, ``welcome``; and ``ping``/``pong``/``ok``.

The server speaks first: right after the websocket opens it sends ``hello`` (seq 1)
with its limits. The client's first command must be ``identify``; the server answers
``welcome``, or closes with 4001 (bad identify) or 4002 (resume token rejected).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from boneyard.protocol.accounts import Nonce, SignIn
from boneyard.protocol.envelope import CommandBase, ReplyBase, ServerMessageBase
from boneyard.protocol.values import (
    Bool,
    Count,
    GameName,
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

BOT_NAME_PREFIX = "bot-"
"""The server names its bots ``bot-<seat>``; no human may take a name like it."""


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
    # Since 1.1 (optional: a 1.0 server does not send them; a client then knows nothing of them).
    handshake_ms: Positive | None = None
    """Time from ``hello`` to send ``identify``; then the connection is closed with 4006."""
    bad_frames: Positive | None = None
    """Undecodable frames (``malformed_frame``, ``frame_too_large``, ``unknown_type``, ``invalid_message``)
    tolerated, one forgiven per second; the next closes the connection with 1008. Well-formed commands the
    server refuses never count."""
    rate_strikes: Positive | None = None
    """``rate_limited`` errors tolerated, ``command_burst`` of them forgiven per 10 s; the next closes the
    connection with 4005."""
    reply_bytes_per_command: Positive | None = None
    """A reply costs one more command of the rate limit per this many bytes beyond the first (a big
    ``record`` costs several): a client fetching records in a loop is rate-limited by what it gets."""
    chat_per_minute: Positive | None = None
    """Chat lines a session may send per minute (a bucket refilled over the minute); beyond:
    ``rate_limited``."""
    tables_per_session: Positive | None = None
    """Tables a session may own (have created, not yet removed) at once; beyond: ``unavailable``."""
    empty_table_ms: Positive | None = None
    """A table where nobody sits or watches is removed after this long."""
    max_spectators: Count | None = None
    """Connections that may watch one table at once; ``spectate`` beyond it gets ``unavailable``."""
    spectator_chat_per_minute: Positive | None = None
    """Chat lines a table's spectators may send per minute, all of them together; beyond: ``rate_limited``."""
    grace_ms: Count | None = None
    """How long a dropped player's seat waits, on its normal turn timer, before the server plays every
    turn for it."""
    resume_frames: Positive | None = None
    """Messages kept per seated session for a resume; a client that missed more gets snapshots."""
    max_connections: Positive | None = None
    """Connections the server takes at once (those in their handshake included); beyond: close 4007."""
    max_tables: Positive | None = None
    """Tables on the server at once; ``create_table`` beyond: ``unavailable``."""
    tables_per_address: Positive | None = None
    """Tables the sessions of one IP address may own at once; beyond: ``unavailable``."""
    bot_delay_ms: Count | None = None
    """The server's default pause before a bot moves at a table where a human sits."""
    bots_only_move_ms: Count | None = None
    """The pause before each move at a table of bots only (a table's ``bot_delay_ms`` may only slow it)."""
    hand_pause_ms: Count | None = None
    """Feature ``hand_pause``: the server's default pause between hands at a table where a human sits
    (0: none), for a table created without ``hand_pause_ms``."""
    max_hand_pause_ms: Positive | None = None
    """Feature ``hand_pause``: the longest ``create_table.hand_pause_ms`` accepted (60000)."""
    sign_ins_per_minute: Positive | None = None
    """Feature ``accounts``: ``identify``s with ``sign_in`` accepted per minute from one address, and
    per account name (each a bucket refilled over the minute); beyond: ``rate_limited``, then close 4001."""


FEATURE_BOT_DELAY = "bot_delay"
"""``hello.features`` names it when ``create_table`` accepts ``bot_delay_ms``."""
FEATURE_PRIVATE_TABLES = "private_tables"
"""``hello.features`` names it when tables may be private (``create_table.private``, invite codes)."""
FEATURE_BOT_SEATS = "bot_seats"
"""``hello.features`` names it when a bot's seat at an untimed table goes only to those its creator admits
(``create_table.open_bot_seats``)."""
FEATURE_BOT_LEVELS = "bot_levels"
"""``hello.features`` names it when ``create_table`` accepts ``bot_levels``."""
FEATURE_TURN_IN_EVENT: Literal["turn_in_event"] = "turn_in_event"
"""``hello.features`` names it when ``identify.accept`` may ask for it: on that connection the ``turn``
after an action's events rides in the last of them (``event.turn``), and an ``act``'s ``ok`` too
(``event.reply_to``)."""

Negotiated = Literal["turn_in_event"]
"""The features a client opts in to with ``identify.accept`` (each one the server lists in
``hello.features``): they change the shape of what this connection is sent."""


class GameOffer(WireModel):
    """A game the server plays (``hello.games``)."""

    game: GameName
    """Its name on the wire: the ``game`` of its tables, ``create_table`` and messages."""
    players: Positive
    """The seats of its table created with its default options."""


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
    ``create_table`` takes ``bot_delay_ms``; ``fair_deals``, the deals are committed to and take the
    players' seeds (section 5, "Fair deals"); ``private_tables``, ``create_table.private``, ``join.invite``
    and ``take_seat.invite`` (error ``not_invited``); ``bot_levels``, ``create_table`` takes
    ``bot_levels``; ``hand_pause``, tables pause between hands (``create_table.hand_pause_ms``, ``ready``,
    ``hand_pause``, ``snapshot.pause``: section 5, "The pause between hands"); ``turn_in_event``, a client
    may opt in (``identify.accept``) to get the turn after an action's events inside the last of them
    (section 5, "Turns inside events"); ``accounts``, players may sign in with a key (``nonce``,
    ``identify.sign_in``, ``welcome.account``, ``link_device``: section 7, "Accounts"); ``bot_seats``, a
    bot's seat at an untimed table goes only to those its creator admits (``create_table.open_bot_seats``);
    ``ratings``, rated tables, profiles and leaderboards (``create_table.rated``, ``rating_changes``,
    ``get_profile``, ``get_leaderboard``: section 5, "Rated games"); ``seeks``, matchmaking (``seek``,
    ``cancel_seek``, ``seeks``: section 5, "Matchmaking"); ``moderation``, ``mute``, ``unmute`` and
    ``report`` (section 5, "Moderation"). And one that is a warning, not a feature: ``fixed_seed``, the
    server deals from a fixed seed (a test setting): its deals are predictable, not fair (section 5,
    "Fair deals")."""
    nonce: Nonce | None = None
    """Feature ``accounts``: fresh for this connection; an ``identify.sign_in`` signs it, once."""
    # Optional: an older server does not send it (a client then offers the games it knows).
    games: Annotated[Seq[GameOffer], Field(max_length=64)] = ()
    """The games this server plays, in the order it offers them: a client lists them all for
    ``create_table``, those it has no drawing for by their ``game`` (section 5, "Games a client does not
    know")."""


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
    """The display name shown at tables. Names starting ``bot-`` (in any case) are the server's bots':
    an ``identify`` with one is invalid."""
    resume: Resume | None = None
    # Since 1.1, with feature ``turn_in_event``.
    accept: Annotated[Seq[Negotiated], Field(max_length=8)] = ()
    """Features this connection opts in to, from those ``hello.features`` lists that change what the
    connection is sent: ``turn_in_event`` (section 5, "Turns inside events"). A name the server does not
    know makes the ``identify`` invalid (``invalid_message``, then close 4001). ``welcome.accepted``
    says what is in force; a resume's features are its own connection's (see section 7)."""
    sign_in: SignIn | None = None
    """Feature ``accounts``: sign in to an account (or register one, or add this device's key to one):
    section 7, "Accounts". Without it the player is a guest, as before. A signed-in player whose
    account already has a session on the server takes it back, seats and all, as a resume does."""

    @model_validator(mode="after")
    def _not_a_bots_name(self) -> Identify:
        if self.name.casefold().startswith(BOT_NAME_PREFIX):
            raise ValueError(f"names starting {BOT_NAME_PREFIX!r} are reserved for the server's bots")
        return self


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
    accepted: Seq[Str] = ()
    """The features of ``identify.accept`` in force on this connection, each once (empty when it asked
    for none; a server older than feature ``turn_in_event`` leaves the field out)."""
    account: Name | None = None
    """Feature ``accounts``: the account this session is signed in to, as registered (``name`` is the
    same); ``null`` for a guest."""


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
