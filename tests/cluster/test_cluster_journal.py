"""A table's JetStream journal: write-ahead order, replay by a new owner, the fence against the old one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import nats
import pytest
from nats.aio.client import Client as NATS

from boneyard.server.cluster.journal import Fenced, TableJournal, ensure_stream

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server and nc fixtures


async def test_a_new_owner_replays_exactly_what_was_appended_in_order(nc: NATS) -> None:
    js = nc.jetstream()
    await ensure_stream(js)
    owner = await TableJournal.open(js, "t1")
    assert owner.entries == []
    other = await TableJournal.open(js, "t2")
    for n in range(50):
        await owner.append(b"t1-%d" % n)
        await other.append(b"t2-%d" % n)  # interleaved tables keep their own order
    replayed = await TableJournal.open(js, "t1")
    assert [entry.data for entry in replayed.entries] == [b"t1-%d" % n for n in range(50)]
    assert replayed.entries == owner.entries
    assert replayed.last_sequence == owner.last_sequence


async def test_once_a_new_owner_claims_the_table_the_old_one_cannot_append(nc: NATS) -> None:
    js = nc.jetstream()
    await ensure_stream(js)
    old = await TableJournal.open(js, "t1")
    await old.append(b"move 1")
    new = await TableJournal.open(js, "t1")
    await new.claim(b"node-b term 7")
    with pytest.raises(Fenced):
        await old.append(b"move 2 by the old owner")
    await new.append(b"move 2")
    history = await TableJournal.open(js, "t1")
    assert [(entry.kind, entry.data) for entry in history.entries] == [
        ("action", b"move 1"),
        ("claim", b"node-b term 7"),
        ("action", b"move 2"),
    ]


async def test_of_two_owners_racing_on_the_same_entry_exactly_one_wins(nc: NATS) -> None:
    js = nc.jetstream()
    await ensure_stream(js)
    a = await TableJournal.open(js, "t1")
    b = await TableJournal.open(js, "t1")
    await a.append(b"a")
    with pytest.raises(Fenced):
        await b.append(b"b")
    assert [entry.data for entry in (await TableJournal.open(js, "t1")).entries] == [b"a"]


async def test_the_journal_survives_a_restart_of_nats_server(nats_server: NatsServer) -> None:
    client = await nats.connect(nats_server.url)
    js = client.jetstream()
    await ensure_stream(js)
    journal = await TableJournal.open(js, "t1")
    for n in range(5):
        await journal.append(b"%d" % n)
    await client.close()
    nats_server.stop()
    nats_server.start()
    client = await nats.connect(nats_server.url)
    try:
        replayed = await TableJournal.open(client.jetstream(), "t1")
        assert [entry.data for entry in replayed.entries] == [b"%d" % n for n in range(5)]
    finally:
        await client.close()


async def test_a_removed_table_leaves_no_journal(nc: NATS) -> None:
    js = nc.jetstream()
    await ensure_stream(js)
    journal = await TableJournal.open(js, "t1")
    await journal.append(b"x")
    await journal.remove()
    assert (await TableJournal.open(js, "t1")).entries == []
