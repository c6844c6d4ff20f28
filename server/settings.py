"""The server's settings: flags override ``BONEYARD_*`` environment variables, which override the defaults.

>>> Settings().port
8765
>>> Settings(port=9000, host="0.0.0.0").port
9000
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal, Self

from pydantic import Field, IPvAnyNetwork, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from boneyard.protocol.values import MAX_CHAT_CHARS
from boneyard.server.storage.db import default_path

LogLevel = Literal["debug", "info", "warning", "error"]


class Settings(BaseSettings):
    """Everything an operator may set. Every field is also ``BONEYARD_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(
        env_prefix="BONEYARD_", extra="forbid", frozen=True, use_attribute_docstrings=True
    )

    host: str = "127.0.0.1"
    """Address to listen on (``0.0.0.0`` in a container)."""
    port: int = Field(default=8765, ge=0, le=65535)
    """Port for websockets, ``/healthz`` and ``/metrics`` (0: any free port)."""
    web: bool = True
    """Serve the browser client on the same port: the lobby at ``/``, a table at ``/t/ID``, a replay at
    ``/replay/ID``, its files under ``/assets/``; ``false``: websockets, ``/healthz`` and ``/metrics``
    only."""
    log_level: LogLevel = "info"
    """The least severe log records written (to standard error)."""
    log_format: Literal["text", "json"] = "text"
    """Log lines as text for people, or one JSON object per line for log collectors."""
    metrics_token_sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    """The SHA-256 (hex) of a bearer token that ``/metrics`` then asks for (``Authorization: Bearer
    TOKEN``; 401 without it): the server keeps no usable copy of the token. ``None``: ``/metrics`` is
    open to whoever reaches the port. Make one:
    ``openssl rand -hex 32 | tr -d '\\n' > token; sha256sum < token``."""

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
    commit_window_ms: float = Field(default=5.0, ge=0, le=100)
    """With ``db_sync = full``, a commit starts at most once per this many milliseconds: what the tables
    write meanwhile shares that commit's fsync and thread handover. A write after a quiet spell is
    committed at once; when commits would come faster, frames wait up to this long more for the commit
    of what came before them. 5 (the default): at 10,000 human-paced connections about a sixth less CPU
    per action than 0 (9-27 %), and the same p99, for about 3 ms more median latency (bench/README.md);
    0: each commit starts as soon as the last one ends (the least latency, the most fsyncs)."""

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
    max_connections: int | None = Field(default=None, ge=1)
    """Connections (those still in their HTTP handshake included) beyond this are closed with 4007 right
    after the handshake. ``None``: the descriptor limit (``ulimit -n``, raised to its hard limit at start)
    less a fifth of it, at least 64: room for the database, logs, ``/healthz`` and the 4007 replies
    themselves. A value above that is lowered to it."""
    max_tables: int = Field(default=5_000, ge=1)
    """Tables per server; ``create_table`` beyond it gets ``unavailable``."""
    tables_per_session: int = Field(default=4, ge=1)
    """Tables one player may own at once (created, and not yet removed); ``create_table`` beyond it gets
    ``unavailable``: one client cannot fill ``max_tables``."""
    tables_per_address: int = Field(default=32, ge=1)
    """Tables the players of one IP address may own at once (behind a proxy, set ``trusted_proxies``, or
    every player shares the proxy's address)."""
    trusted_proxies: Annotated[tuple[IPvAnyNetwork, ...], NoDecode] = ()
    """Reverse proxies in front of the server, comma-separated addresses or networks (``10.0.0.0/8``,
    ``::1``): on their connections only, the client's address is read from ``Forwarded`` or
    ``X-Forwarded-For`` (for ``tables_per_address`` and the log). Empty: those headers are ignored."""
    empty_table_seconds: float = Field(default=60.0, gt=0)
    """A table nobody sits at or watches (created with ``seat: null``, or restored so) is removed after
    this long."""
    max_bot_tables: int = Field(default=64, ge=1)
    """Bots-only tables (every seat a bot at ``create_table``) the server runs at once."""
    bot_tables_per_session: int = Field(default=1, ge=1)
    """Bots-only tables one player may run at once."""
    bots_only_move_seconds: float = Field(default=0.25, ge=0)
    """Pause before each move at a table with no human seated: bots-only games run at a pace, so that
    they never take the CPU from tables with people at them. While somebody watches such a table (its
    creator set no pace), its bots move at ``bot_delay_seconds``, never faster than this."""
    reply_bytes_per_command: int = Field(default=4096, ge=256)
    """A reply longer than this costs one more command of the rate limit per this many bytes (a big
    ``record`` costs many): what a client may make the server send is metered, not only what it sends."""
    lobby_push_seconds: float = Field(default=0.25, ge=0)
    """Lobby updates are coalesced over this long: each changed table is pushed once, in its latest state."""
    chat_max_chars: int = Field(default=280, ge=1, le=MAX_CHAT_CHARS)
    """The longest chat line accepted (``chat_too_long`` beyond)."""
    chat_per_minute: int = Field(default=20, ge=1)
    """Chat lines a session may send per minute (beyond: ``rate_limited``)."""
    max_spectators: int = Field(default=50, ge=0)
    """Connections that may watch one table at once (``spectate`` beyond it gets ``unavailable``)."""
    spectator_chat_per_minute: int = Field(default=10, ge=1)
    """Chat lines a table's spectators may send per minute, all of them together (every line goes to
    everyone at the table); beyond: ``rate_limited``."""

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
    """Pause before a bot acts at a table with humans, so people can follow (bots-only tables:
    ``bots_only_move_seconds``). A table's creator may set its own pace instead (``create_table``'s
    ``bot_delay_ms``); a bots-only table never moves faster than ``bots_only_move_seconds``."""
    hand_pause_seconds: float = Field(default=10.0, ge=0, le=60)
    """The pause between hands at a table where a human sits, so that the players can look at the hand's
    result: no hand is dealt and no clock runs until every seated human has sent ``ready`` or the pause is
    over. A table's creator may set its own (``create_table``'s ``hand_pause_ms``); a table of bots only
    pauses only when its creator asks. 0: no pause."""
    sign_ins_per_minute: int = Field(default=10, ge=1, le=10_000)
    """Feature ``accounts``: sign-in attempts (``identify`` with ``sign_in``) per minute from one address,
    and per account name; beyond: ``rate_limited`` and close 4001."""
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
    deal_seed_wait_ms: int = Field(default=1000, ge=0, le=10_000)
    """How long a starting game waits for the seated humans' seeds (``contribute_seed``) before its first
    deal, in milliseconds; it deals as soon as every human seat has sent one, and at once when no human is
    seated. 0: never wait (the deals are then fixed by the server's seed alone, still committed to)."""
    seed: int | None = None
    """Seed every table's deals and bots (per table and game) for reproducible runs; ``None``: random.
    The deals are still committed to and verifiable, but predictable to whoever knows this seed: for tests."""
    uvloop: bool = True
    """``serve`` runs on uvloop (libuv's event loop) when it is installed: at 10,000 connections, some
    10 % less CPU and half the p99 latency of the standard loop (``bench/README.md``); false: asyncio's."""
    gc_freeze_seconds: float = Field(default=0.2, ge=0)
    """How often every object is frozen out of the garbage collector's reach (collections otherwise stall
    the loop for 10s to 100s of ms with thousands of connections); 0: never. See ``BoneyardServer``."""
    records_in_memory: int = Field(default=2_000, ge=1)
    """Finished games' records kept by the in-memory store (oldest dropped first)."""

    cluster: str | None = None
    """Join a cluster of nodes on NATS with JetStream at this URL (``nats://HOST:4222``; several,
    comma-separated, for a NATS cluster): one lobby across the nodes, a table on the node that created
    it, commands routed to it from the others. ``None``: a single node (``db``, ``durable``).
    Needs the ``cluster`` extra (``pip install 'boneyard[cluster]'``)."""
    cluster_lease_seconds: float = Field(default=3.0, ge=0.5, le=60)
    """How long a cluster node's hold on its tables outlives its last renewal (renewed every third of
    it): a killed or cut-off node's tables are taken over by another node within about this long."""
    cluster_marker_seconds: float = Field(default=300.0, ge=1, le=86_400)
    """How long the delete markers of removed tables (in the cluster's directory and ownership
    buckets) and of keys a rename moved or a link code spent (accounts and ratings buckets) stay before a
    node purges them, checked this often: every node has long seen them."""
    node: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    """This node's name in the cluster (letters, digits, ``-`` and ``_``); ``None``: the host name and
    the port (the process id with port 0). Two nodes must never share one."""

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @model_validator(mode="after")
    def _resume_fits_queue(self) -> Self:
        # A resume replays the whole buffer at once: it must fit the send queue.
        if self.resume_buffer_frames > self.send_queue_frames:
            raise ValueError("resume_buffer_frames must not exceed send_queue_frames")
        return self


