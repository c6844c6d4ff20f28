"""The new-game seam, proven by Duel (``tests/newgame``): a game registered only here, by its engine,
its ``GameSpec`` and its wire module, runs through everything the built-in games run through with no
line of the server, the protocol or the records code changed for it: the lobby (``list_tables``,
``create_table``), tables with bots and turn timers, fair deals, records (``get_record``, replay),
the hidden-information oracle, ``simulate`` and ``arena``."""

from __future__ import annotations

import json
from collections.abc import Iterator

import msgpack
import pytest
from duel import TILES
from duel_kit import registered
from duel_spec import DUEL_SPEC
from server_oracle import check_connection, check_seed_secrecy
from server_testkit import Player, is_event, running_server
from table_kit import FakeHost, player
from test_server_games import play_game

from boneyard.protocol import RECORD_ADAPTER, fairness
from boneyard.protocol.codec import ProtocolError, decode_command
from boneyard.server.arena import run_arena
from boneyard.server.games.record_replay import replay
from boneyard.server.record_store import validated
from boneyard.server.simulate import simulate


@pytest.fixture
def duel() -> Iterator[str]:
    with registered() as name:
        yield name


async def test_people_play_a_duel_to_the_end_seeing_only_their_own_tiles(duel: str) -> None:
    async with running_server(seed=5, deal_seed_wait_ms=20) as server:
        result = await play_game(server.url, duel, {"target": 4}, seed=3, accept=("turn_in_event",))
    record = result["record"]
    assert record["game"] == duel and record["winner"] == result["winner"]
    engine = replay(record)
    assert engine.is_over and engine.winner == result["winner"]
    checked = 0
    for (log, seat), frames in zip(result["connections"], result["frames"], strict=True):
        checked += check_connection(log, seat, record, result["table_id"])
        check_seed_secrecy(frames, log, record, result["table_id"])
    assert checked >= len(record["hands"]) * len(TILES)  # every hand's deal reached its seats


async def test_hello_names_every_game_the_server_plays_the_test_game_included(duel: str) -> None:
    async with running_server() as server:
        player = await Player.connect(server.url, "ana", identify=False)
        hello = player.log[0]
        await player.close()
    assert hello.type == "hello"
    offered = [(offer.game, offer.players) for offer in hello.games]
    assert offered == [("moon", 3), ("straight", 4), ("texas42", 4), (duel, 2)]


async def test_a_table_of_bots_is_listed_played_out_and_its_record_fetched(duel: str) -> None:
    async with running_server(seed=2) as server:
        watcher = await Player.connect(server.url, "watcher")
        created = await watcher.request(type="create_table", game=duel, bots=[0, 1], seat=None)
        table_id = created.table.table_id
        assert created.table.game == duel and created.table.options.target == 3
        listed = await watcher.request(type="list_tables")
        assert [t.game for t in listed.tables if t.table_id == table_id] == [duel]
        await watcher.request(type="spectate", table_id=table_id)
        over = await watcher.until(is_event("game_over"), timeout=30)
        reply = await watcher.request(type="get_record", record_id=over.event.record_id)
        await watcher.close()
    record = reply.record.model_dump()
    assert type(reply.record).__name__ == "DuelRecord" and record["seat_names"] is not None
    assert replay(json.loads(json.dumps(record))).winner == over.event.winner
    assert fairness.verify_record(record) == []


async def test_the_lobby_refuses_bad_duel_options_with_the_models_message(duel: str) -> None:
    frame = msgpack.packb({"type": "create_table", "id": 1, "game": duel, "options": {"target": 99}})
    with pytest.raises(ProtocolError) as refused:
        decode_command(frame)
    assert refused.value.code == "invalid_message" and "target" in refused.value.message
    frame = msgpack.packb({"type": "create_table", "id": 2, "game": duel, "bots": [2]})
    with pytest.raises(ProtocolError) as refused:
        decode_command(frame)
    assert refused.value.code == "no_such_seat"


def test_a_timed_out_duel_player_is_played_for_and_the_record_says_so(duel: str) -> None:
    host = FakeHost()
    table = host.table(duel, {"target": 1}, turn_seconds=10, bots=[1])
    person = player("p0")
    table.owner = person.session.player_id
    table.seating.join(person.session, 0, reply_to=None)
    for _ in range(len(TILES) * 20):  # every turn of the person's times out; the bot plays at once
        assert table.match is not None and table.match.engine is not None
        if table.match.engine.is_over:
            break
        host.clock.advance(10.01)
    assert table.seats[0].timeouts > 0
    autos = [m for m in person.messages if m.type == "event" and m.auto]
    assert autos and all(m.event.seat == 0 for m in autos if m.event.type == "tile_played")
    record = host.records.get("r1")
    assert record is not None and type(record).__name__ == "DuelRecord"
    plays = [entry for hand in record.hands for entry in hand.actions]
    assert any(entry.auto for entry in plays if entry.seat == 0)


def test_simulate_plays_duels_whose_records_verify_and_replay(duel: str) -> None:
    records = list(simulate(DUEL_SPEC, DUEL_SPEC.options_from_dict({"target": 2}), 5, seed=4))
    assert len(records) == 5
    for record in records:
        assert fairness.verify_record(record) == []
        assert replay(json.loads(json.dumps(record))).winner == record["winner"]
        assert RECORD_ADAPTER.validate_python(record) == validated(record)


def test_arena_runs_duel(duel: str) -> None:
    result = run_arena(duel, ["basic", "basic"], games=3, seed=1)
    assert result.game == duel and result.games == 3
    basic = result.levels["basic"]
    assert basic.games == 3 and basic.wins == 3  # both seats are basic: every game is a basic win
    assert basic.seconds and basic.contracts == 0  # moves were timed; Duel has no contracts to count


def test_forgotten_duel_is_unknown_again() -> None:
    """Without the fixture the game is nowhere: the seam holds no trace of it."""
    frame = msgpack.packb({"type": "create_table", "game": "duel"})
    with pytest.raises(ProtocolError, match="does not match any of the expected tags"):
        decode_command(frame)
    assert fairness.deal_rule("duel") is None
