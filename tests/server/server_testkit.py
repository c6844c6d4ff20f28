"""A real protocol client for the server tests, and a server on an ephemeral loopback port.

Every frame a :class:`Player` receives is decoded strictly (``decode_server_message``) and its
``seq`` checked against the previous one, so every test also checks the envelope rules.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from boneyard.protocol import COMMAND_ADAPTER, ServerMessage, decode_server_message, encode, unfolded
from boneyard.server.app import BoneyardServer
from boneyard.server.settings import Settings

TIMEOUT = 10.0


@asynccontextmanager
async def running_server(**overrides: Any) -> AsyncIterator[BoneyardServer]:
    """A server on 127.0.0.1, port 0, in memory only; bots act at once and think on the loop, and clients
    that play at machine speed are not rate-limited, and games deal without waiting for players' seeds,
    unless the overrides say otherwise. Every test client comes from 127.0.0.1, so the per-address and
    per-server table quotas are lifted too."""
    options: dict[str, Any] = {
        "port": 0,
        "durable": False,
        # No bot worker process (tests of the workers ask for one): a stop waits for the worker's start,
        # about a second per server, the largest cost of the suite's hundreds of servers.
        "bot_workers": 0,
        "bot_delay_seconds": 0.0,
        "bots_only_move_seconds": 0.0,
        "commands_per_second": 10_000,
        "command_burst": 10_000,
        "tables_per_address": 10_000,
        "max_bot_tables": 10_000,
        "deal_seed_wait_ms": 0,  # the fair-deal tests ask for a wait explicitly
        "hand_pause_seconds": 0,  # the pause tests ask for one explicitly
        **overrides,
    }
    async with BoneyardServer(Settings(**options)) as server:
        yield server


async def http_get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """A plain HTTP GET on the server's port (``/healthz``, ``/metrics``): the status and the body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    more = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{more}Connection: close\r\n\r\n".encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


