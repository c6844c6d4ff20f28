"""``BoneyardServer``: the websocket server hosting every table, plus ``/healthz`` and ``/metrics``.

>>> import asyncio
>>> async def main() -> int:
...     async with BoneyardServer(Settings(port=0, durable=False)) as server:
...         return server.port > 0
>>> asyncio.run(main())
True
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Self

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from boneyard.protocol import (
    COMMAND_LIMITS,
    SUBPROTOCOL,
)
from boneyard.server.backend import Backend, MemoryBackend, SQLiteBackend
from boneyard.server.botrunner import BotRunner
from boneyard.server.commands import CommandSeam
from boneyard.server.connection import ServerContext, SocketLink
from boneyard.server.endpoints import Endpoints
from boneyard.server.gckeeper import GcKeeper
from boneyard.server.hello import SERVER_NAME, hello_body
from boneyard.server.host import LoopClock
from boneyard.server.lobby import Lobby
from boneyard.server.machine import check_bindable, connection_cap, descriptor_limit, node_name
from boneyard.server.metrics import Metrics
from boneyard.server.outbox import Outbox
from boneyard.server.proxies import TrustedProxies
from boneyard.server.record_store import RecordStore
from boneyard.server.settings import Settings
from boneyard.server.storage.durable import Storage
from boneyard.server.webfiles import bundled
from boneyard.server.wsconnection import BoneyardConnection

if TYPE_CHECKING:
    from boneyard.server.cluster.node import ClusterNode

log = logging.getLogger("boneyard.server")

HEARTBEAT_SLICE_SECONDS = 0.1
"""Heartbeat pings go out to a slice of the connections this often."""


def _select_subprotocol(connection: ServerConnection, offered: Sequence[Subprotocol]) -> Subprotocol | None:
    # Accept the websocket either way: without boneyard.v1 the handler closes it with 4000, as the
    # protocol says, instead of failing the HTTP handshake.
    return Subprotocol(SUBPROTOCOL) if SUBPROTOCOL in offered else None


class BoneyardServer:
    """A Boneyard server: ``start()`` then ``serve_forever()`` (or ``async with``), and ``stop()``.

    ``stop()`` is graceful: it stops accepting, stops the tables' timers, closes every client with
    1012 and waits (up to ``shutdown_seconds``) for them to go.

    ``start()`` chooses the backend (:mod:`boneyard.server.backend`) once: the cluster's with
    ``settings.cluster``, else with ``settings.durable`` (the default) ``settings.db`` (a
    :class:`~server.storage.db.StorageError` if it cannot be used) and the tables stored there restored,
    else memory. Records are the backend's unless ``store`` is given.
    """

    def __init__(self, settings: Settings | None = None, *, store: RecordStore | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self._given_store = store
        self.backend: Backend = MemoryBackend(self.settings.records_in_memory)
        """Where tables, records and accounts are kept (chosen by ``start()``)."""
        self.store: RecordStore = store if store is not None else self.backend.records
        self.storage: Storage | None = None
        """The database (``settings.durable`` on a single node), once started."""
        self.cluster: ClusterNode | None = None
        """This node's part in a cluster (``settings.cluster``), once started."""
        self.failed: BaseException | None = None
        """Why the server stopped by itself (the database failed), if it did."""
        self.metrics = Metrics(self._table_counts)
        self.lobby: Lobby | None = None
        self._server: Server | None = None
        self._ctx: ServerContext | None = None
        self._clients: set[SocketLink] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        self._gc_keeper: asyncio.Task[None] | None = None
        self._gc = GcKeeper(self.settings.gc_freeze_seconds, lambda: len(self._clients))
        self._stopping = False
        self._stopped: asyncio.Event | None = None
        self._port: int | None = None
        self._failing: asyncio.Task[None] | None = None
        self.max_connections = 0
        """The connection cap in force (``settings.max_connections``, within the descriptor limit)."""

    # -- life -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on ``settings.host:settings.port`` (``port`` 0: any free port; see :attr:`port`)."""
        if self._server is not None:
            raise RuntimeError("the server is already started")
        loop = asyncio.get_running_loop()
        self.backend = await self._open_backend(loop)
        self.store = self._given_store if self._given_store is not None else self.backend.records
        try:
            await self._start(loop)
        except BaseException:
            if self.lobby is not None:
                self.lobby.stop()
            await self.backend.close(None)
            raise

    async def _open_backend(self, loop: asyncio.AbstractEventLoop) -> Backend:
        """The backend the settings ask for, opened: the one place that chooses."""
        settings = self.settings
        if settings.cluster is not None:
            # nats-py: the optional cluster extra, imported only when a cluster is asked for
            from boneyard.server.cluster.node import ClusterNode

            name = settings.node or node_name(settings.port)
            log.info("joining the cluster at %s as node %s", settings.cluster, name)
            self.cluster = await ClusterNode.join(settings.cluster, name, settings)
            return self.cluster
        if settings.durable:
            await check_bindable(loop, settings.host, settings.port)  # before the database is created
            stored = await SQLiteBackend.open(settings, self.metrics, self._storage_failed)
            self.storage = stored.storage
            return stored
        return MemoryBackend(settings.records_in_memory)

    async def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        settings = self.settings
        descriptors = descriptor_limit()
        self.max_connections = connection_cap(settings.max_connections, descriptors)
        log.info("max_connections %d (descriptor limit %d)", self.max_connections, descriptors)
        backend = self.backend
        self._stopped = asyncio.Event()
        self.lobby = Lobby(settings, self.metrics, self.store, LoopClock(loop), backend.table_log)
        self.lobby.bots = BotRunner(loop, settings.bot_workers, settings.bot_nice)
        self.lobby.bots.start()
        hello = hello_body(settings, self.max_connections)
        decode_limits = dataclasses.replace(COMMAND_LIMITS, max_frame_bytes=settings.max_frame_bytes)
        commands = CommandSeam(self.lobby, hello, backend.account_book())
        self._ctx = ServerContext(
            commands,
            settings,
            self.metrics,
            Outbox(loop, backend.gate),
            decode_limits,
            TrustedProxies(settings.trusted_proxies),
        )
        await backend.load(self.lobby, commands, self.metrics)
        self._server = await serve(
            self._handle,
            settings.host,
            settings.port,
            select_subprotocol=_select_subprotocol,
            process_request=Endpoints(
                self._unhealthy,
                self.metrics,
                settings.metrics_token_sha256,
                bundled() if settings.web else None,
            ),
            compression=None,  # permessage-deflate costs ~64 KiB per connection
            max_size=settings.max_frame_bytes,
            ping_interval=None,  # one server-wide heartbeat instead of a task per connection
            ping_timeout=None,
            close_timeout=settings.close_seconds,
            open_timeout=settings.handshake_seconds,
            server_header=SERVER_NAME,
            create_connection=BoneyardConnection,
            logger=logging.getLogger("websockets.server"),
        )
        self._port = int(self._server.sockets[0].getsockname()[1])
        self._heartbeat = loop.create_task(self._heartbeats())
        self.metrics.loop_lag.start(loop)
        if settings.gc_freeze_seconds > 0:
            self._gc_keeper = self._gc.start(loop)
        log.info("serving", extra={"peer": f"{settings.host}:{self.port}"})

    @property
    def port(self) -> int:
        """The port the server listens on (the bound one when ``settings.port`` is 0)."""
        if self._port is None:
            raise RuntimeError("the server is not started")
        return self._port

    @property
    def url(self) -> str:
        return f"ws://{self.settings.host}:{self.port}/"

    async def serve_forever(self) -> None:
        """Serve until :meth:`stop` finishes (call it from a signal handler or another task)."""
        if self._stopped is None:
            await self.start()
        assert self._stopped is not None
        await self._stopped.wait()

    async def stop(self) -> None:
        """Stop accepting, close every client with 1012 (the tables stop first), and wait for them."""
        if self._server is None or self._stopped is None:
            return
        if self._stopping:
            await self._stopped.wait()
            return
        self._stopping = True
        assert self.lobby is not None and self._ctx is not None
        log.info("shutting down", extra={"code": 1012})
        self.lobby.stop()
        self._server.close(close_connections=False)
        self._ctx.outbox.flush()  # in-flight frames go out before the close frames
        for client in list(self._clients):
            client.close_with(1012, "the server is restarting")
        try:
            await asyncio.wait_for(self._server.wait_closed(), self.settings.shutdown_seconds)
        except TimeoutError:
            for client in list(self._clients):
                client.ws.abort()
            await asyncio.wait_for(self._server.wait_closed(), 1.0)
        finally:
            for task in (self._heartbeat, self._gc_keeper):
                if task is not None:
                    task.cancel()
            self.metrics.loop_lag.stop()
            await self.backend.close(self.lobby)
            self._stopped.set()
        log.info("stopped")

    def _storage_failed(self, error: BaseException) -> None:
        """A commit failed: nothing after it may be sent, so the server stops (exit code 1)."""
        self.failed = error
        if self._server is None:
            return  # still starting: ``start()`` raises, and the command line says it in one line
        log.critical("the database failed; nothing more is sent or stored: %s", error)
        self._failing = asyncio.get_running_loop().create_task(self.stop())

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.stop()

    # -- connections ----------------------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        assert self._ctx is not None
        assert isinstance(ws, BoneyardConnection)  # the server creates only these (``create_connection``)
        try:
            await self._serve(SocketLink(ws, self._ctx))
        finally:
            # A close frame held for a commit goes out before websockets closes the connection itself.
            await self._ctx.outbox.written()

    async def _serve(self, client: SocketLink) -> None:
        ws = client.ws
        if self._stopping:
            client.close_with(1012, "the server is restarting")
            return
        server = self._server
        # Every socket counts, those still in their HTTP handshake too (websockets runs a handler task
        # for each from the moment it is accepted; this one's included).
        if server is not None and len(server.handler_tasks) > self.max_connections:
            client.close_with(4007, "the server is at its connection limit")
            return
        if self.settings.socket_send_buffer is not None:
            ws.socket_option(socket.SOL_SOCKET, socket.SO_SNDBUF, self.settings.socket_send_buffer)
        self._clients.add(client)
        self.metrics.connections.inc()
        try:
            await client.run()
        finally:
            self._clients.discard(client)
            self.metrics.connections.dec()
            self._gc.closed += 1

    async def _heartbeats(self) -> None:
        """Ping every connection each ``heartbeat_seconds``; close those that did not answer the last one.

        The pings are spread over the interval, a slice of the connections every 100 ms: pinging
        10,000 at once costs 10,000 writes in one go, and their 10,000 pongs then arrive together,
        queued ahead of every player's command for a hundred milliseconds or more.
        """
        interval = self.settings.heartbeat_seconds
        slices = max(1, round(interval / HEARTBEAT_SLICE_SECONDS))
        while True:
            clients = list(self._clients)
            for i in range(slices):
                await asyncio.sleep(interval / slices)
                for client in clients[i::slices]:
                    self._ping(client)

    @staticmethod
    def _ping(client: SocketLink) -> None:
        ws = client.ws
        if client.closing or not ws.is_open():
            return
        if not ws.ponged:
            client.close_with(4006, "websocket pings went unanswered")
            return
        ws.ping_now()

    def _unhealthy(self) -> str | None:
        """Why ``/healthz`` answers 503, or ``None``: healthy."""
        if (why := self.backend.unhealthy()) is not None:
            return why
        return "stopping" if self._stopping else None

    def _table_counts(self) -> list[tuple[str, str, int]]:
        return [] if self.lobby is None else list(self.lobby.table_counts())
