"""The HTTP side of the websocket port: ``/healthz`` and ``/metrics``; anything else but ``/`` is a 404.

Health is one line of text: ``ok`` (200), or why not (503: the database failed, or the server is
stopping); the container's check (:mod:`~boneyard.server.healthcheck`) reads it. Metrics are
Prometheus' text format, rendered at scrape time from plain counters; with
``settings.metrics_token_sha256`` they are only for a request bearing the token (401 otherwise).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from http import HTTPStatus

from prometheus_client import CONTENT_TYPE_LATEST
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from boneyard.server.metrics import Metrics


class Endpoints:
    """websockets' ``process_request``: answers ``/healthz`` and ``/metrics``, lets ``/`` through to the
    websocket handshake. ``unhealthy()``: why the server is not healthy (a line), or ``None``."""

    __slots__ = ("metrics", "token_sha256", "unhealthy")

    def __init__(
        self, unhealthy: Callable[[], str | None], metrics: Metrics, token_sha256: str | None = None
    ) -> None:
        self.unhealthy = unhealthy
        self.metrics = metrics
        self.token_sha256 = token_sha256
        """``/metrics`` asks for a bearer token with this SHA-256 (hex); ``None``: it is open."""

    def _authorized(self, request: Request) -> bool:
        if self.token_sha256 is None:
            return True
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        digest = hashlib.sha256(token.strip().encode()).hexdigest()
        return scheme.lower() == "bearer" and hmac.compare_digest(digest, self.token_sha256)

    def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.partition("?")[0]
        if path == "/healthz":
            reason = self.unhealthy()
            if reason is not None:
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"{reason}\n")
            return connection.respond(HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            if not self._authorized(request):
                refused = connection.respond(HTTPStatus.UNAUTHORIZED, "/metrics needs its bearer token\n")
                refused.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
                return refused
            response = connection.respond(HTTPStatus.OK, self.metrics.render().decode())
            headers = Headers((k, v) for k, v in response.headers.raw_items() if k.lower() != "content-type")
            headers["Content-Type"] = CONTENT_TYPE_LATEST
            response.headers = headers
            return response
        if path != "/":
            return connection.respond(
                HTTPStatus.NOT_FOUND, "not found: websockets on /, health on /healthz, metrics on /metrics\n"
            )
        return None  # the websocket handshake (426 without an upgrade)