class Player:
    """One websocket connection speaking protocol v1."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.seq = 0
        self.log: list[ServerMessage] = []
        """Every message received, in order."""
        self.frames: list[bytes] = []
        self._backlog: deque[ServerMessage] = deque()
        self._ids = 0
        self.token: str | None = None
        self.seat: int | None = None
        self.table_id: str | None = None

    @classmethod
    async def connect(
        cls,
        url: str,
        name: str = "player",
        *,
        identify: bool = True,
        accept: tuple[str, ...] = (),
        **connect: Any,
    ) -> Player:
        """``accept``: the features the ``identify`` opts in to (``turn_in_event``)."""
        # No client-side flow control by default: a test that stops reading must not stall the
        # server's closing handshake at the end of the test.
        connect.setdefault("max_queue", None)
        ws = await websockets.connect(url, subprotocols=["boneyard.v1"], **connect)  # type: ignore[list-item]
        player = cls(ws, name)
        hello = await player.next()
        assert hello.type == "hello" and hello.seq == 1
        if identify:
            fields = {"accept": list(accept)} if accept else {}
            welcome = await player.request(type="identify", name=name, **fields)
            assert welcome.type == "welcome", welcome
            assert welcome.accepted == accept
        return player

    # -- sending ------------------------------------------------------------------------------------

    async def send(self, **command: Any) -> int:
        """Send a command (validated first, so the tests only send what they mean to); returns its id."""
        self._ids += 1
        await self.ws.send(encode(COMMAND_ADAPTER.validate_python({**command, "id": self._ids})))
        return self._ids

    async def request(self, **command: Any) -> ServerMessage:
        """Send a command and return its reply (other messages stay queued for :meth:`next`)."""
        sent = await self.send(**command)
        return await self.reply_to(sent)

    async def reply_to(self, command_id: int) -> ServerMessage:
        skipped: list[ServerMessage] = []
        try:
            while True:
                message = await self.next()
                if getattr(message, "reply_to", None) == command_id:
                    return message
                skipped.append(message)
        finally:
            self._backlog.extendleft(reversed(skipped))

    # -- receiving ----------------------------------------------------------------------------------

    async def _read(self, timeout: float) -> ServerMessage:
        async with asyncio.timeout(timeout):
            frame = await self.ws.recv()
        assert isinstance(frame, bytes), "the server sends binary frames only"
        message = decode_server_message(frame)
        assert message.seq == self.seq + 1, f"{self.name}: seq {message.seq} after {self.seq}"
        self.seq = message.seq
        self.frames.append(frame)
        self.log.append(message)
        if message.type == "seated":
            self.token, self.seat, self.table_id = message.token, message.seat, message.table_id
        return message

    async def next(self, timeout: float = TIMEOUT) -> ServerMessage:
        if self._backlog:
            return self._backlog.popleft()
        return await self._read(timeout)

    async def until(self, match: Callable[[ServerMessage], bool], timeout: float = TIMEOUT) -> ServerMessage:
        """Read until a message matches (the ones before it are consumed)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                if match(message):
                    return message

    async def closed_with(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes the connection; the close code."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await self.next()
        except ConnectionClosed:
            pass
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()

    # -- playing ------------------------------------------------------------------------------------

    async def play(
        self,
        table_id: str,
        rng: random.Random | None = None,
        until: Callable[[Any], bool] = lambda event: event.type == "game_over",
    ) -> Any:
        """Act (a random legal action) whenever it is this connection's turn, until an event ``until``
        accepts (``game_over``), which it returns; what follows that event stays unread (a ``turn``
        inside an event, feature ``turn_in_event``, is a turn as well)."""
        rng = rng or random.Random(self.name)
        while True:
            message = await self.next()
            assert message.type != "error", message
            for part in unfolded(message):
                if part.type == "turn" and part.table_id == table_id and part.legal_actions:
                    action = choose(part.legal_actions, rng)
                    await self.send(type="act", table_id=table_id, action=action.model_dump())
                elif part.type == "event" and part.table_id == table_id and until(part.event):
                    return part.event


def turn_of(seat: int) -> Callable[[ServerMessage], bool]:
    """Matches a ``turn`` of ``seat``."""
    return lambda m: m.type == "turn" and m.seat == seat


async def turn_timers(players: dict[int, Player], table_id: str, rng: random.Random) -> dict[int, set[bool]]:
    """Play the seats in ``players`` (random legal actions; the first player sees every turn) until each
    has had a turn; for each seat, whether its turns ran on a timer."""
    first = next(iter(players.values()))
    timers: dict[int, set[bool]] = {seat: set() for seat in players}
    while not all(timers.values()):
        turn = await first.until(lambda m: m.type == "turn" and m.seat in players)
        timers[turn.seat].add(turn.time_left_ms is not None)
        mover = players[turn.seat]
        mine = turn if mover is first else await mover.until(turn_of(turn.seat))
        await mover.send(type="act", table_id=table_id, action=choose(mine.legal_actions, rng).model_dump())
    return timers


def choose(legal: tuple[Any, ...], rng: random.Random) -> Any:
    """A random legal action, except in an auction: open with the lowest bid (Moon 4, Texas 42 30),
    then pass.

    Random bidding (21 included) makes Moon games of hundreds of hands; this keeps them short (and a
    42 table that redeals when all pass gets a bid).
    """
    bids = [a for a in legal if a.type == "bid"]
    if bids:
        opening = [a for a in bids if a.bid in (4, 30)]
        passes = [a for a in legal if a.type == "pass"]
        return (opening or passes or bids)[0]
    return rng.choice(legal)


def too_early(started: float, arrivals: list[float], pace: float) -> list[tuple[int, float]]:
    """The moves (their index, and seconds after ``started``) that arrived before the pace allows: the k-th
    move (from 0) sent to somebody who began watching at ``started`` was made at least k paces later, and
    reached them later still. A lower bound that noise cannot break, unlike the gap between two arrivals:
    a move read late (the loop busy, the process descheduled) and the next read on time arrive closer than
    the pace (such a test failed under load). The exact gaps are the table tier's (tests/tables/).
    """
    return [(k, at - started) for k, at in enumerate(arrivals) if at - started < k * pace]


def is_event(kind: str) -> Callable[[ServerMessage], bool]:
    return lambda m: m.type == "event" and m.event.type == kind
