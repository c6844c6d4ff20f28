"""Where PROTOCOL.md and the server disagreed (issue #15), each case checked from the spec's side:
what the spec says a client gets, a real client on loopback gets."""

from __future__ import annotations

from pathlib import Path

import msgpack
from server_testkit import Player, running_server

from boneyard.protocol import CLOSE_CODES
from boneyard.server.connection import BAD_FRAMES

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
