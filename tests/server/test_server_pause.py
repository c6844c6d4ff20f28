"""The pause between hands through a real server on loopback: the next hand comes when every human is
ready or the pause is over, no turn clock runs in it, a restart mid-pause resumes it, and a table of
bots only is not slowed by it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from durability_kit import durable
from server_testkit import Player, choose, is_event, running_server

from boneyard.protocol import FEATURE_HAND_PAUSE


async def to_the_pause(players: list[Player], table_id: str) -> list[Any]:
    """Every player plays its turns (a Moon auction opens at 4, then passes) until the table pauses after
    the first hand; each player's ``hand_pause``."""
    rng = random.Random(5)

    async def one(player: Player) -> Any:
        while True:
            message = await player.next()
            assert message.type != "error", message
            if message.type == "hand_pause":
                return message
            if message.type == "turn" and message.table_id == table_id and message.legal_actions:
                action = choose(message.legal_actions, rng)
                await player.send(type="act", table_id=table_id, action=action.model_dump())

    return list(await asyncio.gather(*(one(p) for p in players)))


async def two_at_moon(url: str, **create: Any) -> tuple[Player, Player, str]:
    ana, bo = await Player.connect(url, "ana"), await Player.connect(url, "bo")
    created = await ana.request(type="create_table", game="moon", seat=0, bots=[2], **create)
    table_id = created.table.table_id
    await bo.request(type="join", table_id=table_id, seat=1)
    return ana, bo, table_id


async def test_the_next_hand_comes_when_every_human_is_ready() -> None:
    async with running_server(hand_pause_seconds=10) as server:
        ana, bo, table_id = await two_at_moon(server.url, turn_seconds=None, hand_pause_ms=60_000)
        hello = ana.log[0]
        assert FEATURE_HAND_PAUSE in hello.features
        assert (hello.limits.hand_pause_ms, hello.limits.max_hand_pause_ms) == (10_000, 60_000)
        paused = await to_the_pause([ana, bo], table_id)
        for message in paused:
            assert (message.pause.hand_number, message.pause.ready, message.pause.waiting) == (0, (), (0, 1))
            assert 55_000 < message.pause.time_left_ms <= 60_000
        # The hand's result came first; nothing of the next hand has come yet, nor any turn.
        ended = (is_event("hand_scored"), is_event("hand_thrown_in"))
        scored = next(i for i, m in enumerate(ana.log) if any(end(m) for end in ended))
        assert not any(is_event("hand_started")(m) for m in ana.log[scored:])
        assert ana.log[-1].type == "hand_pause"
        # Whoever comes to the table mid-pause learns of it from the snapshot.
        wes = await Player.connect(server.url, "wes")
        snapshot = await wes.request(type="spectate", table_id=table_id)
        assert snapshot.pause is not None and snapshot.pause.waiting == (0, 1)
        assert snapshot.view.to_move is None and snapshot.time_left_ms is None

        ok = await ana.request(type="ready", table_id=table_id)
        assert ok.type == "ok"
        told = await bo.until(lambda m: m.type == "hand_pause")
        assert (told.pause.ready, told.pause.waiting) == ((0,), (1,))
        started_before = len(bo.log)
        ok = await bo.request(type="ready", table_id=table_id)  # the last human: the next hand at once
        assert ok.type == "ok"
        after = bo.log[started_before:]
        kinds = [m.event.type if m.type == "event" else m.type for m in after]
        assert "hand_started" in kinds and kinds.index("hand_started") < kinds.index("ok")  # before the reply
        again = await ana.request(type="ready", table_id=table_id)  # outside a pause: harmless
        assert again.type == "ok"


async def test_no_turn_clock_runs_in_the_pause_and_it_ends_on_time() -> None:
    async with running_server() as server:
        # Shortest turn (5 s), a pause a little longer: a clock running in the pause would time a turn out.
        ana, bo, table_id = await two_at_moon(server.url, turn_seconds=5, hand_pause_ms=5_500)
        await to_the_pause([ana, bo], table_id)
        paused_at = len(ana.log)
        first_turn = await ana.until(lambda m: m.type == "turn" and m.seat in (0, 1), timeout=15)
        between = ana.log[paused_at:]
        events = [m.event.type for m in between if m.type == "event"]
        assert events[:2] == ["hand_started", "hand_dealt"], events  # nothing was played in the pause
        assert not any(getattr(m, "auto", False) for m in between)
        assert 4_500 < first_turn.time_left_ms <= 5_000  # the next hand's first human turn: a whole turn
        table = server.lobby.tables[table_id] if server.lobby else None
        assert table is not None and [s.timeouts for s in table.seats] == [0, 0, 0]


async def test_a_bots_only_table_is_not_slowed() -> None:
    async with running_server(hand_pause_seconds=30) as server:
        wes = await Player.connect(server.url, "wes")
        created = await wes.request(type="create_table", game="moon", seat=None, bots=[0, 1, 2])
        table_id = created.table.table_id
        await wes.request(type="spectate", table_id=table_id)
        await wes.until(is_event("game_over"), timeout=20)  # a pause of 30 s per hand would not get here
        hands = [m for m in wes.log if is_event("hand_started")(m)]
        assert len(hands) >= 2
        assert not any(m.type == "hand_pause" for m in wes.log)


async def test_a_restart_mid_pause_resumes_it(tmp_path: Path) -> None:
    async with durable(tmp_path, grace_seconds=30) as server:
        ana, bo, table_id = await two_at_moon(server.url, turn_seconds=None, hand_pause_ms=60_000)
        await to_the_pause([ana, bo], table_id)
        await ana.request(type="ready", table_id=table_id)
        await bo.until(lambda m: m.type == "hand_pause" and m.pause.ready == (0,))
        assert server.lobby is not None
        view = server.lobby.tables[table_id].engine.view(1)  # type: ignore[union-attr]

    async with durable(tmp_path, grace_seconds=30) as server:
        assert server.lobby is not None
        table = server.lobby.tables[table_id]
        assert table.engine is not None and table.engine.between_hands and table.engine.view(1) == view
        back = await Player.connect(server.url, "bo", identify=False)
        welcome = await back.request(type="identify", name="bo", resume={"token": bo.token, "last_seq": 0})
        assert welcome.resumed
        snapshot = await back.until(lambda m: m.type == "snapshot")
        pause = snapshot.pause
        assert pause is not None and (pause.hand_number, pause.ready, pause.waiting) == (0, (0,), (1,))
        assert 30_000 <= pause.time_left_ms <= 60_000  # what was left (at least the grace period)
        assert snapshot.view.to_move is None and snapshot.time_left_ms is None
        await back.request(type="ready", table_id=table_id)  # ana was ready before the restart
        started = await back.until(is_event("hand_started"))
        turn = await back.until(lambda m: m.type == "turn")
        assert (started.event.hand, turn.seat) == (1, started.event.first)
