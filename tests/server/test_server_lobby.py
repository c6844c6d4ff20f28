"""The lobby and the table commands: listing, pushes, seats, chat, rematch, limits, records, HTTP; private
tables and their invites; names and chat with no terminal or layout tricks."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest
from durability_kit import durable
from server_testkit import Player, http_get, is_event, running_server, turn_timers

from boneyard.server.games.record_replay import replay


async def test_healthz_and_metrics_answer_on_the_websocket_port() -> None:
    async with running_server() as server:
        player = await Player.connect(server.url, "m")
        await player.request(type="create_table", game="straight", options={"players": 2}, seat=0, bots=[1])
        await player.request(type="join", table_id="t404", seat=0)
        assert await http_get(server.port, "/healthz") == (200, "ok\n")
        status, text = await http_get(server.port, "/metrics")
        assert status == 200
        for series in (
            "boneyard_connections 1.0",
            'boneyard_tables{game="straight",status="playing"} 1.0',
            'boneyard_tables{game="moon",status="waiting"} 0.0',
            'boneyard_commands_total{type="create_table"} 1.0',
            'boneyard_errors_total{code="no_such_table"} 1.0',
            "boneyard_command_latency_seconds_bucket",
            'boneyard_actions_total{by="bot"}',
        ):
            assert series in text, series


async def test_lobby_pushes_reach_the_other_lobby_clients() -> None:
    async with running_server() as server:
        ana, bo, lobby = [await Player.connect(server.url, n) for n in ("ana", "bo", "lobby")]
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1])
        table_id = created.table.table_id
        # The creation and ana sitting down come together, as the table's latest state.
        pushed = await lobby.until(lambda m: m.type == "lobby_changed")
        assert [(t.table_id, t.seats[0].name) for t in pushed.tables] == [(table_id, "ana")]
        assert pushed.removed == ()
        listing = await lobby.request(type="list_tables")
        assert [t.table_id for t in listing.tables] == [table_id]
        assert (await bo.request(type="join", table_id=table_id, seat=2)).type == "seated"
        playing = await lobby.until(lambda m: m.type == "lobby_changed" and m.tables[0].status == "playing")
        assert [s.name for s in playing.tables[0].seats] == ["ana", "bot-1", "bo"]
        # Leaving a running game hands the seat to a bot; when the last human leaves, the table goes.
        assert (await ana.request(type="leave", table_id=table_id)).type == "ok"
        left = await lobby.until(lambda m: m.type == "lobby_changed" and bot_at(m, 0))
        assert left.tables[0].seats[0].name == "bot-0"
        await bo.request(type="leave", table_id=table_id)
        removed = await lobby.until(lambda m: m.type == "lobby_changed" and bool(m.removed))
        assert (removed.tables, removed.removed) == ((), (table_id,))
        assert (await lobby.request(type="list_tables")).tables == ()
        # Nothing of it reached the lobby one table message at a time.
        assert not {"table_created", "table_updated", "table_removed"} & {m.type for m in lobby.log}


def bot_at(message: Any, seat: int) -> bool:
    return any(t.seats[seat].bot for t in message.tables)


async def test_seats_and_acts_are_checked() -> None:
    async with running_server() as server:
        ana, bo, cy, dee = [await Player.connect(server.url, n) for n in ("ana", "bo", "cy", "dee")]
        first = (await ana.request(type="create_table", game="moon", seat=0)).table.table_id
        other = (await cy.request(type="create_table", game="moon", seat=0, bots=[1])).table.table_id

        async def refused(player: Player, code: str, **command: object) -> None:
            reply = await player.request(**command)
            assert reply.type == "error" and reply.code == code, (command, reply)

        await refused(bo, "seat_taken", type="join", table_id=first, seat=0)
        await refused(bo, "seat_taken", type="join", table_id=other, seat=1)
        await refused(bo, "no_such_seat", type="join", table_id=first, seat=3)
        await refused(bo, "no_such_table", type="join", table_id="nope", seat=0)
        await refused(bo, "not_a_bot", type="take_seat", table_id=first, seat=2)
        await refused(ana, "already_seated", type="join", table_id=first, seat=2)
        await bo.request(type="join", table_id=first, seat=1)
        await dee.request(type="join", table_id=first, seat=2)
        turn = await ana.until(lambda m: m.type == "turn")
        players = {0: ana, 1: bo, 2: dee}
        mover, actor = turn.seat, players[turn.seat]
        waiting = players[(mover + 1) % 3]
        action = {"type": "pass"}
        # Acting at a table you do not sit at, out of turn, or illegally changes nothing.
        await refused(actor, "not_seated", type="act", table_id=other, action=action)
        await refused(actor, "no_such_table", type="act", table_id="t999", action=action)
        await refused(waiting, "not_your_turn", type="act", table_id=first, action=action)
        await refused(actor, "illegal_action", type="act", table_id=first, action={"type": "draw"})
        await refused(
            actor, "illegal_action", type="act", table_id=first, action={"type": "play", "tile": [6, 6]}
        )
        await refused(actor, "game_in_progress", type="rematch", table_id=first)
        ok = await actor.request(type="act", table_id=first, action={"type": "bid", "bid": 4})
        assert ok.type == "ok"
        bid = [m for m in actor.log if m.type == "event" and m.event.type == "bid_made"]
        assert len(bid) == 1 and bid[0].event.seat == mover, "exactly the one accepted action happened"


async def test_chat_is_length_and_rate_limited() -> None:
    async with running_server(chat_max_chars=10, chat_per_minute=3) as server:
        ana, wes = await Player.connect(server.url, "ana"), await Player.connect(server.url, "wes")
        table_id = (await ana.request(type="create_table", game="moon", seat=0)).table.table_id
        await wes.request(type="spectate", table_id=table_id)
        assert (await ana.request(type="chat", table_id=table_id, text="hello!")).type == "ok"
        line = await wes.until(lambda m: m.type == "chat")
        assert (line.seat, line.name, line.text) == (0, "ana", "hello!")
        too_long = await ana.request(type="chat", table_id=table_id, text="x" * 11)
        assert too_long.type == "error" and too_long.code == "chat_too_long"
        await wes.request(type="chat", table_id=table_id, text="hi")
        spectator_line = await ana.until(lambda m: m.type == "chat" and m.name == "wes")
        assert spectator_line.seat is None and spectator_line.name == "wes"
        codes = [(await ana.request(type="chat", table_id=table_id, text="again")).type for _ in range(3)]
        assert codes == ["ok", "ok", "error"]
        outsider = await Player.connect(server.url, "out")
        assert (await outsider.request(type="chat", table_id=table_id, text="hey")).code == "not_seated"


async def test_a_rematch_starts_a_new_game_when_every_human_asks() -> None:
    async with running_server(seed=3) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(
            type="create_table", game="straight", options={"players": 2, "target": 5}, seat=0, bots=[1]
        )
        table_id = created.table.table_id
        ana.seat = 0
        first = await ana.play(table_id)
        finished = await ana.until(lambda m: m.type == "table_updated" and m.table.status == "finished")
        assert finished.table.rematch == ()
        assert (await ana.request(type="rematch", table_id=table_id)).type == "ok"
        restarted = await ana.until(lambda m: m.type == "table_updated" and m.table.status == "playing")
        assert restarted.table.rematch == ()
        snapshot = await ana.until(lambda m: m.type == "snapshot")
        assert snapshot.view.hand_number == 0 and not snapshot.view.is_over
        second = await ana.play(table_id)
        assert second.record_id != first.record_id


async def test_a_human_takes_a_bots_seat_at_the_end_of_the_hand() -> None:
    async with running_server(seed=4, bot_delay_seconds=0.001) as server:
        ana, bo = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bo")
        created = await ana.request(
            type="create_table", game="moon", options={"target": 21}, seat=0, bots=[1, 2]
        )
        table_id = created.table.table_id
        ana.seat = 0
        playing = asyncio.create_task(ana.play(table_id))
        seated = await bo.request(type="take_seat", table_id=table_id, seat=1)
        assert seated.type == "seated" and seated.seat == 1
        snapshot = await bo.until(lambda m: m.type == "snapshot")
        assert snapshot.view.viewer == 1 and snapshot.view.legal_actions == ()
        assert snapshot.table.seats[1].bot and snapshot.table.seats[1].name == "bo"
        hand = snapshot.view.hand_number
        # Until the hand ends the bot plays on: bo is sent no legal actions.
        while True:
            message = await bo.next()
            if message.type == "event" and message.event.type == "hand_started":
                break
            if message.type == "event" and message.event.type == "game_over":
                raise AssertionError("the game ended within the hand")
            assert message.type != "turn" or not message.legal_actions
        assert message.event.hand == hand + 1
        bo.seat = 1
        over, _ = await asyncio.gather(bo.play(table_id), playing)
        record = (await bo.request(type="get_record", record_id=over.record_id)).record.model_dump()
        assert record["seat_names"][1] == "bo"
        assert all("auto" not in a for h in record["hands"] for a in h["actions"])
        replay(record)


async def test_tables_per_server_are_limited() -> None:
    async with running_server(max_tables=2) as server:
        ana = await Player.connect(server.url, "ana")
        for _ in range(2):
            assert (await ana.request(type="create_table", game="moon", seat=None)).type == "table_created"
        full = await ana.request(type="create_table", game="moon", seat=None)
        assert full.type == "error" and full.code == "unavailable"


async def test_a_bots_only_table_plays_itself_out_and_its_record_is_published() -> None:
    async with running_server() as server:
        wes = await Player.connect(server.url, "wes")
        created = await wes.request(
            type="create_table", game="moon", options={"target": 300}, bots=[0, 1, 2], seat=None
        )
        table_id = created.table.table_id
        snapshot = await wes.request(type="spectate", table_id=table_id)
        assert snapshot.type == "snapshot" and snapshot.table.status == "playing" and snapshot.view.hand == ()
        over = (await wes.until(is_event("game_over"), timeout=60)).event
        missing = await wes.request(type="get_record", record_id="r-nope")
        assert missing.type == "error" and missing.code == "no_such_record"
        reply = await wes.request(type="get_record", record_id=over.record_id)
        record = reply.record.model_dump()
        assert record["winner"] == over.winner and max(record["final_scores"]) >= 300
        replay(record)
        # Once finished and nobody watches any more, the table goes away.
        await wes.request(type="leave", table_id=table_id)
        assert (await wes.request(type="list_tables")).tables == ()


async def test_lobby_updates_are_coalesced_per_table() -> None:
    """Several changes to tables within ``lobby_push_seconds`` reach the lobby as one message."""
    async with running_server(lobby_push_seconds=0.5) as server:
        lobby = await Player.connect(server.url, "lobby")
        host = await Player.connect(server.url, "host")
        created = await host.request(type="create_table", game="moon", seat=None)
        table_id = created.table.table_id
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(3)]
        for watcher in watchers:
            await watcher.request(type="spectate", table_id=table_id)
        other = (await host.request(type="create_table", game="straight", seat=None)).table.table_id
        update = await lobby.until(lambda m: m.type == "lobby_changed")
        assert [(t.table_id, t.spectators) for t in update.tables] == [(table_id, 3), (other, 0)]
        await asyncio.sleep(0.6)
        assert await lobby.request(type="ping") is not None
        assert [m.type for m in lobby.log].count("lobby_changed") == 1


# Who may sit at a table (issue #15, item 5): an owner-chosen policy, open or private with an invite code,
# and an untimed table's owner cannot be stalled by a stranger who takes a seat.


async def private_table(ana: Player, **extra: Any) -> Any:
    created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], private=True, **extra)
    assert created.type == "table_created" and created.table.private and created.invite is not None
    return created


async def test_a_private_table_seats_only_those_with_its_invite_and_anyone_may_watch() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        assert "private_tables" in ana.log[0].features
        created = await private_table(ana)
        table_id, invite = created.table.table_id, created.invite
        bob = await Player.connect(server.url, "bob")
        listed = {t.table_id: t for t in (await bob.request(type="list_tables")).tables}
        assert listed[table_id].private
        for command in ({"type": "join", "seat": 2}, {"type": "take_seat", "seat": 1}):
            refused = await bob.request(table_id=table_id, **command)
            assert refused.type == "error" and refused.code == "not_invited", refused
            wrong = await bob.request(table_id=table_id, invite="x" * 24, **command)
            assert wrong.type == "error" and wrong.code == "not_invited"
        assert (await bob.request(type="spectate", table_id=table_id)).type == "snapshot"
        cy = await Player.connect(server.url, "cy")
        assert (await cy.request(type="join", table_id=table_id, seat=2, invite=invite)).type == "seated"
        # An open table (the default) seats anyone, as before.
        open_table = await ana.request(type="create_table", game="moon", seat=None, bots=[1])
        assert not open_table.table.private and open_table.invite is None


async def test_a_private_tables_invite_survives_a_restart(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await private_table(ana)
    async with durable(tmp_path) as server:
        bob = await Player.connect(server.url, "bob")
        table_id = created.table.table_id
        refused = await bob.request(type="join", table_id=table_id, seat=2)
        assert refused.type == "error" and refused.code == "not_invited"
        assert (
            await bob.request(type="join", table_id=table_id, seat=2, invite=created.invite)
        ).type == "seated"


async def test_at_an_open_untimed_table_a_stranger_plays_on_the_servers_turn_timer() -> None:
    async with running_server(turn_seconds=40) as server:
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
        table_id = created.table.table_id
        assert created.table.turn_seconds is None
        await bob.request(type="join", table_id=table_id, seat=2)
        timers = await turn_timers({0: ana, 2: bob}, table_id, random.Random(3))
        assert timers == {0: {False}, 2: {True}}  # the owner's seat untimed, the stranger's on 40 s


# Names and chat carry no terminal or layout tricks (issue #15, item 9): control characters, bidi
# overrides and invisible characters are refused, and no human may be named like a bot.


BAD_NAMES = ["bot-1", "Bot-2", "ana\u202e", "\u200b", "a\u200bb", "ana\x1b[31m", " ", "an\u2028a"]
BAD_CHAT = ["\r<bob> I resign", "\x1b[2J\x1b[Hgame over", "right\u202eto left", "in\u200bvisible", "a\u2029b"]


@pytest.mark.parametrize("name", BAD_NAMES, ids=[repr(n) for n in BAD_NAMES])
async def test_a_name_with_control_or_invisible_characters_or_a_bots_prefix_is_refused(name: str) -> None:
    async with running_server() as server:
        fresh = await Player.connect(server.url, "x", identify=False)
        await fresh.ws.send(msgpack.packb({"type": "identify", "id": 1, "name": name}))
        error = await fresh.next()
        assert error.type == "error" and error.code == "invalid_message", error
        assert await fresh.closed_with() == 4001


async def test_chat_with_control_or_invisible_characters_is_refused_and_emoji_sequences_pass() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
        table_id = created.table.table_id
        for i, text in enumerate(BAD_CHAT):
            await ana.ws.send(
                msgpack.packb({"type": "chat", "id": f"c{i}", "table_id": table_id, "text": text})
            )
            error = await ana.reply_to(f"c{i}")
            assert error.type == "error" and error.code == "invalid_message", (text, error)
        family = "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 caf\u00e9 \u05e9\u05dc\u05d5\u05dd"
        assert (await ana.request(type="chat", table_id=table_id, text=family)).type == "ok"
        line = await ana.until(lambda m: m.type == "chat")
        assert line.text == family and line.name == "ana"


async def test_names_stored_before_the_rule_are_cleaned_on_restore(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
    connection = sqlite3.connect(tmp_path / "boneyard.db")
    with connection:
        connection.execute("UPDATE seats SET name = ? WHERE seat = 0", ("an\u202ea\u200b",))
        connection.execute("UPDATE sessions SET name = ?", ("an\u202ea\u200b",))
    connection.close()
    async with durable(tmp_path) as server:
        bob = await Player.connect(server.url, "bob")
        (table,) = (await bob.request(type="list_tables")).tables
        assert table.table_id == created.table.table_id and table.seats[0].name == "ana"
