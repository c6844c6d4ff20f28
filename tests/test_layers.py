"""Imports point one way (docs/ARCHITECTURE.md): read from the source files with ``ast``, every
import counted, those under ``TYPE_CHECKING`` and inside functions included."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"protocol": "boneyard.protocol", "server": "boneyard.server", "clients": "boneyard.clients"}

PROTOCOL_VALUES = ("boneyard.protocol.values", "boneyard.protocol.fairness", "boneyard.protocol.options")
"""What ``server/games`` (pure rules and bots) may import of ours besides itself: protocol's value types,
the deal algorithm (``boneyard-deal/1``, standard library only) that the fair dealer draws from, and each
game's options model (``protocol/options/``: the one definition of its options, which the engine plays
by; values, no messages)."""
LOCAL_SERVER_STARTER = "boneyard.clients.cli.main"
"""The one client module that may import the server: it starts a local one in-process."""
BELOW_THE_TABLES = ("boneyard.server.storage", "boneyard.server.games")
"""Packages below the table tier: they import nothing of the server's middle."""
TABLE_TIER = (
    "session",
    "seats",
    "host",
    "botmoves",
    "turns",
    "pause",
    "fanout",
    "match",
    "cycle",
    "seating",
    "tablechat",
    "table",
    "presence",
    "pushes",
    "lobby",
    "commands",
)
"""Sans-I/O: none of these imports websockets or asyncio's sockets tier."""
SOCKET_TIER = (
    "connection",
    "outbox",
    "app",
    "machine",
    "endpoints",
    "gckeeper",
    "hello",
    "wsconnection",
    "proxies",
    "cli",
)
CLUSTER = (
    "node",
    "mirror",
    "home",
    "owner",
    "record_bucket",
    "relay",
    "takeover",
    "tablelog",
    "writes",
    "leases",
    "journal",
    "directory",
    "cas",
    "places",
    "accounts",
    "account_entries",
    "ratings",
    "operator",
    "rename",
    "reports",
)
"""``boneyard.server.cluster``, every module (a new one is added here: the test below checks the list)."""
CLUSTER_PARTS = ("mirror", "home", "owner", "record_bucket")
"""What the node composes (through small typed protocols): none imports another part, nor the node."""
SERVER_MIDDLE = {
    *(f"boneyard.server.{name}" for name in (*TABLE_TIER, *SOCKET_TIER)),
    *(f"boneyard.server.cluster.{name}" for name in CLUSTER),
}


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


MODULES = modules()


@cache
def imports_of(name: str) -> tuple[str, ...]:
    return tuple(_imports_of(name))


