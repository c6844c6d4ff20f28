"""Misbehaving clients get their documented error or close code, and the other tables play on unaffected;
what PROTOCOL.md says a client gets, a real client gets; record fetches cannot buy the server's CPU."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
from pathlib import Path
from typing import Any

import msgpack
import websockets
from server_testkit import Player, http_get, is_event, running_server

from boneyard.protocol import CLOSE_CODES, encode
from boneyard.protocol.handshake import Identify, Ping
from boneyard.protocol.lobby import Spectate
from boneyard.server.connection import BAD_FRAMES


class RawClient:
    """A websocket client written by hand, for what a well-behaved library will not do:
    never answering pings, never reading."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, *, rcvbuf: int | None = None) -> RawClient:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        # A small stream limit: asyncio stops reading the socket once 2 KiB wait in the buffer.
        reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Protocol: boneyard.v1\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    def send(self, payload: bytes, *, opcode: int = 0x2, fin: bool = True) -> None:
        """One masked frame (binary and final unless told: a fragment, or a continuation, opcode 0)."""
        mask = os.urandom(4)
        size = len(payload)
        first = (0x80 if fin else 0) | opcode
        head = bytes([first, 0x80 | size]) if size < 126 else bytes([first, 0xFE]) + struct.pack("!H", size)
        self.writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    async def frame(self) -> tuple[int, bytes]:
        first, second = await self.reader.readexactly(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        return first & 0x0F, await self.reader.readexactly(size)

    async def close_code(self) -> int:
        """Read (and drop) frames until the close frame; its code."""
        async with asyncio.timeout(10):
            while True:
                opcode, payload = await self.frame()
                if opcode == 0x8:
                    return int(struct.unpack("!H", payload[:2])[0])


async def normal_game(url: str) -> None:
    """A player and two bots play a whole game while the abuse goes on elsewhere."""
    player = await Player.connect(url, "calm")
    created = await player.request(
        type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2]
    )
    player.seat = 0
    await player.play(created.table.table_id)


async def test_bad_frames_get_errors_and_the_connection_stays_open() -> None:
    async with running_server() as server:
        player = await Player.connect(server.url, "bad")
        for frame, code in [
            (b"\xc1", "malformed_frame"),
            (msgpack.packb([1, 2]), "malformed_frame"),
            (msgpack.packb({"type": "ping"}) + b"\x00", "malformed_frame"),
            (msgpack.packb({"type": "nope", "id": 3}), "unknown_type"),
            (msgpack.packb({"type": "ping", "id": 1.5}), "invalid_message"),
            (msgpack.packb({"type": "join", "id": 4, "table_id": "t1", "seat": "0"}), "invalid_message"),
        ]:
            await player.ws.send(frame)
            error = await player.next()
            assert error.type == "error" and error.code == code, (frame, error)
        assert error.reply_to == 4, "the id is echoed when it could be read"
        assert (await player.request(type="ping")).type == "pong"
        # ...but a client that keeps sending undecodable frames is closed with 1008.
        for _ in range(12):
            await player.ws.send(b"\xc1")
        assert await player.closed_with() == 1008


async def test_protocol_violations_close_with_their_codes() -> None:
    async with running_server(max_frame_bytes=1024, handshake_seconds=0.3) as server:
        games = asyncio.create_task(normal_game(server.url))

        text = await Player.connect(server.url, "text")
        await text.ws.send("hello")
        assert await text.closed_with() == 1008

        big = await Player.connect(server.url, "big")
        await big.ws.send(b"\x80" + b"x" * 2000)
        assert await big.closed_with() == 1009

        first = await Player.connect(server.url, "first", identify=False)
        await first.send(type="list_tables")
        error = await first.next()
        assert error.type == "error" and error.code == "not_identified"
        assert await first.closed_with() == 4001

        nameless = await Player.connect(server.url, "nameless", identify=False)
        await nameless.ws.send(msgpack.packb({"type": "identify", "name": ""}))
        assert (await nameless.next()).code == "invalid_message"
        assert await nameless.closed_with() == 4001

        silent = await Player.connect(server.url, "silent", identify=False)
        assert await silent.closed_with() == 4006

        async with websockets.connect(server.url) as plain:  # no subprotocol offered
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(plain.recv(), 5)
            assert plain.close_code == 4000
        await asyncio.wait_for(games, 30)


async def test_a_flood_is_rate_limited_then_closed_while_other_tables_play_on() -> None:
    async with running_server(commands_per_second=50, command_burst=20, bot_delay_seconds=0.03) as server:
        games = asyncio.create_task(normal_game(server.url))
        flood = await Player.connect(server.url, "flood")
        for n in range(300):
            await flood.ws.send(encode(Ping(type="ping", id=n)))
        codes = []
        try:
            while True:
                message = await flood.next(timeout=5)
                codes.append(getattr(message, "code", message.type))
        except Exception:
            pass
        assert "pong" in codes and "rate_limited" in codes
        assert flood.ws.close_code == 4005
        await asyncio.wait_for(games, 30)


