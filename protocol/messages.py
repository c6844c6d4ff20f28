"""The two message unions, discriminated by ``type``, their module-level TypeAdapters, and
:func:`unfolded` (feature ``turn_in_event``).

>>> COMMAND_ADAPTER.validate_python({"type": "ping", "id": 1})
Ping(type='ping', id=1)
>>> sorted(COMMAND_TYPES)[:3]
['act', 'cancel_seek', 'chat']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, get_args

from pydantic import Field, TypeAdapter

from boneyard.protocol.accounts import LinkCodeMessage, LinkDevice
from boneyard.protocol.deals import ContributeSeed, DealCommitment, DealRevealed, SeedContributed
from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.errors import Error
from boneyard.protocol.events import EventMessage
from boneyard.protocol.handshake import Hello, Identify, Ok, Ping, Pong, Welcome
from boneyard.protocol.lobby import (
    ChatCommand,
    ChatMessage,
    CreateTable,
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
from boneyard.protocol.moderation import Mute, Report, Unmute
from boneyard.protocol.pause import HandPause, Ready
from boneyard.protocol.play import Act, EventMessageBase, Turn
from boneyard.protocol.ratings import GetLeaderboard, GetProfile, Leaderboard, Profile, RatingChanges
from boneyard.protocol.records import GetRecord, RecordMessage
from boneyard.protocol.seeks import CancelSeek, Seek, Seeks
from boneyard.protocol.views import Snapshot
from boneyard.protocol.wiregames import dispatched_kind, models_of

ClientCommand = Annotated[
    Identify
    | Ping
    | ListTables
    | CreateTable
    | Join
    | TakeSeat
    | Spectate
    | Leave
    | Rematch
    | Act
    | ChatCommand
    | GetRecord
    | ContributeSeed
    | Ready
    | LinkDevice
    | GetProfile
    | GetLeaderboard
    | Seek
    | CancelSeek
    | Mute
    | Unmute
    | Report,
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
    | EventMessage
    | SeatStatus
    | ChatMessage
    | RecordMessage
    | DealCommitment
    | SeedContributed
    | DealRevealed
    | HandPause
    | LinkCodeMessage
    | RatingChanges
    | Profile
    | Leaderboard
    | Seeks,
    Field(discriminator="type"),
]
"""Every server-to-client message."""

COMMAND_ADAPTER: TypeAdapter[ClientCommand] = TypeAdapter(ClientCommand)
"""Validates a decoded frame as a :data:`ClientCommand`."""

SERVER_MESSAGE_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Validates a decoded frame as a :data:`ServerMessage`."""


def _models(union: Any) -> tuple[type[Any], ...]:
    # Flatten the union into its model classes; a field chosen by game stands for each game's model.
    out: list[type[Any]] = []
    for member in get_args(get_args(union)[0]):
        kind = dispatched_kind(member)
        out.extend(models_of(kind) if kind is not None else (member,))
    return tuple(out)


COMMAND_MODELS: tuple[type[CommandBase], ...] = _models(ClientCommand)
"""Every concrete command model, in union order (each built-in game's ``create_table``)."""

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
    "link_device": "link_code",
    "get_profile": "profile",
    "get_leaderboard": "leaderboard",
    "seek": "ok",
    "cancel_seek": "ok",
    "mute": "ok",
    "unmute": "ok",
    "report": "ok",
}
"""The reply each command gets when it succeeds (``ok`` only when the command had an ``id``)."""


def unfolded(message: Any) -> tuple[Any, ...]:
    """The messages a server message stands for: with feature ``turn_in_event``, an ``event`` carrying
    ``turn`` (and ``reply_to``) stands for the event, then the ``turn``, then the ``ok`` that a
    connection without the feature gets as separate messages. All of them have the carrier's ``seq``.
    Any other message stands for itself; a client can handle both shapes with one code path.

    >>> from boneyard.protocol.codec import decode_server_message
    >>> folded = {"type": "event", "seq": 9, "table_id": "t1", "game": "moon", "auto": False,
    ...     "event": {"type": "passed", "seat": 0}, "reply_to": 4,
    ...     "turn": {"seat": 1, "time_left_ms": 30000, "legal_actions": [{"type": "pass"}]}}
    >>> for part in unfolded(SERVER_MESSAGE_ADAPTER.validate_python(folded)):
    ...     print(repr(part))  # doctest: +NORMALIZE_WHITESPACE
    MoonEventMessage(type='event', seq=9, table_id='t1', game='moon', auto=False,
        event=Passed(type='passed', seat=0), turn=None, reply_to=None)
    Turn(type='turn', seq=9, table_id='t1', seat=1, time_left_ms=30000,
        legal_actions=(PassAction(type='pass'),))
    Ok(type='ok', seq=9, reply_to=4)
    """
    if not isinstance(message, EventMessageBase):
        return (message,)
    turn, reply_to = message.turn, message.reply_to
    if turn is None and reply_to is None:
        return (message,)
    parts: list[Any] = [message.model_copy(update={"turn": None, "reply_to": None})]
    if turn is not None:
        parts.append(
            Turn(
                type="turn",
                seq=message.seq,
                table_id=message.table_id,
                seat=turn.seat,
                time_left_ms=turn.time_left_ms,
                legal_actions=turn.legal_actions,
            )
        )
    if reply_to is not None:
        parts.append(Ok(type="ok", seq=message.seq, reply_to=reply_to))
    return tuple(parts)
