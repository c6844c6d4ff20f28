"""Bot levels at a real server: chosen per seat at creation, shown in the table, played off the event loop
by worker processes, and refused when malformed (kept over a restart: test_server_restore_bots.py)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from server_testkit import Player, is_event, running_server

from boneyard.server.botmoves import bot_random
from boneyard.server.games.record_replay import RecordDealer, replay
from boneyard.server.games.registry import game_spec

TABLES = [
    ("moon", {"target": 5}, [0, 1, 2], ["basic", "good", "strong"]),
    ("straight", {"players": 3, "target": 40}, [0, 1, 2], ["strong", "basic", "good"]),
    ("straight", {"players": 4, "partnerships": True, "target": 40}, [0, 1, 2, 3], ["good", "strong"] * 2),
    ("texas42", {"nello": True, "target": 2}, [0, 1, 2, 3], ["strong", "basic", "good", "strong"]),
]


@pytest.mark.parametrize(("game", "options", "bots", "levels"), TABLES)
async def test_bots_only_tables_of_every_level_finish_and_their_records_replay(
    game: str, options: dict[str, Any], bots: list[int], levels: list[str]
) -> None:
    async with running_server(bot_workers=1) as server:
        wes = await Player.connect(server.url, "wes")
        created = await wes.request(
            type="create_table", game=game, options=options, bots=bots, bot_levels=levels, seat=None
        )
        assert [s.level for s in created.table.seats] == levels
        await wes.request(type="spectate", table_id=created.table.table_id)
        over = (await wes.until(is_event("game_over"), timeout=120)).event
        record = (await wes.request(type="get_record", record_id=over.record_id)).record.model_dump()
        replay(record)
        assert record["winner"] == over.winner


async def test_levels_are_listed_and_announced() -> None:
    async with running_server(bot_workers=1) as server:
        ana = await Player.connect(server.url, "ana")
        hello = ana.log[0]
        assert hello.type == "hello" and "bot_levels" in hello.features
        created = await ana.request(
            type="create_table", game="straight", options={"players": 3}, bots=[2], bot_levels=["strong"]
        )
        assert [(s.bot, s.level) for s in created.table.seats] == [
            (False, None),
            (False, None),
            (True, "strong"),
        ]
        plain = await ana.request(type="create_table", game="moon", bots=[1, 2], seat=None)
        assert [s.level for s in plain.table.seats] == [None, "basic", "basic"]  # the v1 default


@pytest.mark.parametrize("away_level", ["good", "strong"])
async def test_a_seat_given_up_mid_game_goes_to_a_bot_of_the_away_level(away_level: str) -> None:
    async with running_server(bot_workers=1, away_bot_level=away_level) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        await ana.until(is_event("hand_started"))
        watcher = await Player.connect(server.url, "wes")
        await watcher.request(type="spectate", table_id=table_id)
        await ana.request(type="leave", table_id=table_id)
        changed = await watcher.until(lambda m: m.type == "table_updated" and m.table.seats[0].bot)
        assert [(s.bot, s.level) for s in changed.table.seats] == [
            (True, away_level),
            (True, "basic"),
            (True, "basic"),
        ]


@pytest.mark.parametrize(
    "command",
    [
        {"bots": [1, 2], "bot_levels": ["strong"]},  # one level per bot
        {"bots": [1], "bot_levels": ["grandmaster"]},
        {"bots": [], "bot_levels": ["good"]},
    ],
)
async def test_malformed_levels_are_refused_and_nothing_is_created(command: dict[str, Any]) -> None:
    async with running_server(bot_workers=1) as server:
        ana = await Player.connect(server.url, "ana")
        # Sent as raw bytes: the test kit would refuse to send an invalid command.
        frame = {"type": "create_table", "id": 7, "game": "moon", "seat": 0, **command}
        await ana.ws.send(msgpack.packb(frame))
        reply = await ana.next()
        assert reply.type == "error" and reply.code == "invalid_message" and reply.reply_to == 7
        assert (await ana.request(type="list_tables")).tables == ()


@pytest.mark.parametrize(("away_level", "not_levels"), [("strong", ("basic", "good")), ("basic", ("good",))])
async def test_an_away_player_is_played_at_the_away_level(
    away_level: str, not_levels: tuple[str, ...]
) -> None:
    """Bo drops for good: every move the server makes for him is the choice of an ``away_bot_level`` bot
    from his seat's view and the move's seed (recomputed from the record and its revealed seed), and some
    of them differ from what the other levels would have chosen, so a server ignoring the setting fails."""
    # A seeded server deals the same game every run (the bots' choices follow from the seed), so the
    # moves where the levels differ are there every run, not only in most deals.
    async with running_server(bot_workers=1, away_bot_level=away_level, grace_seconds=0.05, seed=5) as server:
        bo = await Player.connect(server.url, "bo")
        created = await bo.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2], turn_seconds=None
        )
        watcher = await Player.connect(server.url, "wes")
        await watcher.request(type="spectate", table_id=created.table.table_id)
        bo.ws.transport.abort()
        away = await watcher.until(lambda m: m.type == "seat_status" and m.seat == 0 and m.auto, timeout=10)
        assert not away.connected
        over = (await watcher.until(is_event("game_over"), timeout=120)).event
        record = (await watcher.request(type="get_record", record_id=over.record_id)).record.model_dump()
    spec = game_spec("moon")
    engine = spec.new_game(spec.options_from_dict(record["options"]), RecordDealer(record))
    seed = record["fairness"]["server_seed"]
    chosen = 0
    differs = dict.fromkeys(not_levels, 0)
    for moves, entry in enumerate(a for hand in record["hands"] for a in hand["actions"]):
        action = spec.action_from_record(entry)
        if entry["seat"] == 0:
            assert entry.get("auto") is True, "the server played every move of his"
            view = engine.view(0)
            if len(view.legal_actions) > 1:
                chosen += 1
                assert spec.bot_at(away_level)(view, bot_random(seed, moves)) == action
                for level in not_levels:
                    differs[level] += spec.bot_at(level)(view, bot_random(seed, moves)) != action
        engine.apply(entry["seat"], action)
    assert chosen >= 5
    assert all(differs.values()), (chosen, differs)
