"""The lobby: listing, creating, joining, watching and leaving tables; seat status and chat.

A table's ``game`` selects its ``options`` model, so ``create_table`` and the table
listing are each a small union keyed by ``game`` inside the message union keyed by ``type``.

>>> MoonTable(table_id="t1", game="moon", options=MoonOptions(all_pass="redeal", target=21),
...           seats=[SeatInfo(seat=s, name=None, bot=False, connected=False, auto=False) for s in range(3)],
...           status="waiting", turn_seconds=30, spectators=0, rematch=[]).players
3
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from boneyard.protocol.envelope import CommandBase, ReplyBase, ServerMessageBase
from boneyard.protocol.values import (
    Bool,
    BotDelayMs,
    BotLevel,
    ChatText,
    Count,
    HandPauseMs,
    Id,
    MoonOptions,
    Name,
    Seat,
    Seq,
    Str,
    StraightOptions,
    TexasOptions,
    Token,
    TurnSeconds,
    WireModel,
    check_all_fields_set,
)

# --- tables --------------------------------------------------------------------------------


class SeatInfo(WireModel):
    """One seat of a table as everyone sees it."""

    seat: Seat
    name: Name | None
    """Who sits there; ``null`` for an empty seat."""
    bot: Bool
    """A bot plays this seat (a human may ``take_seat`` it between hands)."""
    connected: Bool
    """The seat's player is connected (always true for a bot)."""
    auto: Bool
    """The server is playing for this seat (its player is away or ran out of time)."""
    level: BotLevel | None = None
    """The level of the bot playing this seat; ``null`` when no bot holds it. (Added within v1.)"""


class BaseTable(WireModel):
    """Base of a table's public description."""

    table_id: Id
    game: Str
    seats: Seq[SeatInfo]
    """One entry per seat, in seat order."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for players, ``playing``, or ``finished`` (a rematch may restart it)."""
    turn_seconds: TurnSeconds | None
    """Time per turn; ``null``: no turn timer."""
    spectators: Count
    """How many connections are watching."""
    rematch: Seq[Seat]
    """Seats that asked for a rematch of the finished game."""
    bot_delay_ms: BotDelayMs | None = None
    """The pause before each bot move, in milliseconds, as the creator set it (``create_table``'s
    ``bot_delay_ms``); ``null``: the server's default pace."""
    record_id: Id | None = None
    """The record of the last game finished at this table, the one its ``game_over`` named
    (``get_record`` fetches it while the server keeps it): so that whoever comes to the table later,
    or resumes, learns it too. ``null`` until a game has finished here (or when its record could not
    be stored)."""
    private: Bool = False
    """Since 1.1 (``private_tables``): seats are taken with the table's invite code only (anyone may
    watch)."""
    open_bot_seats: Bool = False
    """Feature ``bot_seats``: anyone may take a bot's seat at this untimed table (``create_table``'s
    ``open_bot_seats``)."""
    rated: Bool = False
    """Feature ``ratings``: the table's games are rated (``create_table.rated``)."""
    hand_pause_ms: HandPauseMs | None = None
    """Feature ``hand_pause``: the pause between hands as the creator set it (``create_table``'s
    ``hand_pause_ms``); ``null``: the server's default (``hello.limits.hand_pause_ms`` where a human
    sits, none at a table of bots only)."""

    @property
    def players(self) -> int:
        """The number of seats the options call for."""
        raise NotImplementedError

    @model_validator(mode="after")
    def _one_entry_per_seat(self) -> BaseTable:
        if [s.seat for s in self.seats] != list(range(self.players)):
            raise ValueError(f"seats must list seats 0..{self.players - 1} in order")
        return self


class MoonTable(BaseTable):
    """A Three-Player Moon table."""

    game: Literal["moon"]
    options: MoonOptions
    """Every option, defaults included."""

    @property
    def players(self) -> int:
        """Always 3."""
        return 3

    @model_validator(mode="after")
    def _all_options(self) -> MoonTable:
        check_all_fields_set(self.options)
        return self


class StraightTable(BaseTable):
    """A Straight Dominoes table."""

    game: Literal["straight"]
    options: StraightOptions
    """Every option, defaults included; ``partnerships`` is true or false, never ``null``."""

    @property
    def players(self) -> int:
        """From the options."""
        return self.options.players

    @model_validator(mode="after")
    def _all_options(self) -> StraightTable:
        check_all_fields_set(self.options)
        if self.options.partnerships is None:
            raise ValueError("partnerships must be resolved to true or false")
        return self


