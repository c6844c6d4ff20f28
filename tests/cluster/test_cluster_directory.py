"""The cluster-wide directory: every node's mirror sees every write, in order, removals included."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import nats
import pytest
from nats.aio.client import Client as NATS

from boneyard.server.cluster.directory import Directory
from boneyard.server.cluster.mirror import LobbyMirror
from boneyard.server.cluster.writes import Writes


async def _until(condition: object, seconds: float = 5.0) -> None:
    assert callable(condition)
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met")


if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures


async def test_two_nodes_see_each_others_tables_and_removals(nats_server: NatsServer, nc: NATS) -> None:
    other = await nats.connect(nats_server.url)
    try:
        a = await Directory.open(nc.jetstream(), "boneyard-tables")
        b = await Directory.open(other.jetstream(), "boneyard-tables")
        await a.put("t1", b"moon at node-a")
        await b.put("t2", b"straight at node-b")
        await _until(lambda: a.entries == b.entries == {"t1": b"moon at node-a", "t2": b"straight at node-b"})
        await a.remove("t2")
        await _until(lambda: a.entries == b.entries == {"t1": b"moon at node-a"})
        await a.close()
        await b.close()
    finally:
        await other.close()


async def test_a_node_that_opens_later_starts_from_the_whole_directory(nc: NATS) -> None:
    first = await Directory.open(nc.jetstream(), "boneyard-tokens")
    for n in range(20):
        await first.put(f"token{n}", b"player %d" % n)
    await first.remove("token3")
    late = await Directory.open(nc.jetstream(), "boneyard-tokens")
    assert late.entries == {f"token{n}": b"player %d" % n for n in range(20) if n != 3}
    await first.close()
    await late.close()


async def test_changes_arrive_in_the_order_they_were_written(nc: NATS) -> None:
    """In order, and the last value of a key always arrives. A value overwritten before the watch
    delivered it may be skipped: the bucket keeps one value a key (the mirror needs only the last)."""
    directory = await Directory.open(nc.jetstream(), "boneyard-tables")
    changes = directory.changes()
    await directory.put("t1", b"1")
    await directory.put("t1", b"2")
    await directory.remove("t1")
    await directory.put("t2", b"end")
    seen = []
    while not seen or seen[-1] != ("t2", b"end"):
        seen.append(await asyncio.wait_for(anext(changes), 10))
    written = [("t1", b"1"), ("t1", b"2"), ("t1", None), ("t2", b"end")]
    positions = [written.index(change) for change in seen]
    assert positions == sorted(set(positions)), seen  # in the order written, none twice
    assert ("t1", None) in seen  # a key's last change is never skipped
    assert "t1" not in directory.entries and directory.entries["t2"] == b"end"
    changes.close()
    await directory.close()


async def test_once_caught_up_a_mirror_holds_every_write_acknowledged_before(
    nats_server: NatsServer, nc: NATS
) -> None:
    """What a resume through another node relies on: a seat written (and acknowledged) on one node
    is in every other node's mirror, and its listeners' changes, once ``caught_up`` returns."""
    other = await nats.connect(nats_server.url)
    try:
        a = await Directory.open(nc.jetstream(), "boneyard-tables")
        b = await Directory.open(other.jetstream(), "boneyard-tables")
        changes = b.changes()
        for n in range(30):
            await a.put(f"t{n}", b"seat %d" % n)
            assert await b.caught_up(5.0)
            assert b.entries[f"t{n}"] == b"seat %d" % n  # no wait in between: caught up
            assert changes.taken() == [(f"t{n}", b"seat %d" % n)]  # in order, taken once
        assert await b.caught_up(5.0) and changes.taken() == []  # nothing new: at once, nothing more
        changes.close()
        await a.close()
        await b.close()
    finally:
        await other.close()


async def test_a_resume_goes_on_when_nats_cannot_say_how_far_the_directory_is(
    nats_server: NatsServer, caplog: pytest.LogCaptureFixture
) -> None:
    """NATS out of reach as a player resumes through this node: the seat look-up goes on with the
    mirror as it is, with one line in the log (no exception ends the resume)."""
    gone = await nats.connect(nats_server.url)
    directory = await Directory.open(gone.jetstream(), "boneyard-tables")
    mirror = LobbyMirror("n1", directory, Writes(asyncio.get_running_loop()))
    await gone.close()
    with caplog.at_level(logging.WARNING, logger="boneyard.cluster"):
        await mirror.caught_up()
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "cannot ask the directory how far it is"
    ]
