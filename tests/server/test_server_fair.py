"""Fair deals through a real server: the commitment before the first deal, seeds announced and used,
the wait, the reveal, restarts (graceful and ``kill -9``) between commitment and reveal, and the
upgrade of a database holding a game dealt before fair deals."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
from pathlib import Path
from typing import Any

from durability_kit import durable, export, server_on
from server_testkit import Player, is_event, running_server

from boneyard.protocol import fairness
from boneyard.protocol.spec.gen import GUIDE
from boneyard.server.games.dealers import KeyedDealer
from boneyard.server.games.record_replay import replay
from boneyard.server.games.registry import game_spec
from boneyard.server.settings import Settings
from boneyard.server.storage.db import MIGRATIONS
from boneyard.server.wire import wire_action

ANA, BO = "a1" * 32, "b2" * 32


async def table_of_two(url: str, **create: Any) -> tuple[Player, Player, str]:
    """ana (seat 0) and bo (seat 1) at a new two-seat Straight table; the game is starting."""
    ana, bo = await Player.connect(url, "ana"), await Player.connect(url, "bo")
    created = await ana.request(
        type="create_table", game="straight", options={"players": 2, "target": 50}, seat=0, turn_seconds=None,
        **create,
    )  # fmt: skip
    table_id = created.table.table_id
    assert (await bo.request(type="join", table_id=table_id, seat=1)).type == "seated"
    return ana, bo, table_id


def dealt(player: Player, table_id: str) -> tuple[tuple[int, int], ...]:
    event = next(m.event for m in player.log if m.type == "event" and m.event.type == "hand_dealt")
    return tuple(tuple(t) for t in event.tiles)  # type: ignore[misc]


async def finish(players: list[Player], table_id: str) -> dict[str, Any]:
    """Play the game out; the record (fetched) once everyone has the reveal."""
    overs = await asyncio.gather(*(p.play(table_id) for p in players))
    for p in players:
        await p.until(lambda m: m.type == "deal_revealed")
    reply = await players[0].request(type="get_record", record_id=overs[0].record_id)
    return reply.record.model_dump(mode="json")  # type: ignore[union-attr, no-any-return]


async def test_the_commitment_comes_first_and_every_seed_is_announced_and_used() -> None:
    # A wait far longer than the test reads for: the deal can only come because both seeds are in.
    async with running_server(deal_seed_wait_ms=10_000) as server:
        ana, bo, table_id = await table_of_two(server.url)
        watcher = await Player.connect(server.url, "wes")
        assert "fair_deals" in ana.log[0].features
        commitment = await ana.until(lambda m: m.type == "deal_commitment")
        assert (commitment.seats, commitment.wait_ms, commitment.algorithm) == (
            (0, 1),
            10_000,
            "boneyard-deal/1",
        )
        assert not any(m.type == "event" for m in ana.log), "nothing is dealt before the commitment"
        await watcher.request(type="spectate", table_id=table_id)  # a latecomer gets it too
        late = await watcher.until(lambda m: m.type == "deal_commitment")
        assert late.commitment == commitment.commitment
        assert 0 < late.wait_ms <= 10_000, "a latecomer during the wait is told what is left of it"
        assert (await ana.request(type="contribute_seed", table_id=table_id, seed=ANA)).type == "ok"
        again = await ana.request(type="contribute_seed", table_id=table_id, seed=BO)
        assert (again.type, again.code) == ("error", "seed_closed")
        spectator = await watcher.request(type="contribute_seed", table_id=table_id, seed=BO)
        assert (spectator.type, spectator.code) == ("error", "not_seated")
        for p in (ana, bo, watcher):
            announced = await p.until(lambda m: m.type == "seed_contributed")
            assert (announced.seat, announced.seed) == (0, ANA)
        assert (await bo.request(type="contribute_seed", table_id=table_id, seed=BO)).type == "ok"
        await ana.until(is_event("hand_dealt"), timeout=5)
        closed = await ana.request(type="contribute_seed", table_id=table_id, seed=ANA)
        assert (closed.type, closed.code) == ("error", "seed_closed")
        after = await Player.connect(server.url, "wyn")
        await after.request(type="spectate", table_id=table_id)
        assert (await after.until(lambda m: m.type == "deal_commitment")).wait_ms == 0, "no wait once dealt"
        await after.close()
        record = await finish([ana, bo], table_id)
        await watcher.close()
    proof = record["fairness"]
    assert proof["player_seeds"] == [ANA, BO] and proof["commitment"] == commitment.commitment
    assert fairness.verify_record(record) == []
    server_seed = bytes.fromhex(proof["server_seed"])
    first = fairness.deal("straight", 2, server_seed, [bytes.fromhex(ANA), bytes.fromhex(BO)], 0)
    assert sorted(dealt(ana, table_id)) == sorted(first.hands[0])


async def test_a_resume_with_a_fresh_snapshot_gets_the_commitment_and_the_seeds_it_missed() -> None:
    """Issue #26's connection that survives anything: a player away while a seed was announced, back in
    another shape (so the server sends a snapshot, not what it missed), still gets the game's commitment
    and every seed so far after the snapshot, and so can check the reveal."""
    async with running_server(deal_seed_wait_ms=10_000) as server:
        ana, bo, table_id = await table_of_two(server.url)
        commitment = await bo.until(lambda m: m.type == "deal_commitment")
        token, seq = bo.token, bo.seq
        await bo.close()
        assert (await ana.request(type="contribute_seed", table_id=table_id, seed=ANA)).type == "ok"
        back = await Player.connect(server.url, "bo", identify=False)
        welcome = await back.request(
            type="identify", name="bo", resume={"token": token, "last_seq": seq}, accept=["turn_in_event"]
        )
        assert welcome.resumed and welcome.replayed == 0  # another shape: a snapshot instead
        snapshot = await back.until(lambda m: m.type == "snapshot")
        again = await back.until(lambda m: m.type == "deal_commitment")
        seed = await back.until(lambda m: m.type == "seed_contributed")
        assert again.commitment == commitment.commitment and (seed.seat, seed.seed) == (0, ANA)
        assert snapshot.seq < again.seq < seed.seq
        # What is left of the wait, not 0: a client gives its seed only while the wait runs.
        assert 0 < again.wait_ms <= 10_000
        # ana, back in another shape after giving her seed (the deal still waits for bo's), is told
        # there is nothing left to wait for from her.
        ana_token, ana_seq = ana.token, ana.seq
        await ana.close()
        ana = await Player.connect(server.url, "ana", identify=False)
        await ana.request(type="identify", name="ana", resume={"token": ana_token, "last_seq": ana_seq},
                          accept=["turn_in_event"])  # fmt: skip
        assert (await ana.until(lambda m: m.type == "deal_commitment")).wait_ms == 0
        ana.token, ana.table_id, ana.seat = ana_token, table_id, 0
        assert (await back.request(type="contribute_seed", table_id=table_id, seed=BO)).type == "ok"
        back.token, back.table_id, back.seat = token, table_id, 1
        record = await finish([ana, back], table_id)
    assert record["fairness"]["player_seeds"] == [ANA, BO]


async def test_a_players_seed_changes_the_deal() -> None:
    """Same server seed (a fixed ``settings.seed``, same table and game), different seeds from ana."""
    hands = []
    for seed in (ANA, BO, None):
        # A seed sent is waited for as long as it may take (the deal follows it at once): one that came
        # after a short wait, on a loaded machine, would not be in the deal. None: the deal after 300 ms.
        wait = 300 if seed is None else 10_000
        async with running_server(seed=5, deal_seed_wait_ms=wait) as server:
            ana = await Player.connect(server.url, "ana")
            await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
            commitment = await ana.until(lambda m: m.type == "deal_commitment")
            assert commitment.seats == (0,)
            if seed is not None:  # else the deal comes when the 300 ms are up
                await ana.request(type="contribute_seed", table_id=commitment.table_id, seed=seed)
            await ana.until(is_event("hand_dealt"), timeout=5)
            hands.append((commitment.commitment, dealt(ana, commitment.table_id)))
            await ana.close()
    assert len({c for c, _ in hands}) == 1, "one server seed"
    assert len({tuple(sorted(h)) for _, h in hands}) == 3, "each contribution deals other tiles"


async def test_the_wait_runs_out_and_a_table_without_humans_does_not_wait() -> None:
    async with running_server(deal_seed_wait_ms=150) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(
            type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None, options={"target": 7}
        )
        table_id = created.table.table_id
        await ana.until(is_event("hand_dealt"))  # nobody contributed: dealt once the 150 ms are up
        record = await finish([ana], table_id)
        assert record["fairness"]["player_seeds"] == [None, None, None]
        assert fairness.verify_record(record) == []
        watcher = await Player.connect(server.url, "wes")
        bots = await watcher.request(type="create_table", game="moon", seat=None, bots=[0, 1, 2])
        bots_id = bots.table.table_id
        snapshot = await watcher.request(type="spectate", table_id=bots_id)
        assert snapshot.type == "snapshot" and snapshot.view is not None  # dealt at once
        commitment = await watcher.until(lambda m: m.type == "deal_commitment" and m.table_id == bots_id)
        assert commitment.seats == () and commitment.wait_ms == 0
        await watcher.close()


async def test_a_graceful_restart_during_the_wait_and_mid_game_still_verifies(tmp_path: Path) -> None:
    async with durable(tmp_path, deal_seed_wait_ms=10_000) as server:
        ana, bo, table_id = await table_of_two(server.url)
        commitment = await ana.until(lambda m: m.type == "deal_commitment")
        await ana.request(type="contribute_seed", table_id=table_id, seed=ANA)
        tokens = (ana.token, ana.seq), (bo.token, bo.seq)
    # The server stopped while waiting for bo's seed: it waits again, then deals with ana's seed in.
    async with durable(tmp_path, deal_seed_wait_ms=10_000) as server:
        players = []
        for name, (token, seq) in zip(("ana", "bo"), tokens, strict=True):
            player = await Player.connect(server.url, name, identify=False)
            await player.request(type="identify", name=name, resume={"token": token, "last_seq": seq})
            player.token, player.table_id, player.seat = token, table_id, len(players)
            players.append(player)
        ana, bo = players
        assert (await bo.request(type="contribute_seed", table_id=table_id, seed=BO)).type == "ok"
        turn = await ana.until(lambda m: m.type == "turn")
        mover = players[turn.seat]
        mine = turn if mover is ana else await bo.until(lambda m: m.type == "turn")
        await mover.request(type="act", table_id=table_id, action=mine.legal_actions[0].model_dump())
        tokens = (ana.token, ana.seq), (bo.token, bo.seq)
    # And once more mid-game: the same tiles come back, and the record verifies.
    async with durable(tmp_path, deal_seed_wait_ms=10_000) as server:
        players = []
        for name, (token, seq) in zip(("ana", "bo"), tokens, strict=True):
            player = await Player.connect(server.url, name, identify=False)
            welcome = await player.request(
                type="identify", name=name, resume={"token": token, "last_seq": seq}
            )
            assert welcome.resumed
            for _ in range(welcome.replayed):  # what was sent as the server stopped; a fresh turn follows
                await player.next()
            players.append(player)
        record = await finish(players, table_id)
    assert record["fairness"]["commitment"] == commitment.commitment
    assert record["fairness"]["player_seeds"] == [ANA, BO]
    assert fairness.verify_record(record) == []


async def test_a_crash_between_commitment_and_reveal_still_verifies(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    env = {"BONEYARD_DEAL_SEED_WAIT_MS": "10000"}
    async with server_on(db, env) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(
            type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None, options={"target": 7}
        )
        table_id = created.table.table_id
        commitment = await ana.until(lambda m: m.type == "deal_commitment")
        await ana.request(type="contribute_seed", table_id=table_id, seed=ANA)
        hand = tuple(tuple(t) for t in (await ana.until(is_event("hand_dealt"))).event.tiles)
        await ana.until(lambda m: m.type == "turn")
        token = ana.token
        assert await server.stop(signal.SIGKILL) == -signal.SIGKILL
    async with server_on(db, env) as server:
        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", resume={"token": token, "last_seq": ana.seq}
        )
        assert welcome.resumed and welcome.replayed == 0  # after a crash: a fresh snapshot
        snapshot = await back.until(lambda m: m.type == "snapshot")
        assert snapshot.view is not None and snapshot.view.hand_number == 0
        record = await finish([back], table_id)
        await server.stop()
    assert record["fairness"]["commitment"] == commitment.commitment
    assert record["fairness"]["player_seeds"] == [ANA, None, None]
    assert sorted(tuple(t) for t in record["hands"][0]["deal"][0]) == sorted(hand)
    assert fairness.verify_record(record) == []
    (exported,) = await export(db)  # `records export` writes the seeds too
    assert exported["fairness"] == record["fairness"] and fairness.verify_record(exported) == []


async def test_a_game_stored_before_fair_deals_goes_on_with_its_old_dealer_after_the_upgrade(
    tmp_path: Path,
) -> None:
    """Schema 3 -> now: a game in progress, dealt by the keyed dealer, comes back with the same tiles;
    the next game (a rematch) is a fair deal."""
    spec = game_spec("moon")
    options = spec.options_from_dict({"target": 7})
    engine = spec.new_game(options, KeyedDealer("legacy/t1/1"))
    actions = []
    while engine.to_move != 0:
        seat = engine.to_move
        assert seat is not None
        action = spec.bot(engine.view(seat), random.Random(len(actions)))
        engine.apply(seat, action)
        actions.append((seat, json.dumps(wire_action(action))))
    db = tmp_path / "boneyard.db"
    connection = sqlite3.connect(db, isolation_level=None)
    for statement in (*MIGRATIONS[0], *MIGRATIONS[1], *MIGRATIONS[2], "PRAGMA user_version = 3"):
        connection.execute(statement)
    connection.execute(
        "INSERT INTO tables (table_id, game, options, turn_seconds, status, games, seed, rematch)"
        " VALUES ('t1', 'moon', ?, NULL, 'playing', 1, 'legacy/t1/1', '[]')",
        (json.dumps(options.as_dict()),),
    )
    token = "legacy-token-0123456789"
    connection.executemany(
        "INSERT INTO seats VALUES ('t1', ?, ?, ?, 0, ?, 0)",
        [(0, "ana", 0, token), (1, "bot-1", 1, None), (2, "bot-2", 1, None)],
    )
    connection.execute("INSERT INTO sessions (token, player_id, name) VALUES (?, 'p1', 'ana')", (token,))
    connection.executemany(
        "INSERT INTO actions VALUES ('t1', 1, ?, ?, ?, 0)", [(i, s, a) for i, (s, a) in enumerate(actions)]
    )
    connection.close()
    async with durable(tmp_path, deal_seed_wait_ms=0) as server:
        assert server.lobby is not None
        table = server.lobby.tables["t1"]
        assert table.engine is not None and table.moves == len(actions)
        assert table.engine.record()["hands"][0]["deal"] == engine.record()["hands"][0]["deal"]
        ana = await Player.connect(server.url, "ana", identify=False)
        welcome = await ana.request(type="identify", name="ana", resume={"token": token, "last_seq": 0})
        assert welcome.resumed
        ana.token, ana.seat = token, 0
        old = await finish_legacy(ana)
        assert "fairness" not in old and not any(m.type == "deal_revealed" for m in ana.log)
        assert replay(old).winner == old["winner"]
        await ana.request(type="rematch", table_id="t1")
        new = await finish([ana], "t1")
    assert fairness.verify_record(new) == []


async def finish_legacy(player: Player) -> dict[str, Any]:
    over = await player.play("t1")
    reply = await player.request(type="get_record", record_id=over.record_id)
    return reply.record.model_dump(mode="json")  # type: ignore[union-attr, no-any-return]


def test_the_spec_states_the_default_wait_and_the_settings_keep_it() -> None:
    wait = Settings().deal_seed_wait_ms
    assert f"`deal_seed_wait_ms` setting, {wait} ms by default" in GUIDE.read_text(encoding="utf-8")


async def test_a_server_with_a_fixed_seed_says_so_in_every_hello() -> None:
    """``BONEYARD_SEED`` (a setting for tests) makes every deal predictable: every ``hello`` lists
    ``fixed_seed`` (and ``fair_deals`` still: the deals are committed to and dealt as usual)."""
    async with running_server(seed=3) as server:
        for name in ("ana", "bo"):
            hello = (await Player.connect(server.url, name)).log[0]
            assert hello.type == "hello" and {"fair_deals", "fixed_seed"} <= set(hello.features)
    async with running_server() as server:
        hello = (await Player.connect(server.url, "ana")).log[0]
        assert "fair_deals" in hello.features and "fixed_seed" not in hello.features
