"""Record fetches cannot buy the server's CPU (issue #15, item 2): a record is encoded once, however
often it is fetched, and a reply costs the client's rate limit by its size."""

from __future__ import annotations

from typing import Any

from server_testkit import Player, http_get, is_event, running_server

BOTS_ONLY = {"game": "moon", "options": {"target": 7}, "seat": None, "bots": [0, 1, 2]}


async def finished_record(player: Player) -> str:
    """Watch a bots-only game to its end; its record id."""
    created = await player.request(type="create_table", **BOTS_ONLY)
    await player.request(type="spectate", table_id=created.table.table_id)
    over = await player.until(is_event("game_over"), timeout=30)
    assert over.event.record_id is not None
    return str(over.event.record_id)


def metric(text: str, name: str) -> float:
    (value,) = [float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " ")]
    return value


async def test_a_record_is_encoded_once_however_often_it_is_fetched() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        record_id = await finished_record(ana)
        replies: list[Any] = [await ana.request(type="get_record", record_id=record_id) for _ in range(5)]
        assert {r.type for r in replies} == {"record"}
        assert all(r.record == replies[0].record and r.record_id == record_id for r in replies)
        _, text = await http_get(server.port, "/metrics")
        assert metric(text, "boneyard_records_encoded_total") == 1
        missing = await ana.request(type="get_record", record_id="rnope")
        assert missing.type == "error" and missing.code == "no_such_record"


async def test_a_big_reply_costs_the_rate_limit_by_its_size_as_hello_announces() -> None:
    per = 256
    async with running_server(commands_per_second=1, command_burst=40, reply_bytes_per_command=per) as server:
        ana = await Player.connect(server.url, "ana", identify=False)
        hello = ana.log[0]
        assert hello.type == "hello" and hello.limits.reply_bytes_per_command == per
        assert (await ana.request(type="identify", name="ana")).type == "welcome"
        record_id = await finished_record(ana)
        first = await ana.request(type="get_record", record_id=record_id)
        cost = 1 + len(ana.frames[-1]) // per
        assert cost > 4, "the record should be several times reply_bytes_per_command"
        fetched = 1
        while (await ana.request(type="get_record", record_id=record_id)).type == "record":
            fetched += 1
            assert fetched < 40, "fetching never hit the rate limit"
        assert first.type == "record"
        # 40 tokens, less the 3 commands before (identify, create_table, spectate): about 37 / cost fetches.
        assert fetched <= 37 // cost + 2, (fetched, cost)
