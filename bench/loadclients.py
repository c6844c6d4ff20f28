"""The load processes of ``bench/loadgen.py``: tables of real websocket clients, played to a pace.

Each load process owns whole tables (all the clients of a table are in the same process, so a table's
pace and its "whose move is it" bookkeeping are plain attributes). Tables join at their moment of the
ramp, inside the measurement window. Two kinds of table:

- ``BareTable``: three clients of ``bench/bare_server.py``. Seat 0 sends first; the seat after the
  sender sends when the sender's frame reaches it, as if it were its turn.
- ``BoneyardTable``: protocol v1 (PROTOCOL.md) with raw msgpack: commands are plain dicts packed with
  ``msgpack.packb``, server frames are classified by the bytes of their leading ``type`` (always the
  first key) and lobby pushes are counted without being decoded; the rest is ``msgpack.unpackb``. With
  ``--validate`` every server frame is also decoded by ``boneyard.protocol.decode_server_message``
  (strict) and every command by ``boneyard.protocol.decode_command``, which checks the load generator and
  the server alike.

Latency is measured per client: from sending a command to the first broadcast of its table that reaches
the same client (bare: its own frame echoed; Boneyard: the first ``event``, which the protocol orders
before anything the next seat's action causes).
"""

from __future__ import annotations

import asyncio
import gc
import random
import resource
import time
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import msgpack
from wsclient import WsClient, connect

LOBBY_PUSHES = {b"table_created", b"table_updated", b"table_removed", b"lobby_changed"}
ACTION_EVENTS = {"bid_made", "passed", "discarded", "trump_named", "tile_played"}
SEATS = 3


@dataclass
class WorkerConfig:
    worker: int
    target: str  # "bare" | "boneyard"
    pace: str  # "human" | "flat" | "bots"
    port: int
    tables: list[int]
    total_tables: int
    t0_wall: float
    duration: float
    ramp: float
    validate: bool = False
    seed: int = 0
    fold: bool = True
    """Boneyard clients accept feature ``turn_in_event`` when the server offers it (``--plain``: never)."""
    ports: tuple[int, ...] = ()
    """Several nodes of a cluster (bench/bench_cluster_load.py): seat ``s`` of table ``i`` connects to
    ``ports[(i + s) % len(ports)]``, so a table's players sit on different nodes; empty: ``port`` for all."""


@dataclass
class Recorder:
    """What one load process saw; ``result()`` is what it sends back to the parent."""

    t0: float
    sent_at: array[float] = field(default_factory=lambda: array("d"))
    lat_at: array[float] = field(default_factory=lambda: array("d"))
    lat: array[float] = field(default_factory=lambda: array("d"))
    lag_at: array[float] = field(default_factory=lambda: array("d"))
    lag: array[float] = field(default_factory=lambda: array("d"))
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)

    def latency(self, sent: float, now: float) -> None:
        self.lat_at.append(sent - self.t0)
        self.lat.append(now - sent)

    def note(self, text: str) -> None:
        if len(self.samples) < 20:
            self.samples.append(text)


class Ctx:
    """Shared by every table of one load process."""

    def __init__(self, cfg: WorkerConfig, loop: asyncio.AbstractEventLoop, t0: float) -> None:
        self.cfg = cfg
        self.loop = loop
        self.rec = Recorder(t0)
        self.end = t0 + cfg.duration
        self.stopping = False
        self.clients: list[WsClient] = []
        self.rng = random.Random(cfg.seed * 1000 + cfg.worker)
        self.flat = cfg.pace != "human"

    def port_for(self, index: int, seat: int) -> int:
        ports = self.cfg.ports
        return ports[(index + seat) % len(ports)] if ports else self.cfg.port

    async def open(self, owner: Any, port: int | None = None) -> bool:
        """Connect ``owner`` (a table's client: ``on_message`` and a ``ws`` attribute, set at once)."""

        def bind(ws: WsClient) -> None:
            owner.ws = ws

        try:
            ws = await connect(port or self.cfg.port, owner.on_message, self.closed, bind)
        except Exception as error:  # refused, reset, timed out, bad upgrade: all count as failed
            owner.ws = None
            self.rec.counts["connect_failed"] += 1
            self.rec.note(f"connect: {error!r}")
            return False
        self.rec.counts["connected"] += 1
        self.clients.append(ws)
        return True

    def closed(self, code: int | None) -> None:
        if not self.stopping:
            self.rec.closes[str(code)] += 1

    def later(self, next_at: float, act: Callable[..., None], *args: Any) -> None:
        """Run ``act(*args)`` now (flat out) or at the table's next slot ``next_at`` (human pace)."""
        if self.flat or next_at <= self.loop.time():
            act(*args)
        else:
            self.loop.call_at(next_at, act, *args)


# -- the bare websockets server