class Texas42Table(BaseTable):
    """A Texas 42 table."""

    game: Literal["texas42"]
    options: TexasOptions
    """Every option, defaults included."""

    @property
    def players(self) -> int:
        """Always 4."""
        return 4

    @model_validator(mode="after")
    def _all_options(self) -> Texas42Table:
        check_all_fields_set(self.options)
        return self


TableInfo = Annotated[MoonTable | StraightTable | Texas42Table, Field(discriminator="game")]
"""A table's public description."""


class ListTables(CommandBase):
    """Ask for every table. Reply: ``table_list``."""

    type: Literal["list_tables"]


class TableList(ReplyBase):
    """Every table on the server. Changes arrive as ``lobby_changed`` while in the lobby."""

    type: Literal["table_list"]
    tables: Seq[TableInfo]


class TableCreated(ReplyBase):
    """The reply to ``create_table``: the new table. (Others in the lobby hear of it in ``lobby_changed``.)"""

    type: Literal["table_created"]
    table: TableInfo
    invite: Token | None = None
    """A private table's invite code (to its creator only): whoever is to sit there passes it in ``join``
    or ``take_seat``. ``null`` for an open table."""


class TableUpdated(ServerMessageBase):
    """A table's seats, status, spectators or rematch requests changed. Pushed at once to the connections
    at that table (the lobby hears of it in ``lobby_changed``)."""

    type: Literal["table_updated"]
    table: TableInfo


class TableRemoved(ServerMessageBase):
    """A table is gone. Pushed at once to the connections that were at it (the lobby hears of it in
    ``lobby_changed``)."""

    type: Literal["table_removed"]
    table_id: Id


class LobbyChanged(ServerMessageBase):
    """What changed in the table list since the last push, pushed to the connections in the lobby.

    One message carries many tables, so the lobby's traffic grows with the pushes, not with the
    tables: a server sends it at most every fraction of a second (a busy server may send several in
    a row, when the changes would not fit one frame). Apply ``tables`` then ``removed`` to the list
    ``list_tables`` gave.
    """

    type: Literal["lobby_changed"]
    tables: Seq[TableInfo]
    """Tables created or changed, each in its latest state."""
    removed: Seq[Id]
    """Ids of tables that are gone."""


class BaseCreateTable(CommandBase):
    """Base of ``create_table``."""

    type: Literal["create_table"]
    game: Str
    bots: Seq[Seat] = ()
    """Seats a bot plays from the start."""
    bot_levels: Seq[BotLevel] = ()
    """The level of each bot in ``bots``, in the same order; omitted: every bot is ``basic``. Feature
    ``bot_levels`` (a server that does not list it in ``hello.features`` rejects the field)."""
    turn_seconds: TurnSeconds | None = 30
    """Time per turn; ``null`` asks for no turn timer (a server may refuse: ``invalid_options``)."""
    seat: Seat | None = 0
    """The creator's seat; ``null`` to create the table without sitting."""
    bot_delay_ms: BotDelayMs | None = None
    """How long each bot waits before it moves, in milliseconds, 0..10000 (only when ``hello.features``
    lists ``bot_delay``). At this pace a table of bots only, created to be watched (``seat: null``, then
    ``spectate``), can be followed. ``null`` or omitted: the server's default, a short pause where a
    human sits and none at all at a table of bots only."""
    hand_pause_ms: HandPauseMs | None = None
    """Feature ``hand_pause``: how long the table pauses between hands, in milliseconds, 0..60000 (0: no
    pause), so that its players can look at the hand's result; ``ready`` ends it early. ``null`` or
    omitted: the server's default (``hello.limits.hand_pause_ms``) where a human sits, and none at a table
    of bots only (set it to give a watched bots-only table its pause)."""
    private: Bool = False
    """Feature ``private_tables``: only those given the invite code (in ``table_created``) may sit; others
    get ``not_invited``. An open table seats anyone; at an open untimed table, a seat held by anyone but
    its creator plays on the server's default turn timer, so that no stranger can stall it."""
    open_bot_seats: Bool = False
    """Feature ``bot_seats``: at an untimed table, a bot's seat goes only to those the creator admits:
    the creator, and at a private table those with its invite code; others' ``take_seat`` gets
    ``not_invited``. True opens the bots' seats of an open untimed table to anyone (who then plays on
    the server's turn timer, as above). Timed tables are not concerned."""
    rated: Bool = False
    """Feature ``ratings``: rate this table's games (section 5, "Rated games"). A rated table is timed
    (``turn_seconds`` null: ``invalid_options``) and seats signed-in players and bots only: its creator, and
    whoever joins or takes a seat, must be signed in (``not_signed_in``)."""

    @property
    def players(self) -> int:
        """The number of seats the options call for."""
        raise NotImplementedError

    @model_validator(mode="after")
    def _seats_fit(self) -> BaseCreateTable:
        taken = [*self.bots, *([] if self.seat is None else [self.seat])]
        # Error types the codec turns into these error codes (a well-formed command the server refuses).
        if len(set(taken)) != len(taken):
            raise PydanticCustomError("invalid_options", "bots and seat must name different seats")
        if any(s >= self.players for s in taken):
            raise PydanticCustomError("no_such_seat", "seats are 0..{last}", {"last": self.players - 1})
        if self.bot_levels and len(self.bot_levels) != len(self.bots):
            raise ValueError("bot_levels must give one level per seat in bots")
        return self


