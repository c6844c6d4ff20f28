"""The HTTP side of the websocket port: ``/healthz``, ``/metrics``, the browser client; anything else: 404.

Health is one line of text: ``ok`` (200), or why not (503: the database failed, or the server is
stopping); the container's check (:mod:`~boneyard.server.healthcheck`) reads it. Metrics are
Prometheus' text format, rendered at scrape time from plain counters; with
``settings.metrics_token_sha256`` they are only for a request bearing the token (401 otherwise).
The browser client (:mod:`~boneyard.server.webfiles`, setting ``web``) is its page at ``/``,
``/t/ID`` and ``/replay/ID`` and its files under ``/assets/``; a websocket upgrade on ``/`` goes on to
the handshake.
"""

from __future__ import annotations

import email.utils
import hashlib
import hmac
from collections.abc import Callable
from http import HTTPStatus

from prometheus_client import CONTENT_TYPE_LATEST
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from boneyard.server.metrics import Metrics
from boneyard.server.webfiles import WebFile, WebFiles

SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),  # a table's address may carry its invite code
    ("Cross-Origin-Opener-Policy", "same-origin"),
)


class Endpoints:
    """websockets' ``process_request``: answers ``/healthz``, ``/metrics`` and the browser client's GETs,
    lets a websocket upgrade on ``/`` through to the handshake. ``unhealthy()``: why the server is not
    healthy (a line), or ``None``. ``web``: the browser client's files, ``None`` when it is off."""

    __slots__ = ("metrics", "token_sha256", "unhealthy", "web")

    def __init__(
        self,
        unhealthy: Callable[[], str | None],
        metrics: Metrics,
        token_sha256: str | None = None,
        web: WebFiles | None = None,
    ) -> None:
        self.unhealthy = unhealthy
        self.metrics = metrics
        self.token_sha256 = token_sha256
        """``/metrics`` asks for a bearer token with this SHA-256 (hex); ``None``: it is open."""
        self.web = web

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
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        if path == "/" and (upgrade or self.web is None):
            return None  # the websocket handshake (426 without an upgrade)
        found = self.web.find(path) if self.web is not None else None
        if found is None:
            where = "the browser client on /, " if self.web is not None else ""
            return connection.respond(
                HTTPStatus.NOT_FOUND,
                f"not found: {where}websockets on /, health on /healthz, metrics on /metrics\n",
            )
        assert self.web is not None
        return _file(found, self.web.csp, request.headers.get("If-None-Match"))


def _file(found: WebFile, csp: str, if_none_match: str | None) -> Response:
    unchanged = if_none_match is not None and found.etag in (t.strip() for t in if_none_match.split(","))
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", found.content_type),
            ("Cache-Control", "no-cache"),
            ("ETag", found.etag),
            ("Content-Security-Policy", csp),
            *SECURITY_HEADERS,
        ]
    )
    if unchanged:  # no body, and no length: a 304's would be the file's
        return Response(HTTPStatus.NOT_MODIFIED.value, HTTPStatus.NOT_MODIFIED.phrase, headers)
    headers["Content-Length"] = str(len(found.body))
    return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, found.body)
