"""A refused journal append (the fence) and the relayed bodies that waited for it.

A batch of relayed bodies tells of the writes made before it was sealed; if one of them is refused, the
batch must not go, however late the bus gets to it (it waits behind earlier batches).
"""

from __future__ import annotations

import asyncio

import msgpack

from boneyard.server.cluster.relay import Bus
from boneyard.server.cluster.writes import Writes


async def test_a_batch_sealed_before_a_refusal_is_dropped_however_late_it_is_awaited() -> None:
    loop = asyncio.get_running_loop()
    writes = Writes(loop)
    published: list[list[object]] = []
    refusals: list[int] = []
    writes.on_refused = lambda: refusals.append(1)

    async def publish(subject: str, payload: bytes) -> None:
        published.append(msgpack.unpackb(payload)[1])

    bus = Bus(loop, publish, writes.settling, "owner")
    go = asyncio.Event()

    async def slow() -> bool:
        await go.wait()  # in flight while both batches are sealed: the bus waits on the first
        return True

    async def refused() -> bool:
        writes.cut()  # what the node does when it learns it lost the table
        return False

    writes.write(slow)
    bus.send("home", ["of the first write"])
    await asyncio.sleep(0)  # sealed
    writes.write(refused)
    bus.send("home", ["of the refused write"])
    await asyncio.sleep(0)  # sealed, queued behind the first batch
    go.set()
    await asyncio.sleep(0.01)
    bus.send("home", ["after the refusal"])
    await asyncio.sleep(0.01)
    assert published == [[["of the first write"]], [["after the refusal"]]]
    assert refusals == [1]
    await bus.close()
