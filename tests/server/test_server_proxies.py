"""Behind a reverse proxy (issue #24, item 12): ``Forwarded`` and ``X-Forwarded-For`` name the client only on
connections from ``trusted_proxies``, and the per-address table quota counts the client's address then.

Real connections on loopback: 127.0.0.1 plays the trusted proxy, 127.0.0.2 (bound as the client's source
address, all of 127/8 is loopback) a stranger sending the same headers."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from server_testkit import Player, running_server

TABLE: dict[str, Any] = {"type": "create_table", "game": "straight", "options": {"players": 2}, "bots": [1]}


async def _create(url: str, name: str, source: str, headers: dict[str, str]) -> str:
    """A player connecting from ``source`` with ``headers`` creates a table: ``ok`` or the error code."""
    player = await Player.connect(url, name, additional_headers=headers, local_addr=(source, 0))
    reply = await player.request(**TABLE, seat=0)
    return "ok" if reply.type == "table_created" else str(getattr(reply, "code", reply.type))


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded"], ids=["x-forwarded-for", "forwarded"])
async def test_the_quota_counts_the_forwarded_client_from_a_trusted_proxy_only(header: str) -> None:
    def names(client: str) -> dict[str, str]:
        value = f"for={client}" if header == "Forwarded" else client
        return {header: f"{value}, 127.0.0.9" if header == "X-Forwarded-For" else value}

    async with running_server(tables_per_address=1, trusted_proxies="127.0.0.1, 127.0.0.9") as server:
        # Through the trusted proxy: two clients, two addresses, a table each; the same client again: refused.
        assert await _create(server.url, "ana", "127.0.0.1", names("198.51.100.7")) == "ok"
        assert await _create(server.url, "bob", "127.0.0.1", names("203.0.113.5")) == "ok"
        assert await _create(server.url, "ana2", "127.0.0.1", names("198.51.100.7")) == "unavailable"
        # A stranger's headers are not believed: each of its connections is its own address, 127.0.0.2.
        assert await _create(server.url, "eve", "127.0.0.2", names("192.0.2.1")) == "ok"
        assert await _create(server.url, "eve2", "127.0.0.2", names("192.0.2.2")) == "unavailable"


async def test_without_trusted_proxies_the_headers_are_ignored() -> None:
    async with running_server(tables_per_address=1) as server:
        assert await _create(server.url, "ana", "127.0.0.1", {"X-Forwarded-For": "198.51.100.7"}) == "ok"
        other = {"X-Forwarded-For": "203.0.113.5"}
        assert await _create(server.url, "bob", "127.0.0.1", other) == "unavailable"


async def test_the_log_names_the_forwarded_client_beside_the_proxy(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="boneyard.connection")
    async with running_server(trusted_proxies="127.0.0.1") as server:
        player = await Player.connect(
            server.url, "ana", additional_headers={"X-Forwarded-For": "198.51.100.7"}
        )
        port = player.ws.local_address[1]
        await player.close()
        await asyncio.sleep(0.2)
    peers = [getattr(r, "peer", None) for r in caplog.records if r.getMessage() == "disconnected"]
    assert f"198.51.100.7 via 127.0.0.1:{port}" in peers, peers
