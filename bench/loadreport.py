"""Figures of one ``bench/loadgen.py`` run, from what its load processes and ``/proc`` recorded.

>>> percentiles([0.001, 0.002, 0.003, 0.004])["p50"]
2.0
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from typing import Any

import procstats


@dataclass
class Measurement:
    """Everything measured for one target and pace; ``summarize()`` turns it into figures."""

    target: str
    pace: str
    tables: int
    duration: float
    ramp: float
    procs: int
    env: dict[str, str]
    t0_wall: float
    idle: procstats.ProcStats
    cpus: int
    timeline: dict[float, procstats.ProcStats] = field(default_factory=dict)
    """Server readings at each mark (seconds from the window's start)."""
    load: dict[float, float] = field(default_factory=dict)
    """Load processes' CPU seconds at each mark."""
    machine: dict[float, dict[int, tuple[int, int]]] = field(default_factory=dict)
    """``/proc/stat`` per CPU at each mark."""
    server_actions: dict[float, tuple[float, ...] | None] = field(default_factory=dict)
    """At the steady window's ends: when /metrics answered, then the server's counts (actions, commits)."""
    """Boneyard's own count of applied actions (/metrics) at the steady window's ends, with the moment
    (seconds from t0) its answer came: a saturated server answers a scrape late."""
    results: list[dict[str, Any]] = field(default_factory=list)
    server_alive: bool = True
    log_text: str = ""


def percentiles(values: list[float] | array[float]) -> dict[str, float]:
    """p50/p95/p99/max in milliseconds (nearest rank) of values in seconds."""
    if not values:
        return {"p50": math.nan, "p95": math.nan, "p99": math.nan, "max": math.nan}
    ordered = sorted(values)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)] * 1e3

    return {"p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99), "max": ordered[-1] * 1e3}


def _merge(m: Measurement) -> tuple[dict[str, array[float]], dict[str, dict[str, int]], list[str]]:
    series = {name: array("d") for name in ("sent_at", "lat_at", "lat", "lag_at", "lag")}
    tallies: dict[str, dict[str, int]] = {"counts": {}, "errors": {}, "closes": {}}
    samples: list[str] = []
    for result in m.results:
        if "failed" in result:
            samples.append(f"load process {result['worker']} failed: {result['failed']}")
            continue
        for name, values in series.items():
            values.frombytes(result[name])
        for name, total in tallies.items():
            for key, value in result[name].items():
                total[key] = total.get(key, 0) + value
        tallies["counts"]["open_at_end"] = tallies["counts"].get("open_at_end", 0) + result["open_at_end"]
        samples.extend(result["samples"][:5])
    return series, tallies, samples


def _gc(m: Measurement, seconds: int) -> tuple[str | None, list[float]]:
    """The server's ``gc:`` line (bench/gcpauses.py) and its longest pause in each second."""
    summary = None
    worst = [0.0] * (seconds + 1)
    for line in m.log_text.splitlines():
        if line.startswith("gc: "):
            summary = line
        elif line.startswith("gc-pause "):  # gc-pause <wall time> gen<g> <ms> ms, ...
            _, wall, _, ms = line.split()[:4]
            offset = float(wall) - m.t0_wall
            if 0 <= offset < m.duration:
                worst[int(offset)] = max(worst[int(offset)], float(ms))
    return summary, worst


def _counted(m: Measurement, steady_from: float, index: int = 1) -> float | None:
    first, last = m.server_actions.get(steady_from), m.server_actions.get(m.duration)
    if first is None or last is None or len(last) <= index:
        return None
    # The clients stop acting at the window's end, so a late last answer adds no actions, only time.
    elapsed = min(last[0], m.duration) - first[0]
    return (last[index] - first[index]) / elapsed if elapsed > 0 else None


def summarize(m: Measurement) -> dict[str, Any]:
    duration = m.duration
    steady_from = m.ramp if m.ramp < duration else 0.0
    steady_s = duration - steady_from
    series, tallies, samples = _merge(m)
    counts = tallies["counts"]
    sent, lat_at, lat = series["sent_at"], series["lat_at"], series["lat"]
    start, mid, end = m.timeline[0.0], m.timeline[steady_from], m.timeline[duration]
    conns = counts.get("open_at_end", 0)
    seconds = int(duration)

    def by_second(times: array[float]) -> list[list[int]]:
        buckets: list[list[int]] = [[] for _ in range(seconds + 1)]
        for i, t in enumerate(times):
            buckets[min(seconds, max(0, int(t)))].append(i)
        return buckets

    lat_seconds, lag_seconds, sent_seconds = by_second(lat_at), by_second(series["lag_at"]), by_second(sent)
    gc_summary, gc_worst = _gc(m, seconds)
    per_second = [
        {
            "t": s,
            "actions": len(sent_seconds[s]),
            "latency_ms": percentiles([lat[i] for i in lat_seconds[s]]),
            "server_cpu_pct": round(procstats.cpu_percent(m.timeline[s], m.timeline[s + 1], 1.0), 1),
            "server_rss_mib": round(m.timeline[s + 1].rss_kib / 1024, 1),
            "loadgen_lag_max_ms": round(
                max((series["lag"][i] for i in lag_seconds[s]), default=0.0) * 1e3, 1
            ),
            "server_gc_max_ms": gc_worst[s] if gc_summary else None,
        }
        for s in range(seconds)
        if float(s + 1) in m.timeline
    ]
    server_steady = procstats.cpu_percent(mid, end, steady_s)
    load_steady = (m.load[duration] - m.load[steady_from]) / steady_s * 100
    machine_busy = procstats.busy_percent(
        m.machine[steady_from], m.machine[duration], set(m.machine[duration])
    )
    return {
        "target": m.target,
        "pace": m.pace,
        "tables": m.tables,
        "duration_s": duration,
        "ramp_s": m.ramp,
        "procs": m.procs,
        "server_env": m.env,
        "connections": conns,
        "connected": counts.get("connected", 0),
        "actions_per_s": {
            "steady": sum(1 for t in sent if steady_from <= t < duration) / steady_s,
            "window": sum(1 for t in sent if t < duration) / duration,
        },
        "server_counted_actions_per_s": _counted(m, steady_from),
        "server_counted_commits_per_s": _counted(m, steady_from, 2),
        "broadcasts_per_s": (counts.get("broadcasts", 0) + counts.get("events", 0)) / duration,
        "frames_per_s": counts.get("frames", 0) / duration,
        "latency_ms": {
            "steady": percentiles(
                [x for t, x in zip(lat_at, lat, strict=True) if steady_from <= t < duration]
            ),
            "window": percentiles(lat),
        },
        "latency_over_100ms": sum(1 for x in lat if x > 0.1),
        "unanswered": max(0, len(sent) - len(lat)) if m.pace != "bots" else 0,
        "server_cpu_pct": {"steady": server_steady, "window": procstats.cpu_percent(start, end, duration)},
        "server_system_pct": {
            "steady": 100.0 * (end.system_seconds - mid.system_seconds) / steady_s if steady_s else 0.0,
            "window": 100.0 * (end.system_seconds - start.system_seconds) / duration if duration else 0.0,
        },
        "server_rss_kib": {"idle": m.idle.rss_kib, "end": end.rss_kib, "peak": end.hwm_kib},
        "kib_per_connection": (end.rss_kib - m.idle.rss_kib) / conns if conns else math.nan,
        "loadgen_cpu_pct": {
            "steady": load_steady,
            "window": (m.load[duration] - m.load[0.0]) / duration * 100,
        },
        "loadgen_loop_lag_ms": percentiles(series["lag"]),
        "machine_busy_pct": machine_busy / m.cpus,
        "other_cpu_pct": machine_busy - server_steady - load_steady,
        "server_alive_at_end": m.server_alive,
        **tallies,
        "samples": samples[:20],
        "server_gc": gc_summary,
        "server_gc_long_pauses": [x for x in m.log_text.splitlines() if x.startswith("gc-pause ")][:300],
        "server_log_tail": m.log_text[-1500:],
        "per_second": per_second,
    }


LEGEND = """\
steady = after the ramp. act/s: actions (bots: as seen by one spectator per table); frames/s: received
by all clients; latency (ms): a command to its broadcast reaching the sender; srv%: server process CPU
(100 = one core); other%: CPU charged to neither server nor load processes (softirq, other programs);
load%: load processes' CPU; lag: their event-loop lag, max ms"""


def print_table(runs: list[dict[str, Any]]) -> None:
    head = (
        f"{'target':8} {'pace':5} {'tables':>6} {'conns':>6} {'act/s':>7} {'frames/s':>8} {'p50':>6} "
        f"{'p95':>6} {'p99':>6} {'max':>6} {'srv%':>5} {'other%':>6} {'KiB/conn':>8} {'load%':>5} {'lag':>4}"
    )
    print(head)
    print("-" * len(head))
    for run in runs:
        lat = run["latency_ms"]["steady"]
        print(
            f"{run['target']:8} {run['pace']:5} {run['tables']:>6} {run['connections']:>6} "
            f"{run['actions_per_s']['steady']:>7.0f} {run['frames_per_s']:>8.0f} {lat['p50']:>6.1f} "
            f"{lat['p95']:>6.1f} {lat['p99']:>6.1f} {lat['max']:>6.0f} "
            f"{run['server_cpu_pct']['steady']:>5.0f} {run['other_cpu_pct']:>6.0f} "
            f"{run['kib_per_connection']:>8.1f} {run['loadgen_cpu_pct']['steady']:>5.0f} "
            f"{run['loadgen_loop_lag_ms']['max']:>4.0f}"
        )
    print(LEGEND)
    for run in runs:
        whole, rss = run["latency_ms"]["window"], run["server_rss_kib"]
        print(
            f"{run['target']} {run['pace']}: whole window (ramp included) p50 {whole['p50']:.1f} "
            f"p99 {whole['p99']:.1f} max {whole['max']:.0f} ms, {run['actions_per_s']['window']:.0f} act/s, "
            f"server CPU {run['server_cpu_pct']['window']:.0f} %; RSS idle {rss['idle'] / 1024:.0f} MiB, "
            f"end {rss['end'] / 1024:.0f} MiB; {run['connected']} connected"
        )
        print(
            f"    errors {run['errors'] or 'none'}, closes {run['closes'] or 'none'}, seq gaps "
            f"{run['counts'].get('seq_gaps', 0)}, latency > 100 ms: {run['latency_over_100ms']}, "
            f"unanswered {run['unanswered']}"
        )
        if run["other_cpu_pct"] > 15:
            print(f"    warning: {run['other_cpu_pct']:.0f} % of a core went to other programs or softirq")
        if run["server_gc"]:
            print(f"    server {run['server_gc']}")
        for sample in run["samples"][:5]:
            print(f"    {sample}")
    ceiling = next((r for r in runs if r["target"] == "bare" and r["pace"] == "flat"), None)
    for run in runs:
        if run["target"] == "boneyard" and run["pace"] in ("flat", "bots") and ceiling:
            ratio = run["actions_per_s"]["steady"] / max(1.0, ceiling["actions_per_s"]["steady"])
            print(f"boneyard {run['pace']} / bare flat ceiling (same run): {ratio:.2f} (aim >= 0.50)")
    bare = next((r for r in runs if r["target"] == "bare" and r["pace"] == "flat"), None)
    for run in runs:
        if run["pace"] == "flat":
            us, system = cpu_per_action_us(run)
            ratio = f", {us / cpu_per_action_us(bare)[0]:.2f}x the bare server's" if bare else ""
            kernel = f"({system:.0f} in the kernel)"
            print(f"{run['target']} flat: {us:.0f} µs of server CPU per action {kernel}{ratio}")
            us, system = cpu_per_action_us(run, "steady")
            ratio = f", {us / cpu_per_action_us(bare, 'steady')[0]:.2f}x" if bare else ""
            print(f"    after the ramp: {us:.0f} µs ({system:.0f} in the kernel){ratio}")
    for run in runs:
        if run.get("server_counted_actions_per_s") is not None:
            counted = run["server_counted_actions_per_s"]
            commits = run.get("server_counted_commits_per_s") or 0.0
            per_commit = f", {counted / commits:.1f} a commit" if commits else ""
            print(
                f"boneyard {run['pace']}: the server counted {counted:.0f} actions/s and "
                f"{commits:.0f} commits/s{per_commit} (steady, /metrics)"
            )


def cpu_per_action_us(run: dict[str, Any], part: str = "window") -> tuple[float, float]:
    """Server CPU per action in µs, and the kernel's part of it (system time); ``part``: over the
    whole window (tables joining included) or the steady part after the ramp."""
    actions = max(1e-9, run["actions_per_s"][part])
    system = run.get("server_system_pct", {}).get(part, math.nan)
    return run["server_cpu_pct"][part] / 100 / actions * 1e6, system / 100 / actions * 1e6