def seats_below(players: int) -> dict[str, Any]:
    """A JSON Schema saying ``create_table``'s seats are below ``players`` (the model checks it too).

    >>> seats_below(3)["properties"]["bots"]
    {'items': {'maximum': 2}}
    """
    return {"properties": {"seat": {"maximum": players - 1}, "bots": {"items": {"maximum": players - 1}}}}


def _straight_seats(players: int) -> dict[str, Any]:
    options = {"properties": {"players": {"const": players}}, "required": ["players"]}
    return {"if": {"properties": {"options": options}, "required": ["options"]}, "then": seats_below(players)}


class CreateMoonTable(BaseCreateTable):
    """Create a Moon table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    model_config = ConfigDict(json_schema_extra={"allOf": [seats_below(3)]})

    game: Literal["moon"]
    options: MoonOptions = MoonOptions()
    """Omitted options take their defaults."""

    @property
    def players(self) -> int:
        """Always 3."""
        return 3


class CreateStraightTable(BaseCreateTable):
    """Create a Straight table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    model_config = ConfigDict(json_schema_extra={"allOf": [_straight_seats(2), _straight_seats(3)]})

    game: Literal["straight"]
    options: StraightOptions = StraightOptions()
    """Omitted options take their defaults."""

    @property
    def players(self) -> int:
        """From the options."""
        return self.options.players


class CreateTexas42Table(BaseCreateTable):
    """Create a Texas 42 table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    game: Literal["texas42"]
    options: TexasOptions = TexasOptions()
    """Omitted options take their defaults."""

    @property
    def players(self) -> int:
        """Always 4."""
        return 4


CreateTable = Annotated[
    CreateMoonTable | CreateStraightTable | CreateTexas42Table, Field(discriminator="game")
]


class Join(CommandBase):
    """Sit in an empty seat. Reply: ``seated``, then a ``snapshot``."""

    type: Literal["join"]
    table_id: Id
    seat: Seat
    invite: Token | None = None
    """Feature ``private_tables``: a private table's invite code."""


class TakeSeat(CommandBase):
    """Take over a bot's seat. Reply: ``seated``, then ``snapshot``; the bot plays on until the hand ends."""

    type: Literal["take_seat"]
    table_id: Id
    seat: Seat
    invite: Token | None = None
    """Feature ``private_tables``: a private table's invite code."""


class Seated(ReplyBase):
    """You hold a seat. Keep ``token``: it resumes your session after a disconnection."""

    type: Literal["seated"]
    table_id: Id
    seat: Seat
    token: Token


class Spectate(CommandBase):
    """Watch a table. Reply: ``snapshot`` (with no hidden tiles); then its events."""

    type: Literal["spectate"]
    table_id: Id


class Leave(CommandBase):
    """Stop playing at or watching a table. A seat left during a game is played by the server."""

    type: Literal["leave"]
    table_id: Id


class Rematch(CommandBase):
    """Ask for a new game at a finished table; it starts when every seated human has asked."""

    type: Literal["rematch"]
    table_id: Id


class SeatStatus(ServerMessageBase):
    """A seat's player connected or disconnected, or the server started or stopped playing for it."""

    type: Literal["seat_status"]
    table_id: Id
    seat: Seat
    connected: Bool
    auto: Bool


class ChatCommand(CommandBase):
    """Say something at a table (you must be seated or watching)."""

    type: Literal["chat"]
    table_id: Id
    text: ChatText


CHAT_HISTORY_LINES = 50
"""How many of a table's latest chat lines a ``snapshot`` carries (``Snapshot.chat``)."""


class ChatLine(WireModel):
    """One line said at a table, as a ``snapshot``'s chat history holds it."""

    seat: Seat | None
    """The speaker's seat; ``null`` for a spectator (or the server)."""
    name: Name
    text: ChatText


class ChatMessage(ServerMessageBase):
    """Someone said something at a table."""

    type: Literal["chat"]
    table_id: Id
    seat: Seat | None
    """The speaker's seat; ``null`` for a spectator (or the server)."""
    name: Name
    text: ChatText
