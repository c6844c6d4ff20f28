"""Misbehaving clients get their documented error or close code, and the other tables play on unaffected."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct

import msgpack
import websockets
from server_testkit import Player, is_event, running_server

from boneyard.protocol import encode
from boneyard.protocol.handshake import Identify, Ping
from boneyard.protocol.lobby import Spectate


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
