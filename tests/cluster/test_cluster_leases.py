"""Table leases in a real NATS key-value bucket: one holder, compare-and-set renewals, expiry, hand-over."""

from __future__ import annotations

import asyncio

import pytest
from nats.aio.client import Client as NATS

from boneyard.server.cluster.leases import LeaseBook, LeaseLost

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures


async def test_one_node_at_a_time_holds_a_table(nc: NATS) -> None:
    js = nc.jetstream()
    a = await LeaseBook.open(js, "node-a", ttl=30)
    b = await LeaseBook.open(js, "node-b", ttl=30)
    lease = await a.acquire("t1")
    assert lease is not None and lease.node == "node-a"
    assert await b.acquire("t1") is None
    assert await b.holder("t1") == "node-a"
    assert await b.acquire("t2") is not None  # other tables are free


async def test_a_renewal_keeps_the_term_and_a_stale_one_is_refused(nc: NATS) -> None:
    book = await LeaseBook.open(nc.jetstream(), "node-a", ttl=30)
    first = await book.acquire("t1")
    assert first is not None
    renewed = await book.renew(first)
    assert renewed.term == first.term and renewed.revision > first.revision
    with pytest.raises(LeaseLost):
        await book.renew(first)  # the revision it names is no longer the key's last


async def test_a_lease_nobody_renews_expires_and_another_node_takes_the_table(nc: NATS) -> None:
    js = nc.jetstream()
    a = await LeaseBook.open(js, "node-a", ttl=1)
    b = await LeaseBook.open(js, "node-b", ttl=1)
    old = await a.acquire("t1")
    assert old is not None and await b.acquire("t1") is None
    taken = None
    for _ in range(100):  # the bucket's max_age is 1 s; JetStream expires entries within a second or so
        await asyncio.sleep(0.1)
        taken = await b.acquire("t1")
        if taken is not None:
            break
    assert taken is not None and taken.node == "node-b" and taken.term > old.term
    with pytest.raises(LeaseLost):
        await a.renew(old)  # node-a learns at its next renewal that the table moved


async def test_a_released_lease_is_free_at_once_and_a_foreign_one_is_not_released(nc: NATS) -> None:
    js = nc.jetstream()
    a = await LeaseBook.open(js, "node-a", ttl=30)
    b = await LeaseBook.open(js, "node-b", ttl=30)
    lease = await a.acquire("t1")
    assert lease is not None
    await a.release(lease)
    taken = await b.acquire("t1")
    assert taken is not None
    await a.release(lease)  # stale: must not free node-b's lease
    assert await a.holder("t1") == "node-b"