async def test_unanswered_pings_close_with_4006() -> None:
    async with running_server(heartbeat_seconds=1) as server:
        raw = await RawClient.open(server.port)
        raw.send(encode(Identify(type="identify", name="deaf")))
        # It never answers pings (a library would): the second heartbeat closes it.
        assert await raw.close_code() == 4006
        raw.writer.close()


async def test_a_client_that_never_reads_is_closed_with_4004() -> None:
    settings = {
        "send_queue_frames": 16,
        "resume_buffer_frames": 16,
        "close_seconds": 10,
        "socket_send_buffer": 4096,
    }
    async with running_server(**settings) as server:
        games = asyncio.create_task(normal_game(server.url))
        busy = await Player.connect(server.url, "busy")
        created = await busy.request(
            type="create_table", game="moon", options={"target": 1000}, bots=[0, 1, 2], seat=None
        )
        table_id = created.table.table_id
        raw = await RawClient.open(server.port, rcvbuf=4096)
        raw.send(encode(Identify(type="identify", name="sloth")))
        raw.send(encode(Spectate(type="spectate", table_id=table_id)))
        closes = server.metrics.registry
        async with asyncio.timeout(30):
            while not closes.get_sample_value("boneyard_closes_total", {"code": "4004"}):
                await asyncio.sleep(0.01)
        assert await raw.close_code() == 4004
        raw.writer.close()
        await asyncio.wait_for(games, 30)
        # The bots-only table went on regardless.
        watch = await Player.connect(server.url, "watch")
        snapshot = await watch.request(type="spectate", table_id=table_id)
        assert snapshot.type == "snapshot"
        await watch.until(is_event("tile_played"))


async def test_connections_beyond_the_limit_are_closed_with_4007() -> None:
    async with running_server(max_connections=1) as server:
        first = await Player.connect(server.url, "first")
        async with websockets.connect(server.url, subprotocols=["boneyard.v1"]) as second:  # type: ignore[list-item]
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(second.recv(), 5)
            assert second.close_code == 4007
        assert (await first.request(type="ping")).type == "pong"


async def test_a_fragmented_message_is_handled_in_order_with_the_frames_around_it() -> None:
    # Single-frame commands are handled as they are parsed, fragmented ones through websockets'
    # assembler: neither may overtake the other.
    async with running_server() as server:
        raw = await RawClient.open(server.port)
        assert msgpack.unpackb((await raw.frame())[1])["type"] == "hello"
        pings = [encode(Ping(type="ping", id=f"p{i}")) for i in range(5)]
        raw.send(encode(Identify(type="identify", name="frag", id="i")))
        raw.send(pings[0])
        raw.send(pings[1][:3], fin=False)
        raw.send(pings[1][3:], opcode=0x0)
        raw.send(pings[2])
        raw.send(pings[3][:4], opcode=0x2, fin=False)
        raw.send(pings[3][4:], opcode=0x0)
        raw.send(pings[4])
        replies = [msgpack.unpackb((await raw.frame())[1]) for _ in range(6)]
        assert [r.get("reply_to") for r in replies] == ["i", "p0", "p1", "p2", "p3", "p4"]
        assert [r["seq"] for r in replies] == [2, 3, 4, 5, 6, 7]
        raw.writer.close()


# Where PROTOCOL.md and the server disagreed (issue #15), each case checked from the spec's side:
# what the spec says a client gets, a real client on loopback gets.


ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "protocol" / "spec" / "PROTOCOL.md").read_text(encoding="utf-8")


async def raw(player: Player, **command: object) -> object:
    """Send a command as the client wrote it (not validated here: the server is the one to judge)."""
    await player.ws.send(msgpack.packb({**command, "id": 99}))
    return await player.reply_to(99)


async def test_create_table_with_options_the_rules_forbid_gets_invalid_options_and_seats_no_such_seat() -> (
    None
):
    assert "`invalid_options`" in SPEC and "`no_such_seat`" in SPEC
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        for players in (2, 3):
            options = {"players": players, "partnerships": True}
            reply = await raw(ana, type="create_table", game="straight", options=options)
            assert (reply.type, reply.code) == ("error", "invalid_options"), reply
        for seat, bots in ((3, []), (None, [3]), (0, [0])):
            reply = await raw(ana, type="create_table", game="moon", seat=seat, bots=bots)
            assert reply.type == "error", reply
            assert reply.code == ("invalid_options" if bots == [0] else "no_such_seat"), reply
        # Refused, well-formed commands are not undecodable frames: they never close the connection.
        for _ in range(3 * BAD_FRAMES):
            reply = await raw(ana, type="create_table", game="moon", seat=3)
            assert reply.type == "error" and reply.code == "no_such_seat"
        assert (await ana.request(type="ping")).type == "pong"


