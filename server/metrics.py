"""Prometheus metrics, served as text on ``/metrics``.

Each server has its own registry (tests run several servers in one process). Series:

- ``boneyard_connections``: open websocket connections;
- ``boneyard_tables{game, status}``: tables by game and state, counted when scraped;
- ``boneyard_commands_total{type}``: commands handled, by type;
- ``boneyard_errors_total{code}``: ``error`` replies, by code;
- ``boneyard_closes_total{code}``: connections the server closed, by close code;
- ``boneyard_command_latency_seconds``: from a command frame's arrival to its broadcast frames being
  written to the sockets;
- ``boneyard_actions_total{by}``: game actions applied, by who took them (``player``, ``bot``, ``auto``);
- ``boneyard_games_finished_total{game}``: games played to their end, by game;
- ``boneyard_turn_timeouts_total``: turns whose time ran out (the server played for the seat);
- ``boneyard_event_loop_lag_seconds``: how late the event loop runs a callback due every half second
  (a long stall shows here before players feel it);
- ``boneyard_build_info{version, python}``: the running version;
- ``process_*``: the process's CPU seconds, resident and virtual memory, open and maximum file
  descriptors, start time (prometheus-client's process collector, on Linux).

A durable server adds its database's:

- ``boneyard_db_commits_total`` and ``boneyard_db_statements_total``: transactions committed (each a
  group of every table's writes of a moment) and the statements in them;
- ``boneyard_db_commit_seconds``: how long each commit took (the fsync, mostly): frames wait for it;
- ``boneyard_db_queued_statements``: statements waiting for the next commit, counted when scraped;
- ``boneyard_db_size_bytes{file}``: the database file and its write-ahead log, measured when scraped.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import platform
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

TableCounts = Callable[[], Iterable[tuple[str, str, int]]]
"""Returns ``(game, status, count)`` rows."""

LATENCY_HELP = "From a command frame's arrival to its broadcast frames being written."
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LAG_INTERVAL = 0.5
"""Seconds between the event loop's lag measurements."""
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


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


class _Tally:
    """Counts by label value, as plain ints: the hot path is a dict update, no lock (one event loop)."""

    __slots__ = ("counts", "help", "label", "name")

    def __init__(self, name: str, help_text: str, label: str, values: Iterable[str] = ()) -> None:
        self.name, self.help, self.label = name, help_text, label
        self.counts: dict[str, int] = dict.fromkeys(values, 0)

    def family(self) -> CounterMetricFamily:
        family = CounterMetricFamily(self.name, self.help, labels=[self.label])
        for value, count in self.counts.items():
            family.add_metric([value], count)
        return family


class _LatencyHistogram:
    """A histogram kept as plain bucket counts, exported at scrape time."""

    __slots__ = ("buckets", "counts", "sum")

    def __init__(self, buckets: tuple[float, ...]) -> None:
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.buckets, seconds)] += 1
        self.sum += seconds

    def family(self, name: str, help_text: str) -> HistogramMetricFamily:
        cumulative, total = [], 0
        for bound, count in zip((*map(str, self.buckets), "+Inf"), self.counts, strict=True):
            total += count
            cumulative.append((bound, total))
        return HistogramMetricFamily(name, help_text, buckets=cumulative, sum_value=self.sum)


