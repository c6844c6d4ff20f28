"""The lobby: listing, creating, joining, watching and leaving tables; seat status and chat.

A table's ``game`` selects its ``options`` model, so ``create_table`` and the table
listing each hold the game's own model (:data:`~boneyard.protocol.wiregames.TableInfo`,
:data:`~boneyard.protocol.wiregames.CreateTable`: chosen by ``game`` through the registry of games)
inside the message union keyed by ``type``. What every table has is in :mod:`boneyard.protocol.tables`.

>>> from boneyard.protocol.moon import MoonOptions
>>> MoonTable(table_id="t1", game="moon", options=MoonOptions(all_pass="redeal", target=21),
...           seats=[SeatInfo(seat=s, name=None, bot=False, connected=False, auto=False) for s in range(3)],
...           status="waiting", turn_seconds=30, spectators=0, rematch=[]).players
3
"""

from __future__ import annotations

from typing import Literal

from boneyard.protocol.envelope import CommandBase, ReplyBase, ServerMessageBase
from boneyard.protocol.moon import CreateMoonTable, MoonTable
from boneyard.protocol.straight import CreateStraightTable, StraightTable
from boneyard.protocol.tables import BaseCreateTable, BaseTable, SeatInfo, seats_below
from boneyard.protocol.texas42 import CreateTexas42Table, Texas42Table
from boneyard.protocol.values import Bool, ChatText, Id, Name, Seat, Seq, Token, WireModel
from boneyard.protocol.wiregames import CreateTable, TableInfo

__all__ = [
    "CHAT_HISTORY_LINES",
    "BaseCreateTable",
    "BaseTable",
    "ChatCommand",
    "ChatLine",
    "ChatMessage",
    "CreateMoonTable",
    "CreateStraightTable",
    "CreateTable",
    "CreateTexas42Table",
    "Join",
    "Leave",
    "ListTables",
    "LobbyChanged",
    "MoonTable",
    "Rematch",
    "SeatInfo",
    "SeatStatus",
    "Seated",
    "Spectate",
    "StraightTable",
    "TableCreated",
    "TableInfo",
    "TableList",
    "TableRemoved",
    "TableUpdated",
    "TakeSeat",
    "Texas42Table",
    "seats_below",
]


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
