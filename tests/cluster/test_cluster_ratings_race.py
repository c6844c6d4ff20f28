"""Two nodes rating one player at the same moment (two of her games ending at once): both changes count.

Two ``ClusterRatings`` on a real nats-server, each with its own connection, mirror and ``Writes``, as
two nodes have. Each rates a game of ana from the same rating (neither has seen the other's yet); the
second write loses the compare-and-set and applies its change again to the newer rating.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import nats
import pytest

from boneyard.server.cluster.directory import Directory
from boneyard.server.cluster.ratings import RATINGS_BUCKET, ClusterRatings
from boneyard.server.cluster.writes import Writes
from boneyard.server.ratings.book import RatingBook

if TYPE_CHECKING:
    from natsserver import NatsServer

pytest_plugins = ["natsserver"]  # the nats_server fixture


async def test_two_nodes_rating_one_player_at_once_lose_neither_change(nats_server: NatsServer) -> None:
    connections = [await nats.connect(nats_server.url) for _ in range(2)]
    writes = [Writes(asyncio.get_running_loop()) for _ in connections]
    nodes = [
        ClusterRatings(await Directory.open(nc.jetstream(), RATINGS_BUCKET), w)
        for nc, w in zip(connections, writes, strict=True)
    ]
    for node in nodes:
        node.start()
    try:
        first, second = nodes
        fresh = RatingBook().get("ana", "moon")
        # Both rate from a newcomer's rating: ana wins on one node and comes last on the other.
        won = first.book.rate("moon", ["ana", "bot-basic", "bot-good"], [3, 1, 0], 0)[0]
        lost = second.book.rate("moon", ["ana", "bot-good", "bot-strong"], [0, 2, 3], 2)[0]
        mine = [book.get("ana", "moon") for book in (first.book, second.book)]
        assert won.won and not lost.won and all(r.games == 1 for r in mine)
        assert all([await w.settled() for w in writes])
        expected_mu = fresh.mu + (mine[0].mu - fresh.mu) + (mine[1].mu - fresh.mu)
        expected_sigma = fresh.sigma * (mine[0].sigma / fresh.sigma) * (mine[1].sigma / fresh.sigma)
        for node in nodes:
            assert await node.directory.caught_up(5)
            rating = node.book.get("ana", "moon")
            assert (rating.games, rating.wins) == (2, 1)
            assert rating.mu == pytest.approx(expected_mu) and rating.sigma == pytest.approx(expected_sigma)
            assert {change.won for change in node.book.history("ana")} == {True, False}  # both games
    finally:
        for node in nodes:
            await node.close()
            await node.directory.close()
        for nc in connections:
            await nc.close()
