"""``/metrics`` over real HTTP (issue #24, item 13): the process's CPU, memory and descriptors, the event
loop's lag, the build's version, games finished and turn timeouts; a bearer token if the operator sets one."""

from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import time
import tomllib
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from server_testkit import Player, http_get, running_server

ROOT = Path(__file__).resolve().parents[2]


async def scrape(port: int, headers: dict[str, str] | None = None) -> dict[str, list[Sample]]:
    status, text = await http_get(port, "/metrics", headers)
    assert status == 200, text
    return {family.name: family.samples for family in text_string_to_metric_families(text)}


def value(samples: dict[str, list[Sample]], name: str, suffix: str = "_total", **labels: str) -> float:
    """The sum of ``name + suffix``'s samples with these labels."""
    found = samples.get(name, ())
    return sum(s.value for s in found if s.name == name + suffix and labels.items() <= s.labels.items())


async def test_process_build_and_loop_series_are_there() -> None:
    async with running_server() as server:
        samples = await scrape(server.port)
    assert value(samples, "process_cpu_seconds", "_total") >= 0
    assert value(samples, "process_resident_memory_bytes", "") > 0
    assert value(samples, "process_open_fds", "") > 0 and value(samples, "process_max_fds", "") > 0
    (build,) = samples["boneyard_build_info"]
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert build.labels["version"] == version == importlib.metadata.version("boneyard")
    assert build.value == 1


async def test_a_stalled_loop_shows_in_the_lag_histogram() -> None:
    async with running_server() as server:
        time.sleep(1.2)  # the point: the server's loop (this one) stalls for longer than a tick
        await asyncio.sleep(0.6)  # the late tick is observed, and the next one scheduled
        samples = await scrape(server.port)
    lag = "boneyard_event_loop_lag_seconds"
    count = value(samples, lag, "_count")
    within_half_second = value(samples, lag, "_bucket", le="0.5")
    # A tick due during the 1.2 s stall ran at least 0.7 s late: at least one observation is above 0.5 s.
    assert count >= 1 and within_half_second < count, samples[lag]


async def test_games_finished_and_turn_timeouts_are_counted() -> None:
    async with running_server() as server:
        bots = await Player.connect(server.url, "watcher")
        table = {"game": "straight", "options": {"players": 2, "target": 5}}
        created = await bots.request(type="create_table", **table, seat=None, bots=[0, 1])
        assert created.type == "table_created", created
        slow = await Player.connect(server.url, "slow")
        await slow.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=5)
        end = time.monotonic() + 30  # a safety net, not a measurement
        while True:
            samples = await scrape(server.port)
            finished = value(samples, "boneyard_games_finished", game="straight")
            timeouts = value(samples, "boneyard_turn_timeouts")
            if finished and timeouts:
                break
            assert time.monotonic() < end, (finished, timeouts)
            await asyncio.sleep(0.2)
    assert finished == 1 and value(samples, "boneyard_games_finished", game="moon") == 0
    assert timeouts >= 1  # slow never acts: the server played for her when her 5 s ran out


async def test_a_metrics_token_is_asked_for_and_only_its_hash_is_configured() -> None:
    token = "d1c3b5f0a7e94c26b8f1e2a3c4d5e6f7"
    digest = hashlib.sha256(token.encode()).hexdigest()
    async with running_server(metrics_token_sha256=digest) as server:
        status, body = await http_get(server.port, "/metrics")
        assert status == 401 and "boneyard_" not in body
        for wrong in ("Bearer nope", f"Basic {token}", f"Bearer {digest}"):  # the hash is not the token
            assert (await http_get(server.port, "/metrics", {"Authorization": wrong}))[0] == 401, wrong
        samples = await scrape(server.port, {"Authorization": f"Bearer {token}"})
        assert "boneyard_connections" in samples
        assert await http_get(server.port, "/healthz") == (200, "ok\n")  # health stays open to the checks
