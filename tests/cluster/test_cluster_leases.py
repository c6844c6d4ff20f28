"""Leases in real NATS key-value buckets: one per node, renewed by compare-and-set; a table's ownership
record names its node and that node's epoch, and changes hands only by compare-and-set."""

from __future__ import annotations

import asyncio

import pytest
from nats.aio.client import Client as NATS

from boneyard.server.cluster.leases import LeaseBook, LeaseLost

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures


async def joined(nc: NATS, node: str, ttl: float = 30) -> LeaseBook:
    book = await LeaseBook.open(nc.jetstream(), node, ttl=ttl)
    await book.join()
    return book


async def test_one_node_at_a_time_holds_a_table(nc: NATS) -> None:
    a, b = await joined(nc, "node-a"), await joined(nc, "node-b")
    lease = await a.place("t1")
    assert lease is not None and lease.node == "node-a"
    assert await b.place("t1") is None
    holder = await b.holder("t1")
    assert holder is not None and holder.node == "node-a"
    assert a.lease is not None and holder.epoch == a.lease.epoch
    assert await b.place("t2") is not None  # other tables are free


async def test_renewals_keep_the_epoch_and_write_no_table_record(nc: NATS) -> None:
    a = await joined(nc, "node-a")
    assert a.lease is not None
    epoch, first = a.lease.epoch, a.lease.revision
    placed = [await a.place(f"t{i}") for i in range(20)]
    records = await a.owners.status()
    for _ in range(3):
        renewed = await a.renew()
        assert renewed.epoch == epoch and renewed.revision > first
    assert (await a.owners.status()).values == records.values, "no table record was written again"
    for lease in placed:
        holder = await a.holder(lease.table_id) if lease else None
        assert holder is not None and holder.revision == lease.term  # type: ignore[union-attr]
    assert await a.epochs(["node-a", "node-b"]) == {"node-a": epoch}


async def test_a_node_that_joins_again_has_a_new_epoch_and_the_old_run_cannot_renew(nc: NATS) -> None:
    old = await joined(nc, "node-a")
    again = await joined(nc, "node-a")  # a restart under the same name, the old key not yet expired
    assert old.lease is not None and again.lease is not None and again.lease.epoch > old.lease.epoch
    with pytest.raises(LeaseLost):
        await old.renew()
    assert await old.epochs(["node-a"]) == {"node-a": old.lease.epoch}  # its own view...
    assert await again.epochs(["node-a"]) == {"node-a": again.lease.epoch}
    observer = await joined(nc, "node-b")
    assert await observer.epochs(["node-a"]) == {"node-a": again.lease.epoch}  # ...and the cluster's


async def test_a_lease_nobody_renews_expires_and_another_node_takes_its_tables(nc: NATS) -> None:
    a, b, c = [await joined(nc, name, ttl=1) for name in ("node-a", "node-b", "node-c")]
    lease = await a.place("t1")
    assert lease is not None and await b.place("t1") is None
    for _ in range(100):  # the bucket's max_age is 1 s; JetStream expires entries within a second or so
        await asyncio.sleep(0.1)
        await b.renew()
        await c.renew()
        if "node-a" not in await b.epochs(["node-a"]):
            break
    holder = await b.holder("t1")
    assert holder is not None and holder.node == "node-a"
    taken = await b.take("t1", holder)
    assert taken is not None and taken.node == "node-b" and taken.term > lease.term
    assert await c.take("t1", holder) is None, "of two nodes taking a table, the first wins"
    with pytest.raises(LeaseLost):
        await a.renew()  # node-a learns at its next renewal that its lease lapsed


async def test_a_released_record_is_free_at_once_and_a_foreign_one_is_not_released(nc: NATS) -> None:
    a, b = await joined(nc, "node-a"), await joined(nc, "node-b")
    lease = await a.place("t1")
    assert lease is not None
    await a.release(lease)
    assert await b.holder("t1") is None
    taken = await b.take("t1", None)
    assert taken is not None
    await a.release(lease)  # stale: must not free node-b's record
    holder = await a.holder("t1")
    assert holder is not None and holder.node == "node-b"


async def test_a_node_that_left_is_gone_at_once(nc: NATS) -> None:
    a, b = await joined(nc, "node-a"), await joined(nc, "node-b")
    await a.leave()
    assert await b.epochs(["node-a", "node-b"]) == {"node-b": b.lease.epoch}  # type: ignore[union-attr]