class _HotCollector(Collector):
    """Exports the counters the server bumps on every command (see :class:`Metrics`)."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self._metrics
        for tally in (m.commands, m.errors, m.closes, m.actions):
            yield tally.family()
        yield m.latency.family(
            "boneyard_command_latency_seconds",
            "From a command frame's arrival to its broadcast frames being written.",
        )


class Metrics:
    """The server's metrics. The per-command ones are plain counters read when scraped: a
    prometheus-client ``inc()`` takes a lock and a ``labels()`` lookup, a few percent of the server's
    time at thousands of commands a second."""

    def __init__(self, table_counts: TableCounts) -> None:
        self.registry = CollectorRegistry()
        reg = self.registry
        self.connections = Gauge("boneyard_connections", "Open websocket connections.", registry=reg)
        self.commands = _Tally("boneyard_commands", "Commands handled, by type.", "type")
        self.errors = _Tally("boneyard_errors", "Error replies, by code.", "code")
        self.closes = _Tally("boneyard_closes", "Connections closed by the server.", "code")
        self.actions = _Tally(
            "boneyard_actions", "Game actions applied, by actor.", "by", ("player", "bot", "auto")
        )
        self.latency = _LatencyHistogram(LATENCY_BUCKETS)
        self.records_encoded = Counter(
            "boneyard_records_encoded",
            "Finished games' records encoded for get_record (once each while cached).",
            registry=reg,
        )
        self.games_finished = Counter(
            "boneyard_games_finished", "Games played to their end, by game.", ["game"], registry=reg
        )
        self.turn_timeouts = Counter(
            "boneyard_turn_timeouts",
            "Turns whose time ran out (then the server plays).",
            registry=reg,
        )
        self.loop_lag = LoopLag(reg)
        Info("boneyard_build", "The running version.", registry=reg).info(
            {"version": importlib.metadata.version("boneyard"), "python": platform.python_version()}
        )
        ProcessCollector(registry=reg)  # process_*: CPU, memory, descriptors (reads /proc; none elsewhere)
        reg.register(_HotCollector(self))
        reg.register(_TableCollector(table_counts))

    def command(self, kind: str) -> None:
        counts = self.commands.counts
        counts[kind] = counts.get(kind, 0) + 1

    def error(self, code: str) -> None:
        counts = self.errors.counts
        counts[code] = counts.get(code, 0) + 1

    def closed(self, code: int) -> None:
        counts = self.closes.counts
        counts[str(code)] = counts.get(str(code), 0) + 1

    def action(self, by: str, count: int = 1) -> None:
        self.actions.counts[by] += count

    def game_finished(self, game: str) -> None:
        self.games_finished.labels(game).inc()

    def turn_timed_out(self) -> None:
        self.turn_timeouts.inc()

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

    def watch_cluster(self, tables_owned: Callable[[], int]) -> ClusterMetrics:
        """Add a cluster node's series."""
        return ClusterMetrics(self.registry, tables_owned)

    def render(self) -> bytes:
        """The Prometheus text exposition of every series."""
        return generate_latest(self.registry)


class LoopLag:
    """The event loop's lag: a callback due every :data:`LAG_INTERVAL`, observed as how late it ran
    (a loop stalled by a long callback, a garbage collection or a starved CPU runs everything late)."""

    def __init__(self, reg: CollectorRegistry) -> None:
        self.seconds = Histogram(
            "boneyard_event_loop_lag_seconds",
            "How late the event loop ran a callback due every half second.",
            buckets=LAG_BUCKETS,
            registry=reg,
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due = 0.0
        self._handle: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._schedule()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self) -> None:
        assert self._loop is not None
        self._due = self._loop.time() + LAG_INTERVAL
        self._handle = self._loop.call_at(self._due, self._tick)

    def _tick(self) -> None:
        assert self._loop is not None
        self.seconds.observe(max(0.0, self._loop.time() - self._due))
        self._schedule()


class ClusterMetrics:
    """A cluster node's series (``boneyard.server.cluster``)."""

    def __init__(self, reg: CollectorRegistry, tables_owned: Callable[[], int]) -> None:
        owned = Gauge("boneyard_cluster_tables_owned", "Tables this node owns.", registry=reg)
        owned.set_function(tables_owned)
        self.routed = Counter(
            "boneyard_cluster_routed_commands",
            "Commands forwarded to the node owning their table.",
            registry=reg,
        )
        self.journal_seconds = Histogram(
            "boneyard_cluster_journal_append_seconds",
            "How long each append to a table's JetStream journal took.",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.lease_renewals = Counter(
            "boneyard_cluster_lease_renewals", "The node's lease renewed.", registry=reg
        )
        self.lease_failures = Counter(
            "boneyard_cluster_lease_renewal_failures", "Failed renewals of the node's lease.", registry=reg
        )
