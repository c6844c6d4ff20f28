"""Dropping and resuming: missed messages come back exactly once, in order; bad tokens are refused; after a
``kill -9`` too, byte for byte."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

from durability_kit import ServerProcess, export, record_actions, seen_actions, server_on
from server_testkit import Player, choose, is_event, running_server

from boneyard.server.games.record_replay import replay


def public_events(messages: list[Any], table_id: str) -> list[dict[str, Any]]:
    """A table's events as everyone may see them (private tiles blanked, deals left out), in order."""
    out = []
    for m in messages:
        if m.type == "event" and m.table_id == table_id:
            event = m.event.model_dump()
            if event["type"] == "hand_dealt":
                continue
            if event["type"] in ("widow_taken", "discarded", "tile_drawn"):
                event["tile"] = None
            out.append(event)
    return out


def content(message: Any) -> dict[str, Any]:
    """A message without its seq (replayed messages are renumbered)."""
    return message.model_dump(exclude={"seq"})


async def three_seat_table(url: str) -> tuple[list[Player], Player, str]:
    """Three humans at a Moon table and a spectator who watched from before the deal."""
    players = [await Player.connect(url, name) for name in ("ana", "bo", "cy")]
    created = await players[0].request(type="create_table", game="moon", seat=0, turn_seconds=None)
    table_id = created.table.table_id
    watcher = await Player.connect(url, "wes")
    await watcher.request(type="spectate", table_id=table_id)
    for seat in (1, 2):
        await players[seat].request(type="join", table_id=table_id, seat=seat)
    return players, watcher, table_id


async def play_turns(player: Player, table_id: str, turns: int) -> None:
    """Act on this player's next ``turns`` turns, then stop right after an act's ``ok`` that passed
    the turn to another seat (a Moon bidder discards and names trump in a row)."""
    rng = random.Random(player.name)
    while turns:
        message = await player.next()
        if message.type == "turn" and message.seat == player.seat and message.legal_actions:
            sent = await player.send(
                type="act", table_id=table_id, action=choose(message.legal_actions, rng).model_dump()
            )
            assert (await player.reply_to(sent)).type == "ok"
            last_turn = [m for m in player.log if m.type == "turn"][-1]
            if last_turn.seat != player.seat or turns > 1:
                turns -= 1


async def her_turn_again(watcher: Player, ana: Player, table_id: str) -> None:
    """The spectator saw the game go on past what Ana saw, to her next turn."""
    seen = len(public_events(ana.log, table_id))
    await watcher.until(
        lambda m: m.type == "turn" and m.seat == 0 and len(public_events(watcher.log, table_id)) > seen,
        timeout=10,
    )


async def test_a_resumed_player_gets_exactly_the_missed_messages_in_order() -> None:
    async with running_server(seed=11) as server:
        (ana, bo, cy), watcher, table_id = await three_seat_table(server.url)
        others = [asyncio.create_task(p.play(table_id)) for p in (bo, cy)]
        await play_turns(ana, table_id, 5)
        # Ana has been sent everything up to her act's ``ok`` but processed only up to last_seq.
        received, last_seq = ana.seq, ana.seq - 3
        unprocessed = [content(m) for m in ana.log if m.seq > last_seq]
        token = ana.token
        ana.ws.transport.abort()  # the connection drops: no closing handshake
        # The others play on until it is Ana's turn again; the table then waits for her.
        await her_turn_again(watcher, ana, table_id)

        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", resume={"token": token, "last_seq": last_seq}
        )
        assert welcome.type == "welcome" and welcome.resumed and welcome.seats[0].seat == 0
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert [m.seq for m in replayed] == list(range(welcome.seq + 1, welcome.seq + 1 + welcome.replayed))
        assert [content(m) for m in replayed[: received - last_seq]] == unprocessed
        missed_while_away = replayed[received - last_seq :]
        assert any(m.type == "event" for m in missed_while_away), "events happened while she was away"
        assert any(m.type == "seat_status" and not m.connected for m in missed_while_away)

        back.seat = 0
        over = await back.play(table_id)
        await asyncio.gather(*others)
        await watcher.until(is_event("game_over"))
        # Everything Ana processed: the first connection up to last_seq, then the new one.
        hers = [m for m in ana.log if m.seq <= last_seq] + back.log
        assert public_events(hers, table_id) == public_events(watcher.log, table_id)
        assert over.winner in (0, 1, 2)


