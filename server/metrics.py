"""Prometheus metrics, served as text on ``/metrics``.

Each server has its own registry (tests run several servers in one process). Series:

- ``boneyard_connections``: open websocket connections;
- ``boneyard_tables{game, status}``: tables by game and state, counted when scraped;
- ``boneyard_commands_total{type}``: commands handled, by type;
- ``boneyard_errors_total{code}``: ``error`` replies, by code;
- ``boneyard_closes_total{code}``: connections the server closed, by close code;
- ``boneyard_command_latency_seconds``: from a command frame's arrival to its broadcast frames being
  written to the sockets;
- ``boneyard_actions_total{by}``: game actions applied, by who took them (``player``, ``bot``, ``auto``).

A durable server adds its database's:

- ``boneyard_db_commits_total`` and ``boneyard_db_statements_total``: transactions committed (each a
  group of every table's writes of a moment) and the statements in them;
- ``boneyard_db_commit_seconds``: how long each commit took (the fsync, mostly): frames wait for it;
- ``boneyard_db_queued_statements``: statements waiting for the next commit, counted when scraped;
- ``boneyard_db_size_bytes{file}``: the database file and its write-ahead log, measured when scraped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

TableCounts = Callable[[], Iterable[tuple[str, str, int]]]
"""Returns ``(game, status, count)`` rows."""

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class _TableCollector(Collector):
    def __init__(self, counts: TableCounts) -> None:
        self._counts = counts

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("boneyard_tables", "Tables by game and status.", labels=["game", "status"])
        for game, status, count in self._counts():
            family.add_metric([game, status], count)
        yield family


class _DatabaseCollector(Collector):
    def __init__(self, path: Path, queued: Callable[[], int]) -> None:
        self._path = path
        self._queued = queued

    def collect(self) -> Iterator[Metric]:
        queued = GaugeMetricFamily("boneyard_db_queued_statements", "Statements waiting for the next commit.")
        queued.add_metric([], self._queued())
        yield queued
        size = GaugeMetricFamily("boneyard_db_size_bytes", "Database files' sizes.", labels=["file"])
        for name, path in (("db", self._path), ("wal", self._path.with_name(self._path.name + "-wal"))):
            try:
                size.add_metric([name], path.stat().st_size)
            except OSError:
                size.add_metric([name], 0)  # no WAL between checkpoints is no error
        yield size


class Metrics:
    """The server's metrics; label children are cached so the hot path is one ``inc()``."""

    def __init__(self, table_counts: TableCounts) -> None:
        self.registry = CollectorRegistry()
        reg = self.registry
        self.connections = Gauge("boneyard_connections", "Open websocket connections.", registry=reg)
        self._commands = Counter("boneyard_commands", "Commands handled, by type.", ["type"], registry=reg)
        self._errors = Counter("boneyard_errors", "Error replies, by code.", ["code"], registry=reg)
        self._closes = Counter("boneyard_closes", "Connections closed by the server.", ["code"], registry=reg)
        self._actions = Counter("boneyard_actions", "Game actions applied, by actor.", ["by"], registry=reg)
        self.latency = Histogram(
            "boneyard_command_latency_seconds",
            "From a command frame's arrival to its broadcast frames being written.",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        reg.register(_TableCollector(table_counts))
        self._children: dict[tuple[str, str], Counter] = {}
        for by in ("player", "bot", "auto"):
            self.action(by, 0)  # listed from the start

    def _child(self, family: Counter, name: str, value: str) -> Counter:
        key = (name, value)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = family.labels(value)
        return child

    def command(self, kind: str) -> None:
        self._child(self._commands, "command", kind).inc()

    def error(self, code: str) -> None:
        self._child(self._errors, "error", code).inc()

    def closed(self, code: int) -> None:
        self._child(self._closes, "close", str(code)).inc()

    def action(self, by: str, count: int = 1) -> None:
        self._child(self._actions, "action", by).inc(count)

    def watch_database(self, path: Path, queued: Callable[[], int]) -> Callable[[int, float], None]:
        """Add the database's series; returns what the journal calls after each commit."""
        reg = self.registry
        commits = Counter("boneyard_db_commits", "Database transactions committed.", registry=reg)
        statements = Counter("boneyard_db_statements", "Statements committed.", registry=reg)
        seconds = Histogram(
            "boneyard_db_commit_seconds", "How long each commit took.", buckets=LATENCY_BUCKETS, registry=reg
        )
        reg.register(_DatabaseCollector(path, queued))

        def committed(count: int, took: float) -> None:
            commits.inc()
            statements.inc(count)
            seconds.observe(took)

        return committed

    def render(self) -> bytes:
        """The Prometheus text exposition of every series."""
        return generate_latest(self.registry)
