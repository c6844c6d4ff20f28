"""The two message unions, discriminated by ``type``, and their module-level TypeAdapters.

>>> COMMAND_ADAPTER.validate_python({"type": "ping", "id": 1})
Ping(type='ping', id=1)
>>> sorted(COMMAND_TYPES)[:3]
['act', 'chat', 'contribute_seed']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, get_args

from pydantic import Field, TypeAdapter

from boneyard.protocol.deals import ContributeSeed, DealCommitment, DealRevealed, SeedContributed
from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.errors import Error
from boneyard.protocol.game import Act, MoonEventMessage, StraightEventMessage, Turn
from boneyard.protocol.handshake import Hello, Identify, Ok, Ping, Pong, Welcome
from boneyard.protocol.lobby import (
    ChatCommand,
    ChatMessage,
    CreateMoonTable,
    CreateStraightTable,
    Join,
    Leave,
    ListTables,
    LobbyChanged,
    Rematch,
    Seated,
    SeatStatus,
    Spectate,
    TableCreated,
    TableList,
    TableRemoved,
    TableUpdated,
    TakeSeat,
)
from boneyard.protocol.pause import HandPause, Ready
from boneyard.protocol.records import GetRecord, RecordMessage
from boneyard.protocol.views import Snapshot

ClientCommand = Annotated[
    Identify
    | Ping
    | ListTables
    | Annotated[CreateMoonTable | CreateStraightTable, Field(discriminator="game")]
    | Join
    | TakeSeat
    | Spectate
    | Leave
    | Rematch
    | Act
    | ChatCommand
    | GetRecord
    | ContributeSeed
    | Ready,
    Field(discriminator="type"),
]
"""Every client-to-server command."""

ServerMessage = Annotated[
    Hello
    | Welcome
    | Pong
    | Ok
    | Error
    | TableList
    | TableCreated
    | TableUpdated
    | TableRemoved
    | LobbyChanged
    | Seated
    | Snapshot
    | Turn
    | Annotated[MoonEventMessage | StraightEventMessage, Field(discriminator="game")]
    | SeatStatus
    | ChatMessage
    | RecordMessage
    | DealCommitment
    | SeedContributed
    | DealRevealed
    | HandPause,
    Field(discriminator="type"),
]
"""Every server-to-client message."""

COMMAND_ADAPTER: TypeAdapter[ClientCommand] = TypeAdapter(ClientCommand)
"""Validates a decoded frame as a :data:`ClientCommand`."""

SERVER_MESSAGE_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validates a decoded frame as a :data:`ServerMessage`."""


def _models(union: Any) -> tuple[type[Any], ...]:
    # Flatten the (possibly nested, Annotated) unions into their model classes.
    out: list[type[Any]] = []
    for member in get_args(get_args(union)[0]):
        if isinstance(member, type):
            out.append(member)
        else:
            out.extend(_models(member))
    return tuple(out)


COMMAND_MODELS: tuple[type[CommandBase], ...] = _models(ClientCommand)
"""Every concrete command model, in union order."""

SERVER_MESSAGE_MODELS: tuple[type[ServerMessageBase], ...] = _models(ServerMessage)
"""Every concrete server message model, in union order."""


def _types(models: tuple[type[Any], ...]) -> frozenset[str]:
    return frozenset(get_args(m.model_fields["type"].annotation)[0] for m in models)


COMMAND_TYPES: frozenset[str] = _types(COMMAND_MODELS)
"""The ``type`` of every command."""

SERVER_MESSAGE_TYPES: frozenset[str] = _types(SERVER_MESSAGE_MODELS)
"""The ``type`` of every server message."""

REPLIES: Mapping[str, str] = {
    "identify": "welcome",
    "ping": "pong",
    "list_tables": "table_list",
    "create_table": "table_created",
    "join": "seated",
    "take_seat": "seated",
    "spectate": "snapshot",
    "leave": "ok",
    "rematch": "ok",
    "act": "ok",
    "chat": "ok",
    "get_record": "record",
    "contribute_seed": "ok",
    "ready": "ok",
}
"""The reply each command gets when it succeeds (``ok`` only when the command had an ``id``)."""
