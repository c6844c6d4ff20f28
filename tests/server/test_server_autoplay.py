"""A seat whose time runs out, or whose player stays away, is played by the server until they are back."""

from __future__ import annotations

import asyncio
import random

from server_testkit import Player, choose, is_event, running_server

from boneyard.server.games.record_replay import replay


async def record_of(player: Player, record_id: str) -> dict:
    reply = await player.request(type="get_record", record_id=record_id)
    assert reply.type == "record"
    return reply.record.model_dump()


async def timeout_then_take_back(url: str) -> None:
    """Ana lets her turn time out: the server plays it (auto); she acts again and has her seat back."""
    ana = await Player.connect(url, "ana")
    created = await ana.request(
        type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2], turn_seconds=5
    )
    table_id = created.table.table_id
    mine = await ana.until(lambda m: m.type == "turn" and m.seat == 0 and bool(m.legal_actions))
    assert 4000 <= mine.time_left_ms <= 5000
    # She does nothing: after 5 s the server plays for her and, timeouts_before_auto being 1, says so.
    status = await ana.until(lambda m: m.type == "seat_status" and m.seat == 0, timeout=8)
    assert status.auto and status.connected
    played = await ana.until(lambda m: m.type == "event" and getattr(m.event, "seat", None) == 0)
    assert played.auto, "the event of the action the server took for her says so"
    assert not any(m.auto for m in ana.log if m.type == "event" and m is not played), "no other event is"
    # Her next turn: she acts (before the bot's delay), which takes the seat back.
    rng = random.Random(1)
    turn = await ana.until(lambda m: m.type == "turn" and m.seat == 0 and bool(m.legal_actions))
    await ana.send(type="act", table_id=table_id, action=choose(turn.legal_actions, rng).model_dump())
    back = await ana.until(lambda m: m.type == "seat_status" and m.seat == 0)
    assert not back.auto and back.connected
    ana.seat = 0
    over = await ana.play(table_id)
    record = await record_of(ana, over.record_id)
    mine_entries = [a for h in record["hands"] for a in h["actions"] if a["seat"] == 0]
    assert mine_entries[0].get("auto") is True, "the timed-out action is marked auto"
    assert any("auto" not in a for a in mine_entries), "her own actions are not"
    assert not any("auto" in a for h in record["hands"] for a in h["actions"] if a["seat"] != 0), (
        "bots' are not"
    )
    replay(record)


async def away_then_resume(url: str) -> None:
    """Bo drops: past the grace period the server plays for him; resuming takes the seat back."""
    bo = await Player.connect(url, "bo")
    created = await bo.request(
        type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2], turn_seconds=None
    )
    table_id = created.table.table_id
    token = (await bo.until(lambda m: m.type == "seated")).token
    watcher = await Player.connect(url, "wes")
    await watcher.request(type="spectate", table_id=table_id)
    bo.ws.transport.abort()
    gone = await watcher.until(lambda m: m.type == "seat_status" and m.seat == 0)
    assert not gone.connected and not gone.auto
    auto = await watcher.until(lambda m: m.type == "seat_status" and m.seat == 0)
    assert auto.auto and not auto.connected, "past the grace period the server plays for him"
    # The game goes on without him: his seat acts (played by the server).
    await watcher.until(lambda m: m.type == "event" and getattr(m.event, "seat", None) == 0, timeout=5)

    back = await Player.connect(url, "bo", identify=False)
    welcome = await back.request(type="identify", name="bo", resume={"token": token, "last_seq": bo.seq})
    assert welcome.resumed
    for _ in range(welcome.replayed):  # history: its turns are stale
        await back.next()
    status = await watcher.until(lambda m: m.type == "seat_status" and m.seat == 0)
    assert status.connected and not status.auto
    back.seat = 0
    over = await back.play(table_id)
    await watcher.until(is_event("game_over"))
    record = await record_of(back, over.record_id)
    entries = [a for h in record["hands"] for a in h["actions"] if a["seat"] == 0]
    assert any(a.get("auto") for a in entries), "the server played for him while he was away"
    assert "auto" not in entries[-1], "then he played himself"
    replay(record)


async def test_timeout_and_disconnection_lead_to_auto_play_and_the_player_takes_the_seat_back() -> None:
    settings = {"grace_seconds": 0.1, "auto_turn_seconds": 1.0, "timeouts_before_auto": 1}
    async with running_server(seed=5, **settings) as server:
        await asyncio.gather(timeout_then_take_back(server.url), away_then_resume(server.url))


async def test_reconnecting_does_not_restart_the_turn_timer() -> None:
    """A player who drops and resumes mid-turn gets their turn again with the time really left, and the
    server plays for them at the original deadline: reconnecting buys no time."""
    async with running_server(grace_seconds=30.0) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=5)
        turn = await ana.until(lambda m: m.type == "turn" and m.seat == 0 and bool(m.legal_actions))
        loop = asyncio.get_running_loop()
        # The server's own deadline (its clock is this loop's), not one reckoned from the turn's arrival.
        timer = server.lobby.tables[created.table.table_id].match.turns
        deadline = loop.time() + timer.time_left_ms() / 1000
        await asyncio.sleep(1.5)
        ana.ws.transport.abort()

        back = await Player.connect(server.url, "ana", identify=False)
        resume = {"token": ana.token, "last_seq": ana.seq}
        asked = loop.time()
        welcome = await back.request(type="identify", name="ana", resume=resume)
        assert welcome.resumed
        reminder = await back.until(lambda m: m.type == "turn")
        read = loop.time()
        assert (reminder.seat, reminder.legal_actions) == (0, turn.legal_actions)
        # Made after the identify went out and before it was read: the time really left then, to the ms.
        assert (deadline - read) * 1000 - 2 <= reminder.time_left_ms <= (deadline - asked) * 1000 + 2
        assert reminder.time_left_ms < 4000
        played = await back.until(lambda m: m.type == "event" and getattr(m.event, "seat", None) == 0)
        assert played.auto, "the server's action for her is marked auto"
        # At the original deadline, well before a timer restarted at the reconnection would run out.
        assert loop.time() < deadline + 1.0