async def test_undecodable_frames_close_with_1008_after_hello_limits_bad_frames() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana", identify=False)
        bad = ana.log[0].limits.bad_frames
        assert bad is not None
        assert (await ana.request(type="identify", name="ana")).type == "welcome"
        for _ in range(bad):
            await ana.ws.send(b"\xc1")
            assert (await ana.next()).code == "malformed_frame"
        assert (await ana.request(type="ping")).type == "pong"
        await ana.ws.send(b"\xc1")
        assert await ana.closed_with() == 1008


def test_the_close_code_table_lists_websockets_own_1002_and_1007() -> None:
    assert {1002, 1007} <= set(CLOSE_CODES)
    for code in (1002, 1007):
        assert f"| {code} |" in SPEC or f"| `{code}` |" in SPEC


async def test_hello_limits_announce_the_handshake_time_and_the_strikes_before_4005() -> None:
    async with running_server(handshake_seconds=0.3, commands_per_second=1, command_burst=3) as server:
        quiet = await Player.connect(server.url, "quiet", identify=False)
        assert quiet.log[0].limits.handshake_ms == 300
        assert await quiet.closed_with() == 4006
        ana = await Player.connect(server.url, "ana", identify=False)
        limits = ana.log[0].limits
        assert (limits.rate_strikes, limits.chat_per_minute) == (3, server.settings.chat_per_minute)
        assert limits.grace_ms == server.settings.grace_seconds * 1000
        assert limits.resume_frames == server.settings.resume_buffer_frames
        assert (limits.max_connections, limits.max_tables) == (
            server.max_connections,
            server.settings.max_tables,
        )
        assert limits.tables_per_address == server.settings.tables_per_address
        assert limits.bot_delay_ms == server.settings.bot_delay_seconds * 1000
        assert limits.bots_only_move_ms == server.settings.bots_only_move_seconds * 1000
        assert (await ana.request(type="identify", name="ana")).type == "welcome"
        for _ in range(2):
            assert (await ana.request(type="ping")).type == "pong"
        for _ in range(limits.rate_strikes):  # the bucket is empty: each one a strike, none closing yet
            assert (await ana.request(type="ping")).code == "rate_limited"
        await ana.send(type="ping")
        assert await ana.closed_with() == 4005


async def test_before_welcome_anything_but_identify_gets_not_identified_and_4001_even_after_a_ping() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana", identify=False)
        assert (await ana.request(type="ping")).type == "pong"
        reply = await ana.request(type="list_tables")
        assert reply.type == "error" and reply.code == "not_identified"
        assert await ana.closed_with() == 4001
        assert "(also after a `ping`)" in SPEC


# Record fetches cannot buy the server's CPU (issue #15, item 2): a record is encoded once, however
# often it is fetched, and a reply costs the client's rate limit by its size.


BOTS_ONLY = {"game": "moon", "options": {"target": 7}, "seat": None, "bots": [0, 1, 2]}


async def finished_record(player: Player) -> str:
    """Watch a bots-only game to its end; its record id."""
    created = await player.request(type="create_table", **BOTS_ONLY)
    await player.request(type="spectate", table_id=created.table.table_id)
    over = await player.until(is_event("game_over"), timeout=30)
    assert over.event.record_id is not None
    return str(over.event.record_id)


def metric(text: str, name: str) -> float:
    (value,) = [float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " ")]
    return value


async def test_a_record_is_encoded_once_however_often_it_is_fetched() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        record_id = await finished_record(ana)
        replies: list[Any] = [await ana.request(type="get_record", record_id=record_id) for _ in range(5)]
        assert {r.type for r in replies} == {"record"}
        assert all(r.record == replies[0].record and r.record_id == record_id for r in replies)
        _, text = await http_get(server.port, "/metrics")
        assert metric(text, "boneyard_records_encoded_total") == 1
        missing = await ana.request(type="get_record", record_id="rnope")
        assert missing.type == "error" and missing.code == "no_such_record"


async def test_a_big_reply_costs_the_rate_limit_by_its_size_as_hello_announces() -> None:
    per = 256
    async with running_server(commands_per_second=1, command_burst=40, reply_bytes_per_command=per) as server:
        ana = await Player.connect(server.url, "ana", identify=False)
        hello = ana.log[0]
        assert hello.type == "hello" and hello.limits.reply_bytes_per_command == per
        assert (await ana.request(type="identify", name="ana")).type == "welcome"
        record_id = await finished_record(ana)
        first = await ana.request(type="get_record", record_id=record_id)
        cost = 1 + len(ana.frames[-1]) // per
        assert cost > 4, "the record should be several times reply_bytes_per_command"
        fetched = 1
        while (await ana.request(type="get_record", record_id=record_id)).type == "record":
            fetched += 1
            assert fetched < 40, "fetching never hit the rate limit"
        assert first.type == "record"
        # 40 tokens, less the 3 commands before (identify, create_table, spectate): about 37 / cost fetches.
        assert fetched <= 37 // cost + 2, (fetched, cost)