class BareClient:
    def __init__(self, table: BareTable, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.joined = False
        self.got = 0  # frames of the table received
        self.sent: float | None = None
        self.ws: WsClient | None = None

    def on_message(self, frame: bytes) -> None:
        ctx = self.table.ctx
        ctx.rec.counts["frames"] += 1
        if not self.joined:
            self.joined = True
            self.table.on_join()
            return
        ctx.rec.counts["broadcasts"] += 1
        self.got += 1
        if self.sent is not None:
            ctx.rec.latency(self.sent, ctx.loop.time())
            self.sent = None
        self.table.on_broadcast(self)


class BareTable:
    def __init__(self, ctx: Ctx, index: int) -> None:
        self.ctx = ctx
        self.index = index
        self.clients: list[BareClient] = []
        self.joined = 0
        self.count = 0  # frames sent at this table
        self.last_seat = SEATS - 1
        self.scheduled = -1
        self.next_at = 0.0

    async def start(self) -> None:
        for seat in range(SEATS):
            client = BareClient(self, seat)
            if not await self.ctx.open(client) or client.ws is None:
                return
            self.clients.append(client)
            client.ws.send(msgpack.packb({"table": self.index, "seat": seat}))

    def on_join(self) -> None:
        self.joined += 1
        if self.joined == SEATS:
            self.ctx.rec.counts["tables_playing"] += 1
            self.on_broadcast(self.clients[0])  # seat 0 has the first "turn"

    def on_broadcast(self, client: BareClient) -> None:
        """The seat after the last sender moves when the last frame (not an older one) reaches it."""
        if (
            client.got == self.count
            and client.seat == (self.last_seat + 1) % SEATS
            and self.scheduled != self.count
        ):
            self.scheduled = self.count
            self.ctx.later(self.next_at, self.act, client)

    def act(self, client: BareClient) -> None:
        ctx = self.ctx
        if ctx.stopping or client.ws is None or not client.ws.is_open:
            return
        # About the size of a Boneyard `act`; the server never looks inside.
        payload = {"type": "act", "id": self.count, "table_id": f"t{self.index}", "action": {"type": "pass"}}
        client.ws.send(msgpack.packb(payload))
        now = ctx.loop.time()
        client.sent = now
        ctx.rec.sent_at.append(now - ctx.rec.t0)
        self.count += 1
        self.last_seat = client.seat
        self.next_at = now + 1.0


# -- one load process


async def _probe_lag(ctx: Ctx, every: float = 0.02) -> None:
    """How late this process's own event loop runs: a client-side delay that latency would include."""
    loop = ctx.loop
    await asyncio.sleep(max(0.0, ctx.rec.t0 - loop.time()))
    while loop.time() < ctx.end:
        expected = loop.time() + every
        await asyncio.sleep(every)
        ctx.rec.lag_at.append(expected - ctx.rec.t0)
        ctx.rec.lag.append(loop.time() - expected)


async def run_worker(cfg: WorkerConfig) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    t0 = loop.time() + (cfg.t0_wall - time.time())
    ctx = Ctx(cfg, loop, t0)
    if cfg.validate:
        import boneyard.protocol  # noqa: F401 - loaded before the window, not in the middle of it

    if cfg.target == "bare":
        factory: Callable[[Ctx, int], BareTable | Any] = BareTable
    else:
        from load_boneyard import BoneyardTable

        factory = BoneyardTable
    tasks: set[asyncio.Task[None]] = set()

    def launch(table: Any) -> None:
        task = loop.create_task(table.start())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    for index in cfg.tables:
        loop.call_at(t0 + cfg.ramp * index / cfg.total_tables, launch, factory(ctx, index))
    cpu: list[float] = []
    loop.call_at(t0, lambda: cpu.append(_cpu_seconds()))
    lag = loop.create_task(_probe_lag(ctx))
    await asyncio.sleep(max(0.0, ctx.end - loop.time()))
    cpu.append(_cpu_seconds())
    ctx.stopping = True
    await asyncio.sleep(2.0)  # in-flight commands still get their broadcast (and latency)
    await lag
    for task in list(tasks):
        task.cancel()
    open_at_end = sum(1 for ws in ctx.clients if ws.is_open)
    for ws in ctx.clients:
        ws.abort()
    await asyncio.sleep(0.1)
    rec = ctx.rec
    return {
        "worker": cfg.worker,
        "counts": dict(rec.counts),
        "open_at_end": open_at_end,
        "errors": dict(rec.errors),
        "closes": dict(rec.closes),
        "samples": rec.samples,
        "sent_at": rec.sent_at.tobytes(),
        "lat_at": rec.lat_at.tobytes(),
        "lat": rec.lat.tobytes(),
        "lag_at": rec.lag_at.tobytes(),
        "lag": rec.lag.tobytes(),
        "cpu_seconds": cpu[-1] - cpu[0] if len(cpu) == 2 else float("nan"),
    }


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def worker_entry(cfg: WorkerConfig, conn: Connection) -> None:
    """The body of one load process (``multiprocessing`` target); sends its result on ``conn``."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    # No garbage collection in the load processes: a full collection over 10,000 clients would stall
    # them for hundreds of ms and show up as server latency. The few cycles they make can wait.
    gc.disable()
    try:
        conn.send(asyncio.run(run_worker(cfg)))
    except BaseException as error:
        conn.send({"worker": cfg.worker, "failed": repr(error)})
        raise
    finally:
        conn.close()