async def test_a_player_too_far_behind_gets_a_fresh_snapshot() -> None:
    async with running_server(seed=12, resume_buffer_frames=16) as server:
        (ana, bo, cy), watcher, table_id = await three_seat_table(server.url)
        others = [asyncio.create_task(p.play(table_id)) for p in (bo, cy)]
        await play_turns(ana, table_id, 3)
        token = ana.token
        await ana.close()
        await her_turn_again(watcher, ana, table_id)

        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(type="identify", name="ana", resume={"token": token, "last_seq": 1})
        assert welcome.resumed and welcome.replayed == 0
        snapshot = await back.next()
        assert snapshot.type == "snapshot" and snapshot.table.table_id == table_id
        assert snapshot.view.viewer == 0 and len(snapshot.view.hand) > 0 and snapshot.view.to_move == 0
        assert snapshot.view.legal_actions, "she may act at once"
        back.seat = 0
        await back.play(table_id)
        await asyncio.gather(*others)


async def test_wrong_stale_and_replaced_tokens() -> None:
    timing = {"grace_seconds": 0.05, "session_seconds": 0.1, "bot_delay_seconds": 0.05}
    async with running_server(seed=13, **timing) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        seated = await ana.until(lambda m: m.type == "seated")
        token = seated.token

        wrong = await Player.connect(server.url, "x", identify=False)
        await wrong.send(type="identify", name="x", resume={"token": "A" * 32, "last_seq": 0})
        assert await wrong.closed_with() == 4002

        # A second connection resuming the session replaces the first, which is closed with 4003.
        second = await Player.connect(server.url, "ana", identify=False)
        welcome = await second.request(
            type="identify", name="ana", resume={"token": token, "last_seq": ana.seq}
        )
        assert welcome.resumed and welcome.seats[0].table_id == table_id
        assert await ana.closed_with() == 4003

        # Dropped past the grace period and the session time: the seat is given up, the token is stale.
        watcher = await Player.connect(server.url, "wes")
        await watcher.request(type="spectate", table_id=table_id)
        await second.close()
        update = await watcher.until(
            lambda m: m.type == "table_updated" and m.table.seats[0].name != "ana", timeout=5
        )
        assert update.table.seats[0].bot and update.table.seats[0].name == "bot-0"
        stale = await Player.connect(server.url, "ana", identify=False)
        await stale.send(type="identify", name="ana", resume={"token": token, "last_seq": 0})
        assert await stale.closed_with() == 4002


# An exact resume after a crash (issue #15, item 13), from the client's side.
#
# A player plays part of a Moon hand with two bots on a real server subprocess; the server is killed
# (``kill -9``) while it waits for her; a new one starts on the same file; she resumes with a
# ``last_seq`` from before her last act. The messages replayed are the ones she had read from there,
# byte for byte but their ``seq`` (events, turns, the ``ok`` of her act), then the restart's own
# ``seat_status`` and ``table_updated``; live play goes on with no gap to the end of the game, and the
# record holds each of her acts once. A chat line in that stretch is not in the journal: the resume
# gets a snapshot instead.


MOON = {"game": "moon", "options": {"target": 7}, "bots": [1, 2], "seat": 0, "turn_seconds": None}


async def my_turn(player: Player, table_id: str) -> Any:
    return await player.until(lambda m: m.type == "turn" and m.table_id == table_id and bool(m.legal_actions))


