"""The server's ``hello``: who it is, what it supports, and every limit a client must keep to.

Built once at start from the :class:`~boneyard.server.settings.Settings` (and the connection cap in
force), sent as the first frame of every connection.
"""

from __future__ import annotations

import logging

from boneyard.protocol import (
    FEATURE_ACCOUNTS,
    FEATURE_BOT_DELAY,
    FEATURE_BOT_LEVELS,
    FEATURE_BOT_SEATS,
    FEATURE_HAND_PAUSE,
    FEATURE_PRIVATE_TABLES,
    FEATURE_TURN_IN_EVENT,
    GameOffer,
    Hello,
    Limits,
)
from boneyard.protocol.deals import FEATURE as DEAL_FEATURE
from boneyard.protocol.deals import FIXED_SEED
from boneyard.protocol.moderation import FEATURE_MODERATION
from boneyard.protocol.ratings import FEATURE_RATINGS
from boneyard.protocol.seeks import FEATURE_SEEKS
from boneyard.protocol.values import MAX_HAND_PAUSE_MS
from boneyard.server.connection import BAD_FRAMES
from boneyard.server.games.registry import GAMES
from boneyard.server.settings import Settings
from boneyard.server.wire import body_of

log = logging.getLogger("boneyard.server")

SERVER_NAME = "boneyard/0.1.0"

FEATURES = (
    FEATURE_BOT_DELAY,
    DEAL_FEATURE,
    FEATURE_PRIVATE_TABLES,
    FEATURE_BOT_LEVELS,
    FEATURE_HAND_PAUSE,
    FEATURE_TURN_IN_EVENT,
    FEATURE_ACCOUNTS,
    FEATURE_BOT_SEATS,
    FEATURE_RATINGS,
    FEATURE_SEEKS,
    FEATURE_MODERATION,
)
"""What this server supports beyond protocol 1.0 (``hello.features``)."""


def features(settings: Settings) -> tuple[str, ...]:
    """``hello.features``: :data:`FEATURES`, and ``fixed_seed`` when the deals come from ``settings.seed``
    (every client is told that its deals are predictable: the setting is for tests)."""
    if settings.seed is None:
        return FEATURES
    log.warning("the deals come from a fixed seed (BONEYARD_SEED): predictable, for tests only")
    return (*FEATURES, FIXED_SEED)


def games() -> tuple[GameOffer, ...]:
    """``hello.games``: every game registered when the server starts, with its default seats."""
    return tuple(GameOffer(game=spec.name, players=spec.options_type().players) for spec in GAMES.values())


def hello_body(settings: Settings, max_connections: int) -> bytes:
    """The ``hello`` body (``max_connections``: the cap in force, within the descriptor limit)."""
    limits = Limits(
        max_frame_bytes=settings.max_frame_bytes,
        commands_per_second=settings.commands_per_second,
        command_burst=settings.command_burst,
        chat_max_chars=settings.chat_max_chars,
        send_queue_frames=settings.send_queue_frames,
        handshake_ms=max(1, round(settings.handshake_seconds * 1000)),
        bad_frames=BAD_FRAMES,
        rate_strikes=settings.command_burst,
        reply_bytes_per_command=settings.reply_bytes_per_command,
        chat_per_minute=settings.chat_per_minute,
        tables_per_session=settings.tables_per_session,
        empty_table_ms=max(1, round(settings.empty_table_seconds * 1000)),
        max_spectators=settings.max_spectators,
        spectator_chat_per_minute=settings.spectator_chat_per_minute,
        grace_ms=round(settings.grace_seconds * 1000),
        resume_frames=settings.resume_buffer_frames,
        max_connections=max_connections,
        max_tables=settings.max_tables,
        tables_per_address=settings.tables_per_address,
        bot_delay_ms=round(settings.bot_delay_seconds * 1000),
        bots_only_move_ms=round(settings.bots_only_move_seconds * 1000),
        hand_pause_ms=round(settings.hand_pause_seconds * 1000),
        max_hand_pause_ms=MAX_HAND_PAUSE_MS,
        sign_ins_per_minute=settings.sign_ins_per_minute,
    )
    return body_of(
        Hello(
            type="hello",
            seq=1,
            protocol=1,
            server=SERVER_NAME,
            limits=limits,
            heartbeat_seconds=settings.heartbeat_seconds,
            features=features(settings),
            games=games(),
        )
    )
