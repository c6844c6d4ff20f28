"""The ceiling for the load benchmark: a bare websockets broadcast server, no validation, no game.

``python bench/bare_server.py --port P`` listens on 127.0.0.1:P (compression off). A client joins a
"table" by sending a tiny msgpack hello ``{"table": int, "seat": int}``; the server answers with the
same frame (the join is done) and from then on every frame the client sends is broadcast, as it is, to
every client at its table (three in the benchmark: one frame in, three frames out). ``GET /healthz``
answers 200 once the server listens, as Boneyard's does, so ``bench/loadgen.py`` probes both alike.

SIGTERM or SIGINT stops it; it then prints how many garbage collections it ran and their longest
pauses (a ``gc:`` line), which the load generator reports.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import sys
from http import HTTPStatus

import msgpack
from gcpauses import GcPauses
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

TABLES: dict[int, set[ServerConnection]] = {}


def health(connection: ServerConnection, request: Request) -> Response | None:
    """``/healthz`` is plain HTTP (200); every other path goes on to the websocket handshake."""
    if request.path == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


async def handler(ws: ServerConnection) -> None:
    """Join the table named by the hello, then broadcast each frame to that table."""
    try:
        hello = await ws.recv()
        table_key = int(msgpack.unpackb(hello)["table"])
    except (ConnectionClosed, ValueError, KeyError, TypeError, msgpack.UnpackException):
        return
    table = TABLES.setdefault(table_key, set())
    table.add(ws)
    try:
        await ws.send(hello)
        async for frame in ws:
            broadcast(table, frame)
    except ConnectionClosed:
        pass
    finally:
        table.discard(ws)
        if not table:
            TABLES.pop(table_key, None)


async def freeze_every(seconds: float) -> None:
    """``gc.freeze()`` what has survived so far, every ``seconds``: full collections stay short.

    An experiment, off by default: it shows how much of the tail latency is the collector's. (A frozen
    object that later becomes cyclic garbage is never freed, which a real server must deal with.)
    """
    while True:
        await asyncio.sleep(seconds)
        gc.freeze()


async def run(port: int, gc_freeze_seconds: float) -> None:
    pauses = GcPauses()
    loop = asyncio.get_running_loop()
    freezer = loop.create_task(freeze_every(gc_freeze_seconds)) if gc_freeze_seconds > 0 else None
    stop: asyncio.Future[None] = loop.create_future()

    def request_stop() -> None:
        if not stop.done():
            stop.set_result(None)

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, request_stop)
    async with serve(
        handler,
        "127.0.0.1",
        port,
        compression=None,
        subprotocols=[
            Subprotocol("boneyard.v1")
        ],  # so the load generator's clients are the same for both servers
        process_request=health,
        backlog=4096,
    ) as server:
        bound = next(iter(server.sockets)).getsockname()[1]
        print(f"bare server listening on 127.0.0.1:{bound}", flush=True)
        await stop
        if freezer is not None:
            freezer.cancel()
        print(pauses.report(), flush=True)
        server.close(close_connections=False)  # the load generator has closed its clients already


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8766, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument(
        "--gc-freeze-seconds",
        type=float,
        default=float(os.environ.get("BARE_GC_FREEZE_SECONDS", "0")),
        help="gc.freeze() this often (default 0: never; also BARE_GC_FREEZE_SECONDS)",
    )
    args = parser.parse_args()
    asyncio.run(run(args.port, args.gc_freeze_seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