async def play_a_while(server: ServerProcess, *, chat: bool) -> tuple[Player, str, int, list[dict[str, Any]]]:
    """Ana plays three acts into a hand (the last preceded by a chat line if ``chat``), then the server
    waits for her next act; the ``seq`` she resumes from: the one before her last act's turn ended."""
    ana = await Player.connect(server.url, "ana")
    table_id = (await ana.request(type="create_table", **MOON)).table.table_id
    rng = random.Random(1)
    acted: list[dict[str, Any]] = []
    resume_from = 0
    for n in range(3):
        turn = await my_turn(ana, table_id)
        if n == 2:
            resume_from = ana.seq  # her turn is read: what follows is her act's messages and the bots'
            if chat:
                assert (await ana.request(type="chat", table_id=table_id, text="hm")).type == "ok"
        action = choose(turn.legal_actions, rng).model_dump()
        assert (await ana.request(type="act", table_id=table_id, action=action)).type == "ok"
        acted.append(action)
    await my_turn(ana, table_id)  # the bots have played on to her: the server waits for her
    return ana, table_id, resume_from, acted


async def test_a_resume_after_kill_9_replays_exactly_what_was_missed_and_play_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as first:
        ana, table_id, resume_from, acted = await play_a_while(first, chat=False)
        assert await first.stop(signal.SIGKILL) == -signal.SIGKILL
        assert await ana.closed_with(5) == 1006
        missed = [m.model_dump(exclude={"seq"}) for m in ana.log if m.seq > resume_from]
        assert 3 <= len(missed) <= 30 and {"event", "turn", "ok"} <= {m["type"] for m in missed}

    async with server_on(db) as second:
        back = await Player.connect(second.url, "ana", identify=False)
        resume = {"token": ana.token, "last_seq": resume_from}
        welcome = await back.request(type="identify", name="ana", resume=resume)
        assert welcome.resumed and welcome.replayed == len(missed) + 2, welcome
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert [m.model_dump(exclude={"seq"}) for m in replayed[: len(missed)]] == missed
        restart = [(m.type, getattr(m, "seat", None), getattr(m, "connected", None)) for m in replayed[-2:]]
        assert restart == [("seat_status", 0, False), ("table_updated", None, None)]
        # Then live: her seat is back, her turn again (nothing moved while she was away), no snapshot.
        turn = await my_turn(back, table_id)
        assert not any(m.type == "snapshot" for m in back.log)
        last_turn = [m for m in ana.log if m.type == "turn"][-1]  # her act's ok may have come after it
        assert turn.model_dump(exclude={"seq"}) == last_turn.model_dump(exclude={"seq"})
        rng, message = random.Random(2), turn
        while not is_event("game_over")(message):
            assert message.type != "error", message
            if message.type == "turn" and message.legal_actions:
                action = choose(message.legal_actions, rng).model_dump()
                assert (await back.request(type="act", table_id=table_id, action=action)).type == "ok"
                acted.append(action)
            message = await back.next()
        assert await second.stop() == 0

    (record,) = await export(db)
    replay(record)
    seen = seen_actions(ana.log, table_id) + seen_actions(back.log[2 + welcome.replayed :], table_id)
    assert record_actions(record) == seen  # every action once, in order: nothing lost, nothing twice
    mine = [a for h in record["hands"] for a in h["actions"] if a["seat"] == 0]
    assert [a["type"] for a in mine] == [a["type"] for a in acted] and not any(a.get("auto") for a in mine)


async def test_a_chat_line_among_the_missed_messages_means_a_snapshot_after_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as first:
        ana, table_id, resume_from, _ = await play_a_while(first, chat=True)
        assert await first.stop(signal.SIGKILL) == -signal.SIGKILL
        await ana.closed_with(5)

    async with server_on(db) as second:
        back = await Player.connect(second.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", resume={"token": ana.token, "last_seq": resume_from}
        )
        assert welcome.resumed and welcome.replayed == 0, welcome
        snapshot = await back.next()
        assert snapshot.type == "snapshot" and snapshot.table.table_id == table_id
        assert snapshot.view is not None and snapshot.view.to_move == 0
        await my_turn(back, table_id)
