"""The server's settings: flags override ``BONEYARD_*`` environment variables, which override the defaults.

>>> Settings().port
8765
>>> Settings(port=9000, host="0.0.0.0").port
9000
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Self

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from boneyard.protocol.values import MAX_CHAT_CHARS
from boneyard.server.storage.db import default_path

LogLevel = Literal["debug", "info", "warning", "error"]


class Settings(BaseSettings):
    """Everything an operator may set. Every field is also ``BONEYARD_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix="BONEYARD_", extra="forbid", frozen=True)

    host: str = "127.0.0.1"
    """Address to listen on (``0.0.0.0`` in a container)."""
    port: int = Field(default=8765, ge=0, le=65535)
    """Port for websockets, ``/healthz`` and ``/metrics`` (0: any free port)."""
    log_level: LogLevel = "info"
    log_format: Literal["text", "json"] = "text"

    db: Path = Field(default_factory=default_path)
    """The SQLite database holding tables, games in progress, resume tokens and finished games' records
    (default ``$XDG_DATA_HOME/boneyard/boneyard.db``, else ``~/.local/share/boneyard/boneyard.db``)."""
    durable: bool = True
    """Keep state in ``db``, every action committed before anyone hears of it, so that a restart or
    a crash loses no game; ``false``: memory only (tests, local games, benchmarks)."""
    db_sync: Literal["full", "normal"] = "full"
    """``full``: each commit is fsynced (in a worker thread) before its frames go out, so nothing a
    client saw is lost even to power loss or an OS crash. ``normal``: commits are written to the
    OS at once, on the event loop, without fsync: a killed or crashed server still loses nothing,
    but power loss or an OS crash may take back the last moments; the latency of ``full``'s fsync
    and thread handover is gone."""

    max_frame_bytes: int = Field(default=4096, ge=256, le=4096)
    """The longest frame a client may send; longer closes the connection with 1009.

    At most the protocol's own bound (4096): a longer command could not be decoded anyway."""
    commands_per_second: int = Field(default=20, ge=1)
    """Sustained commands per second per connection (token bucket rate)."""
    command_burst: int = Field(default=40, ge=1)
    """Commands a connection may send at once (token bucket size); a flood beyond it closes with 4005."""
    send_queue_frames: int = Field(default=512, ge=16)
    """Frames queued for a slow reader before it is disconnected with 4004."""
    socket_send_buffer: int | None = Field(default=None, ge=4096)
    """The kernel send buffer of each connection (``SO_SNDBUF``); ``None``: the system's, autotuned
    (up to 4 MiB on Linux). Smaller bounds kernel memory per slow reader and makes 4004 come sooner."""
    max_connections: int = Field(default=20_000, ge=1)
    """Connections beyond this are closed with 4007 right after the handshake."""
    max_tables: int = Field(default=5_000, ge=1)
    """Tables per server; ``create_table`` beyond it gets ``unavailable``."""
    lobby_push_seconds: float = Field(default=0.25, ge=0)
    """Lobby updates are coalesced over this long: each changed table is pushed once, in its latest state."""
    chat_max_chars: int = Field(default=280, ge=1, le=MAX_CHAT_CHARS)
    chat_per_minute: int = Field(default=20, ge=1)
    """Chat lines a session may send per minute (beyond: ``rate_limited``)."""

    turn_seconds: int = Field(default=30, ge=5, le=3600)
    """Turn time of a table whose ``create_table`` does not name one."""
    allow_untimed_tables: bool = True
    """Whether ``create_table`` may ask for no turn timer (``turn_seconds: null``)."""
    timeouts_before_auto: int = Field(default=2, ge=1)
    """Consecutive timeouts after which the server plays every turn of a connected player's seat."""
    auto_turn_seconds: float = Field(default=2.0, ge=0)
    """How long the server waits before playing for a connected player it plays for (after timeouts):
    time for them to take the seat back by acting."""
    grace_seconds: float = Field(default=60.0, ge=0)
    """How long a dropped player keeps their seat before the bot plays for them."""
    session_seconds: float = Field(default=1800.0, gt=0)
    """How long after the grace period a dropped player's token stays valid; then the seat is given up."""
    handshake_seconds: float = Field(default=10.0, gt=0)
    """Time a new connection has to send ``identify`` (else closed with 4006)."""
    heartbeat_seconds: int = Field(default=20, ge=1)
    """Websocket ping interval; a client that has not answered the previous ping is closed with 4006."""
    close_seconds: float = Field(default=2.0, gt=0)
    """How long a closing handshake may take before the connection is dropped."""
    resume_buffer_frames: int = Field(default=32, ge=16)
    """Frames kept per seated session for resume; a client further behind gets a fresh snapshot.

    Every frame kept costs memory for every seated connection, so this stays small: a short
    drop at human pace misses a handful of frames, and a longer one gets a snapshot."""
    bot_delay_seconds: float = Field(default=0.5, ge=0)
    """Pause before a bot acts at a table with humans, so people can follow; bots-only tables never wait.
    A table's creator may set its own pace instead (``create_table``'s ``bot_delay_ms``), bots-only too."""
    away_bot_level: Literal["basic", "good", "strong"] = "good"
    """The bot that plays for a player who timed out or is away (``auto``); bot seats have their own level."""
    bot_workers: int = Field(default=1, ge=0, le=64)
    """Processes the searching bots (``good``, ``strong``) think in, off the event loop; 0: on the loop
    (only for tests and tiny servers: a strong move stalls every table for up to some 200 ms)."""
    bot_nice: int = Field(default=5, ge=0, le=19)
    """How much lower the bot workers' CPU priority is than the server's (``nice``), so that human tables
    keep their latency when the machine is busy."""
    shutdown_seconds: float = Field(default=4.0, gt=0)
    """How long SIGTERM waits for clients to close before dropping them."""
    seed: int | None = None
    """Seed every table's deals and bots (per table and game) for reproducible runs; ``None``: random."""
    uvloop: bool = True
    """``serve`` runs on uvloop (libuv's event loop) when it is installed: at 10,000 connections, some
    10 % less CPU and half the p99 latency of the standard loop (``bench/README.md``); false: asyncio's."""
    gc_freeze_seconds: float = Field(default=0.2, ge=0)
    """How often every object is frozen out of the garbage collector's reach (collections otherwise stall
    the loop for 10s to 100s of ms with thousands of connections); 0: never. See ``BoneyardServer``."""
    records_in_memory: int = Field(default=2_000, ge=1)
    """Finished games' records kept by the in-memory store (oldest dropped first)."""

    @model_validator(mode="after")
    def _resume_fits_queue(self) -> Self:
        # A resume replays the whole buffer at once: it must fit the send queue.
        if self.resume_buffer_frames > self.send_queue_frames:
            raise ValueError("resume_buffer_frames must not exceed send_queue_frames")
        return self
