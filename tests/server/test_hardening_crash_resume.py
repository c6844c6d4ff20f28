"""An exact resume after a crash (issue #15, item 13), from the client's side.

A player plays part of a Moon hand with two bots on a real server subprocess; the server is killed
(``kill -9``) while it waits for her; a new one starts on the same file; she resumes with a
``last_seq`` from before her last act. The messages replayed are the ones she had read from there,
byte for byte but their ``seq`` (events, turns, the ``ok`` of her act), then the restart's own
``seat_status`` and ``table_updated``; live play goes on with no gap to the end of the game, and the
record holds each of her acts once. A chat line in that stretch is not in the journal: the resume
gets a snapshot instead.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import Any

from durability_kit import ServerProcess, export, record_actions, seen_actions, server_on
from server_testkit import Player, choose, is_event

from boneyard.server.games.records import replay

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