def _imports_of(name: str) -> Iterator[str]:
    """Every module ``name`` imports (``from a import b`` counts as ``a.b`` when that is a module)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES]
            if len(submodules) < len(node.names):
                yield base  # names from the module itself (``from a import b`` with ``b`` no module)
            yield from submodules


def ours(name: str) -> set[str]:
    return {target for target in imports_of(name) if target.startswith("boneyard.") and target != name}


def under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_the_source_tree_is_read() -> None:
    assert {"boneyard.protocol.codec", "boneyard.server.table", "boneyard.clients.cli.main"} <= set(MODULES)
    assert "boneyard.server.match" in ours("boneyard.server.table")  # the reader sees imports


def test_protocol_imports_nothing_of_ours_but_itself() -> None:
    wrong = {
        (name, target)
        for name in MODULES
        if under(name, "boneyard.protocol")
        for target in ours(name)
        if not under(target, "boneyard.protocol")
    }
    assert not wrong


def test_games_import_at_most_protocol_values() -> None:
    wrong = {
        (name, target)
        for name in MODULES
        if under(name, "boneyard.server.games")
        for target in ours(name)
        if not under(target, "boneyard.server.games", *PROTOCOL_VALUES)
    }
    assert not wrong


def test_protocol_values_import_no_messages() -> None:
    """What the games may import holds values only: it imports nothing of ours but other values (so a
    game's engine never drags the messages, the codec or the registry of the wire in)."""
    wrong = {
        (name, target)
        for name in MODULES
        if under(name, *PROTOCOL_VALUES)
        for target in ours(name)
        if not under(target, *PROTOCOL_VALUES)
    }
    assert not wrong


def test_clients_import_the_server_only_to_start_a_local_one() -> None:
    wrong = {
        (name, target)
        for name in MODULES
        if under(name, "boneyard.clients") and name != LOCAL_SERVER_STARTER
        for target in ours(name)
        if under(target, "boneyard.server")
    }
    assert not wrong


def test_storage_and_games_import_nothing_of_the_server_middle() -> None:
    wrong = {
        (name, target)
        for name in MODULES
        if under(name, *BELOW_THE_TABLES)
        for target in ours(name)
        if target in SERVER_MIDDLE
    }
    assert not wrong


def test_the_table_tier_touches_no_sockets() -> None:
    wrong = {
        (name, target)
        for name in (f"boneyard.server.{module}" for module in TABLE_TIER)
        for target in imports_of(name)
        if under(target, "websockets", "boneyard.server.connection", "boneyard.server.app", "asyncio")
        or target in ("boneyard.server.outbox", "boneyard.server.wsconnection")
    }
    # the host's LoopClock adapts the event loop (asyncio) to the table tier's Clock: the only exception
    assert wrong <= {("boneyard.server.host", "asyncio")}


def test_every_cluster_module_is_listed() -> None:
    found = {name for name in MODULES if under(name, "boneyard.server.cluster") and not _is_package(name)}
    assert found == {f"boneyard.server.cluster.{name}" for name in CLUSTER}


CLUSTER_DOORS = {
    "boneyard.server.app": "boneyard.server.cluster.node",
    "boneyard.server.players_cli": "boneyard.server.cluster.operator",
}
"""Who outside the cluster package imports which of its modules (each only when a cluster is asked for:
nats-py is the cluster extra): the server joins a cluster, the operator's account commands write to one."""


def test_only_the_app_and_the_operators_commands_import_the_cluster_modules() -> None:
    # the package itself (``ClusterError``) needs no nats-py: the command line names it too
    wrong = {
        (name, target)
        for name in MODULES
        if not under(name, "boneyard.server.cluster")
        for target in ours(name)
        if under(target, "boneyard.server.cluster")
        and target != "boneyard.server.cluster"
        and CLUSTER_DOORS.get(name) != target
    }
    assert not wrong


def test_the_node_s_parts_meet_only_in_the_node() -> None:
    parts = {f"boneyard.server.cluster.{name}" for name in CLUSTER_PARTS}
    wrong = {
        (name, target)
        for name in (f"boneyard.server.cluster.{module}" for module in CLUSTER)
        for target in ours(name)
        if target == "boneyard.server.cluster.node" or (name in parts and target in parts - {name})
    }
    assert not wrong


SOCKET_TIER_REACHES = {
    f"boneyard.server.{name}"
    for name in (
        "commands",
        "logs",
        "meter",
        "metrics",
        "outbox",
        "proxies",
        "session",
        "settings",
        "wsconnection",
    )
}
"""What a connection may import of the server: it hands commands to ``commands`` and nothing else of
the table tier (``session`` for the type of the session it carries)."""


def test_the_socket_tier_reaches_the_table_tier_only_through_commands() -> None:
    reached = {t for t in ours("boneyard.server.connection") if under(t, "boneyard.server")}
    assert reached <= SOCKET_TIER_REACHES, reached - SOCKET_TIER_REACHES


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle in ``graph``, as the list of its modules, or ``None``.

    >>> find_cycle({"a": {"b"}, "b": {"a"}})
    ['a', 'b', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


@pytest.mark.parametrize("package", ["boneyard.server", "boneyard.protocol", "boneyard.clients"])
def test_no_import_circles(package: str) -> None:
    inside = [name for name in MODULES if under(name, package)]
    # A package's __init__ re-exporting its modules is not a circle: count module-to-module imports.
    graph = {
        name: {t for t in ours(name) if t in MODULES and under(t, package) and not _is_package(t)}
        for name in inside
        if not _is_package(name)
    }
    assert find_cycle(graph) is None, find_cycle(graph)


def test_a_circle_is_found() -> None:
    assert find_cycle({"x": {"y"}, "y": {"z"}, "z": {"x"}}) == ["x", "y", "z", "x"]


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"
