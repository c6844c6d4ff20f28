"""The table and session tier's modules stay small (issue #27): a file past the limit is split by what
it holds, not let grow."""

from __future__ import annotations

from pathlib import Path

LIMIT = 400
SERVER = Path(__file__).resolve().parents[2] / "server"
TIER = [
    "commands",
    "player_commands",
    "routes",
    "table",
    "match",
    "dealstart",
    "cycle",
    "pause",
    "turns",
    "seating",
    "seats",
    "host",
    "lobby",
    "session",
    "connection",
    "tablechat",
    "spectators",
    "presence",
    "fanout",
    "outbox",
    "pushes",
    "hello",
    "errors",
    "quota",
    "moderation",
    "botmoves",
    "botrunner",
    "fairdeal",
    "machine",
    "meter",
    "gckeeper",
    "wsconnection",
    "endpoints",
]


def test_every_module_of_the_tier_is_within_the_limit() -> None:
    sizes = {name: len((SERVER / f"{name}.py").read_text().splitlines()) for name in TIER}
    assert {name: size for name, size in sizes.items() if size > LIMIT} == {}
