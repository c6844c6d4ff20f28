"""The cluster's pieces without subprocesses: the write-ahead gate, relay sessions, the journal TableLog.

The journal test runs a real in-process node (``BoneyardServer`` with ``cluster``) on a real nats-server
and reads the table's journal back the way a takeover does.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import msgpack
import pytest
from clusterkit import Player

from boneyard.server.app import BoneyardServer
from boneyard.server.cluster.journal import TableJournal
from boneyard.server.cluster.node import ClusterNode
from boneyard.server.cluster.relay import BODY, PLACES, Bus, RelaySession, outbox
from boneyard.server.cluster.tablelog import fold
from boneyard.server.cluster.writes import RECORDS, Writes
from boneyard.server.settings import Settings
from boneyard.server.wire import body_of_dict

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def test_writes_run_in_order_and_what_waits_goes_after_them() -> None:
    writes = Writes(asyncio.get_running_loop())
    done: list[str] = []

    def write(name: str) -> Callable[[], Awaitable[bool]]:
        async def run() -> bool:
            await asyncio.sleep(0.001 * (3 - len(done)))  # the first takes longest
            done.append(name)
            return True

        return run

    writes.write(write("a"))
    writes.after_commit(lambda: done.append("after a"))
    writes.write(write("b"))
    writes.after_commit(lambda: done.append("after b"))
    assert writes.pending()
    assert await writes.settled()
    assert done == ["a", "after a", "b", "after b"] and not writes.pending()
    writes.after_commit(lambda: done.append("at once"))
    assert done[-1] == "at once"


def gated(gates: dict[str, asyncio.Event], log: list[str]) -> Callable[[str], Callable[[], Awaitable[bool]]]:
    """Writes named ``name`` that log when they start and end, held until their gate (if any) is set."""

    def write(name: str) -> Callable[[], Awaitable[bool]]:
        async def run() -> bool:
            log.append(f"{name} starts")
            if name in gates:
                await gates[name].wait()
            log.append(f"{name} done")
            return True

        return run

    return write


async def test_writes_of_different_keys_run_at_once_and_a_purge_waits_for_the_records_only() -> None:
    """A node's appends in one line waited for one another's acknowledgements at hundreds of tables:
    only a key's writes are in order; what waits for the writes waits for every one made before it; a
    journal compacted or purged waits for the records made before it, and nothing else."""
    writes = Writes(asyncio.get_running_loop())
    gates = {name: asyncio.Event() for name in ("t1 a", "t2 a", "record")}
    log: list[str] = []

    write = gated(gates, log)

    writes.write(write("t1 a"), "t1")
    writes.write(write("t1 b"), "t1")
    writes.write(write("t2 a"), "t2")
    writes.write(write("record"), RECORDS)
    writes.after_commit(lambda: log.append("frames"))
    writes.write(write("t3 purge"), "t3", after=RECORDS)
    await asyncio.sleep(0.01)
    assert log == ["t1 a starts", "t2 a starts", "record starts"], "t1's second and the purge wait"
    gates["record"].set()
    await asyncio.sleep(0.01)
    assert log[3:] == ["record done", "t3 purge starts", "t3 purge done"], "not for t1 and t2"
    gates["t2 a"].set()
    gates["t1 a"].set()
    assert await writes.settled()
    assert log[6:] == ["t2 a done", "t1 a done", "t1 b starts", "t1 b done", "frames"], "frames after all"


async def test_records_are_written_at_once_and_a_compaction_waits_for_those_made_before_it() -> None:
    """Records in one line made every frame of the node wait for the slowest record queued: each is a
    key of its own now, in the group a compaction waits for (those made before it, not after)."""
    writes = Writes(asyncio.get_running_loop())
    gates = {name: asyncio.Event() for name in ("r1", "r2", "r3")}
    log: list[str] = []

    write = gated(gates, log)

    writes.write(write("r1"), "record r1", group=RECORDS)
    writes.write(write("r2"), "record r2", group=RECORDS)
    writes.write(write("t1 rollup"), "t1", after=RECORDS)
    writes.write(write("r3"), "record r3", group=RECORDS)
    await asyncio.sleep(0.01)
    assert log == ["r1 starts", "r2 starts", "r3 starts"], "the records at once, the rollup waits"
    gates["r2"].set()
    await asyncio.sleep(0.01)
    assert "t1 rollup starts" not in log, "r1 is not stored yet"
    gates["r1"].set()
    await asyncio.sleep(0.01)
    assert log[-2:] == ["t1 rollup starts", "t1 rollup done"], "not for r3, made after it"
    gates["r3"].set()
    assert await writes.settled()
    assert log[-1] == "r3 done"


async def test_a_refused_write_drops_what_waited_for_it_but_not_what_came_after_the_cut() -> None:
    writes = Writes(asyncio.get_running_loop())
    sent: list[str] = []
    refusals: list[int] = []
    writes.on_refused = lambda: refusals.append(1)

    go = asyncio.Event()

    async def refused() -> bool:
        await go.wait()  # in flight while the frames and the relay batch wait for it
        writes.cut()  # what the node does when it learns it lost the table
        writes.after_commit(lambda: sent.append("close after the cut"))
        return False

    async def fine() -> bool:
        return True

    writes.write(refused)
    writes.after_commit(lambda: sent.append("the refused action's frames"))
    waiting = asyncio.ensure_future(writes.settled())
    writes.write(fine)
    await asyncio.sleep(0.01)
    go.set()
    await asyncio.sleep(0.01)
    assert sent == ["close after the cut"] and refusals == [1]
    assert await waiting is False
    assert await writes.settled() is True


async def test_a_relay_session_sends_its_places_first_then_unstamped_bodies_in_order() -> None:
    published: list[tuple[str, list]] = []
    ready = asyncio.Event()
    ready.set()

    async def publish(subject: str, payload: bytes) -> None:
        published.append((subject, msgpack.unpackb(payload)))

    async def settled() -> bool:
        await ready.wait()
        return True

    bus = Bus(asyncio.get_running_loop(), publish, settled, "owner")
    relay = RelaySession("p1-x", "ana", home="home", owner="owner", bus=bus)

    class Place:
        table_id = "t1-x"

    relay.tables[Place()] = 2  # type: ignore[index]  # what the table's roster writes
    bodies = [body_of_dict({"type": "pong", "seq": 1, "reply_to": n}) for n in (1, 2)]
    for body in bodies:
        relay.deliver(body)
    await asyncio.sleep(0.01)
    assert published == [
        (
            outbox("home"),
            [
                "owner",
                [
                    [PLACES, "p1-x", "owner", {"t1-x": 2}],
                    [BODY, "p1-x", bodies[0], False],
                    [BODY, "p1-x", bodies[1], False],
                ],
            ],
        )
    ]
    relay.tables.clear()
    assert relay.sync_places() is False
    await bus.close()


async def test_the_journal_holds_what_rebuilds_the_table(nats_server: NatsServer) -> None:
    settings = Settings(
        port=0, cluster=nats_server.url, node="solo", deal_seed_wait_ms=0, bot_delay_seconds=0.0
    )
    async with BoneyardServer(settings) as server:
        player = await Player.connect(server.url, "ana")
        created = await player.request(
            type="create_table", game="moon", options={"target": 7}, seat=0, bots=[1, 2], turn_seconds=40
        )
        table_id = created.table.table_id
        await player.until(lambda m: m.type == "turn" and m.seat == 0 and bool(m.legal_actions))
        turn = player.log[-1]
        await player.send(type="act", table_id=table_id, action=turn.legal_actions[0].model_dump())
        await player.until(lambda m: m.type == "event" and getattr(m.event, "seat", None) == 0)
        assert server.lobby is not None and server.cluster is not None
        table = server.lobby.tables[table_id]
        await server.cluster.writes.settled()
        journal = await TableJournal.open(server.cluster.js, table_id)
        stored = fold(journal.entries)
        assert stored is not None
        assert stored.status == "playing" and stored.turn_seconds == 40 and stored.seed == table.seed
        assert len(stored.actions) == table.moves > 0
        assert [s.bot for s in stored.seats] == [False, True, True] and stored.seats[0].token == player.token
        assert stored.deadline is not None and stored.deadline_move is not None
        await player.close()


async def test_a_node_that_cannot_reach_nats_stops_with_one_line() -> None:
    from natsserver import free_port

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "serve", "--port", "0",
        "--cluster", f"nats://127.0.0.1:{free_port()}", "--node", "alone",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1 and not out
    said = err.decode()
    assert "boneyard-server: cannot join the cluster at nats://127.0.0.1:" in said
    assert "Traceback" not in said


async def test_a_node_renews_one_lease_however_many_tables_it_holds(nats_server: NatsServer) -> None:
    """A lease per table cost 1,000 KV updates a second at 1,000 tables on two nodes, and a renewal pass
    outlasted the lease (bench_cluster_load): a node renews its one key; its tables' records stay as
    they were written at placement."""
    tables = 12
    settings = Settings(
        port=0, cluster=nats_server.url, node="solo", tables_per_session=tables, tables_per_address=tables
    )
    async with BoneyardServer(settings) as server:
        player = await Player.connect(server.url, "ana")
        for _ in range(tables):  # waiting tables: a record each, nothing playing
            await player.request(type="create_table", game="moon", seat=0, bots=[], turn_seconds=None)
        node = server.cluster
        assert node is not None
        await node.writes.settled()
        assert len(node.tablelog.held) == tables
        book = node.tablelog.leases
        assert book.lease is not None
        before, records = book.lease, (await book.owners.status()).values
        for _ in range(3):
            assert await node.ownership._renew()
        assert book.lease.epoch == before.epoch and book.lease.revision > before.revision
        assert (await book.owners.status()).values == records  # no table's record written again
        for table_id, lease in node.tablelog.held.items():
            holder = await book.holder(table_id)
            assert holder is not None and (holder.node, holder.epoch) == ("solo", before.epoch)
            assert holder.revision == lease.term
        await player.close()


async def test_an_action_and_its_turns_deadline_are_one_journal_append(nats_server: NatsServer) -> None:
    """Two appends per action (the action, then the next turn's deadline) were two JetStream round trips
    before anyone heard of it: entries made while the table's append is queued go with it."""
    # The players act at machine speed: the default token bucket (40, then 20 a second) refused one of
    # them with rate_limited in a CI run whose game went long.
    settings = Settings(
        port=0, cluster=nats_server.url, node="solo", hand_pause_seconds=0,
        commands_per_second=10_000, command_burst=10_000,
    )  # fmt: skip
    async with BoneyardServer(settings) as server:
        players = [await Player.connect(server.url, f"p{i}") for i in range(3)]
        created = await players[0].request(
            type="create_table", game="moon", options={"target": 7}, seat=0, turn_seconds=60
        )
        table_id = created.table.table_id
        for seat, player in enumerate(players[1:], start=1):
            assert (await player.request(type="join", table_id=table_id, seat=seat)).type == "seated"
        overs = await asyncio.gather(*(p.play(table_id) for p in players))
        reply = await players[0].request(type="get_record", record_id=overs[0].record_id)
        assert server.cluster is not None
        await server.cluster.writes.settled()
        entries = (await TableJournal.open(server.cluster.js, table_id)).entries
        appends = [_inner_kinds(entry.data) for entry in entries if entry.kind == "action"]
        hands = reply.record.model_dump()["hands"]
        actions = sum(len(hand["actions"]) for hand in hands)
        # Under load several actions may share one append; each action's deadline is in its append.
        paired = sum(
            1 for kinds in appends for a, b in itertools.pairwise(kinds) if (a, b) == ("action", "deadline")
        )
        # A hand's first turn may come a step after the action that ended the hand before: its own append.
        alone = sum(1 for kinds in appends if kinds in (["action"], ["deadline"]))
        assert paired >= actions - len(hands) and alone <= 2 * len(hands), (len(hands), appends)
        stored = fold(entries)
        assert stored is not None and stored.status == "finished" and len(stored.actions) == actions
        await asyncio.gather(*(p.close() for p in players))


def _inner_kinds(data: bytes) -> list[str]:
    """The kinds of the entries one journal append holds (a batch holds several)."""
    entry = msgpack.unpackb(data)
    return [msgpack.unpackb(inner)[0] for inner in entry[1]] if entry[0] == "batch" else [entry[0]]


async def test_a_stopping_node_hands_over_even_when_a_write_never_comes_back(
    nats_server: NatsServer, caplog: pytest.LogCaptureFixture
) -> None:
    """``Node.stop`` once took 15 s under load: the hand-over waited for every write without a bound
    (and released the leases one after another). A write that never returns must not hold it."""
    markers = Settings().cluster_marker_seconds  # no sweep happens in this test: any bound would do
    node = await ClusterNode.connect(nats_server.url, "n1", records_in_memory=10, ttl=3.0, markers=markers)
    try:
        await node.tablelog.leases.join()
        lease = await node.tablelog.leases.place("t1")
        assert lease is not None
        node.tablelog.held["t1"] = lease
        never = asyncio.Event()

        async def stuck() -> bool:
            await never.wait()
            return True

        node.writes.write(stuck, "t1")
        with caplog.at_level(logging.WARNING, logger="boneyard.cluster"):
            await asyncio.wait_for(node.ownership.hand_over(seconds=0.2), 5)
        assert "handing the tables over anyway" in caplog.text
        assert await node.tablelog.leases.holder("t1") is None, "its lease released all the same"
        never.set()
    finally:
        await node.nc.close()