PREFIX = "BONEYARD_"


def variable(name: str) -> str:
    """The environment variable of a setting.

    >>> variable("max_tables")
    'BONEYARD_MAX_TABLES'
    """
    return PREFIX + name.upper()


def describe() -> str:
    """Every setting: its variable, default and meaning (for ``serve --help``).

    >>> "BONEYARD_MAX_TABLES (default 5000)" in describe()
    True
    """
    lines = ["settings (environment variables; the flags above win over them):"]
    for name, field in Settings.model_fields.items():
        default = field.get_default(call_default_factory=True)
        shown = str(default).lower() if isinstance(default, bool) else default
        shown = "none" if default in (None, ()) else shown
        lines.append(f"  {variable(name)} (default {shown})")
        lines.extend(
            textwrap.wrap(
                _plain(field.description or ""), 96, initial_indent=" " * 6, subsequent_indent=" " * 6
            )
        )
    return "\n".join(lines)


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """One warning per ``BONEYARD_*`` variable that names no setting (a typo is otherwise silently ignored).

    >>> unknown_variables({"BONEYARD_MAX_TABLE": "9", "BONEYARD_PORT": "1", "HOME": "/"})
    ['unknown setting BONEYARD_MAX_TABLE (ignored); did you mean BONEYARD_MAX_TABLES?']
    """
    known = [variable(name) for name in Settings.model_fields]
    warnings = []
    for name in sorted(environ):
        if name.upper().startswith(PREFIX) and name.upper() not in known:
            close = difflib.get_close_matches(name.upper(), known, n=1)
            hint = f"; did you mean {close[0]}?" if close else "; see boneyard-server serve --help"
            warnings.append(f"unknown setting {name} (ignored){hint}")
    return warnings


def _plain(text: str) -> str:
    return " ".join(text.replace("``", "").split())
