"""Server load benchmark: real websocket clients over loopback against Boneyard and a bare websockets server.

    python bench/loadgen.py --target both --tables 30 --pace human --duration 20
    python bench/loadgen.py --target both --tables 300 --pace flat,bots --duration 30 --ramp 10
    python bench/loadgen.py --target boneyard --tables 3300 --pace human --duration 120 --ramp 60

For each target and pace it starts the server under test as a subprocess on a free loopback port
(Boneyard: ``boneyard-server serve``; bare: ``bench/bare_server.py``), waits for ``/healthz``, reads
its idle RSS, then starts ``--procs`` load processes. Tables join one after another over the first
``--ramp`` seconds of the ``--duration`` window (clients join during the measurement); after the window
every client is dropped and the server stopped. Paces: ``human`` (one action per table per second),
``flat`` (the seat to move acts as soon as it may), ``bots`` (Boneyard only: all-bot tables, three
spectators each). Figures marked "steady" cover the window after the ramp. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import procstats  # noqa: E402
from loadclients import WorkerConfig, worker_entry  # noqa: E402
from loadreport import Measurement, print_table, summarize  # noqa: E402

HOST = "127.0.0.1"
CPUS = sorted(os.sched_getaffinity(0))
FLAT_ENV = {  # flat and bots: bots act at once, and a seat acting flat out is not a flood
    "BONEYARD_BOT_DELAY_SECONDS": "0",
    "BONEYARD_BOTS_ONLY_MOVE_SECONDS": "0",
    "BONEYARD_COMMANDS_PER_SECOND": "10000",
    "BONEYARD_COMMAND_BURST": "10000",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def healthy(port: int) -> bool:
    request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n"
    try:
        with socket.create_connection((HOST, port), timeout=2) as sock:
            sock.sendall(request.encode())
            return sock.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


COUNTED = ("boneyard_actions_total", "boneyard_db_commits_total")
"""The server's own counters noted at the steady window's ends: actions applied, database commits."""


def server_actions(port: int) -> float | None:
    """Game actions the Boneyard server says it applied (``boneyard_actions_total`` on /metrics)."""
    counts = server_counts(port)
    return None if counts is None else counts[0]


def server_counts(port: int) -> tuple[float, ...] | None:
    """The :data:`COUNTED` series on the Boneyard server's /metrics (summed over labels; 0 if absent)."""
    request = f"GET /metrics HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n"
    chunks = []
    try:
        with socket.create_connection((HOST, port), timeout=5) as sock:
            sock.sendall(request.encode())
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    except OSError:
        return None
    lines = b"".join(chunks).decode(errors="replace").splitlines()
    values = [[float(line.split()[-1]) for line in lines if line.startswith(name)] for name in COUNTED]
    return tuple(sum(v) for v in values) if values[0] else None


def start_server(
    target: str, pace: str, port: int, args: argparse.Namespace, log: Path
) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    """The server under test, in its own session, its output in ``log``; and the settings it got."""
    extra: dict[str, str] = {}
    if target == "bare":
        cmd = [sys.executable, str(BENCH / "bare_server.py"), "--port", str(port)]
    else:
        exe = shutil.which("boneyard-server")
        if args.gc_trace:
            base = [sys.executable, str(BENCH / "gcpauses.py")]
        else:
            base = [exe] if exe else [sys.executable, "-m", "boneyard.server.cli"]
        cmd = [*base, "serve", "--host", HOST, "--port", str(port), "--log-level", "warning"]
        extra["BONEYARD_MAX_TABLES"] = str(max(10_000, 4 * args.tables))
        # Every simulated player comes from this one host: the per-address and bots-only quotas are lifted.
        extra["BONEYARD_TABLES_PER_ADDRESS"] = extra["BONEYARD_MAX_BOT_TABLES"] = extra["BONEYARD_MAX_TABLES"]
        extra["BONEYARD_DB"] = str(log.with_suffix(".db"))  # a fresh database per run, in a temporary folder
        extra["BONEYARD_HAND_PAUSE_SECONDS"] = "0"  # the load clients never say ready: no pause between hands
        if pace != "human":
            extra.update(FLAT_ENV)
        extra.update(args.server_env)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            env={**os.environ, **extra},
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=BENCH.parent,
            start_new_session=True,
        )
    if args.pin:
        os.sched_setaffinity(proc.pid, CPUS[:1])
    return proc, extra


def stop(proc: subprocess.Popen[bytes] | BaseProcess, grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds: only the processes this script started."""
    if isinstance(proc, subprocess.Popen):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
    elif proc.is_alive():
        proc.terminate()
        proc.join(grace)
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def cpu_seconds(pid: int | None) -> float:
    try:
        return procstats.read(pid).cpu_seconds if pid else 0.0
    except OSError:
        return 0.0


def start_load(
    target: str, pace: str, port: int, t0: float, args: argparse.Namespace
) -> tuple[list[BaseProcess], list[Connection]]:
    """The load processes; table ``i`` goes to process ``i % procs``."""
    mp = multiprocessing.get_context("spawn")
    workers: list[BaseProcess] = []
    pipes: list[Connection] = []
    for w in range(args.procs):
        tables = list(range(w, args.tables, args.procs))
        cfg = WorkerConfig(
            w, target, pace, port, tables, args.tables, t0, args.duration, args.ramp, args.validate, args.seed
        )
        cfg.ports = tuple(getattr(args, "ports", ()))  # bench/bench_cluster_load.py: several nodes
        cfg.fold = not getattr(args, "plain", False)
        receiver, sender = mp.Pipe(duplex=False)
        proc = mp.Process(target=worker_entry, args=(cfg, sender), name=f"loadgen-{w}", daemon=True)
        proc.start()
        if args.pin and proc.pid:
            os.sched_setaffinity(proc.pid, CPUS[1:])
        sender.close()
        workers.append(proc)
        pipes.append(receiver)
    return workers, pipes


def start_profiler(
    server_pid: int, target: str, pace: str, args: argparse.Namespace
) -> subprocess.Popen[bytes]:
    """py-spy over the window (``--profile``), idle samples included, as collapsed stacks."""
    args.profile.mkdir(parents=True, exist_ok=True)
    out = args.profile / f"{target}-{pace}-{args.tables}.txt"
    spy = ["py-spy", "record", "--pid", str(server_pid), "--rate", "200", "--format", "raw", "--idle"]
    spy += ["--duration", str(int(args.duration)), "--output", str(out)]
    return subprocess.Popen(spy, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def machine_busy(seconds: float = 2.0) -> float:
    """How busy the whole machine is now, in percent of one core (before anything of ours runs)."""
    before = procstats.read_cpus()
    time.sleep(seconds)
    return procstats.busy_percent(before, procstats.read_cpus(), set(CPUS))


def wait_quiet(limit: float, most: float = 25.0) -> float:
    """Wait up to ``limit`` seconds for other programs to leave the machine; the busy % last seen."""
    deadline = time.time() + limit
    busy = machine_busy()
    while busy > most and time.time() < deadline:
        print(f"   the machine is {busy:.0f} % busy (other programs): waiting", flush=True)
        time.sleep(10)
        busy = machine_busy()
    return busy


def run_one(target: str, pace: str, args: argparse.Namespace, logdir: Path) -> dict[str, Any]:
    busy_before = wait_quiet(args.wait_quiet) if args.wait_quiet else machine_busy()
    port = free_port()
    log = logdir / f"{target}-{pace}-server.log"
    server, env = start_server(target, pace, port, args, log)
    workers: list[BaseProcess] = []
    try:
        deadline = time.time() + 30
        while not healthy(port):
            if server.poll() is not None or time.time() > deadline:
                tail = log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"{target} server did not become healthy on port {port}:\n{tail}")
            time.sleep(0.2)
        time.sleep(1.0)
        t0 = time.time() + 2.0  # time for the load processes to start
        m = Measurement(
            target, pace, args.tables, args.duration, args.ramp, args.procs, env, t0,
            procstats.read(server.pid), len(CPUS),
        )  # fmt: skip
        workers, pipes = start_load(target, pace, port, t0, args)
        steady_from = args.ramp if args.ramp < args.duration else 0.0
        sleep_until(t0)
        profiler = start_profiler(server.pid, target, pace, args) if args.profile else None
        for mark in sorted({float(s) for s in range(int(args.duration) + 1)} | {args.ramp, args.duration}):
            sleep_until(t0 + mark)
            m.timeline[mark] = procstats.read(server.pid)
            m.load[mark] = sum(cpu_seconds(p.pid) for p in workers)
            m.machine[mark] = procstats.read_cpus()
            if target == "boneyard" and mark in (steady_from, args.duration):
                counts = server_counts(port)  # a saturated loop may answer seconds late: note when
                m.server_actions[mark] = None if counts is None else (time.time() - t0, *counts)
        for w, pipe in enumerate(pipes):
            m.results.append(pipe.recv() if pipe.poll(60) else {"worker": w, "failed": "no result in 60 s"})
        m.server_alive = server.poll() is None
        if profiler is not None:
            profiler.wait(30)
    finally:
        for proc in workers:
            stop(proc, 5)
        stop(server)
    m.log_text = log.read_text(errors="replace")
    return {**summarize(m), "machine_busy_before_pct": busy_before}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--target", choices=("boneyard", "bare", "both"), default="both")
    add("--tables", type=int, default=30, help="tables of 3 connections (default 30)")
    add("--pace", default="human", help="human, flat, bots, or a comma list (default human)")
    add("--duration", type=float, default=30.0, help="measurement window, seconds (default 30)")
    add("--ramp", type=float, help="tables join over this many seconds (default: a third of the window)")
    add("--procs", type=int, default=2, help="load processes (default 2)")
    add("--validate", action="store_true", help="decode every frame with the protocol package (slow)")
    add("--seed", type=int, default=0, help="seed of the clients' random choices")
    add("--plain", action="store_true", help="Boneyard clients do not opt in to turn_in_event (1.0 frames)")
    add("--pin", action="store_true", help="server on the first CPU, load processes on the others")
    add("--gc-trace", action="store_true", help="run Boneyard under bench/gcpauses.py: time its GC pauses")
    add("--profile", type=Path, help="py-spy the server over the window; collapsed stacks go here (folder)")
    add("--server-env", action="append", default=[], metavar="NAME=VALUE", help="more Boneyard settings")
    add("--wait-quiet", type=float, default=0, help="wait up to this many s for an idle machine before a run")
    add("--out", type=Path, help="JSON result file (default bench/results/loadgen-<time>.json)")
    args = parser.parse_args(argv)
    args.paces = [p.strip() for p in args.pace.split(",") if p.strip()]
    if not args.paces or any(p not in ("human", "flat", "bots") for p in args.paces):
        parser.error("--pace takes human, flat and bots")
    if args.ramp is None:
        args.ramp = args.duration / 3
    if not (1 <= args.tables <= 5000 and 1 <= args.duration <= 900 and 1 <= args.procs <= 8):
        parser.error("bounds: 1..5000 tables, 1..900 s, 1..8 load processes")
    if not 0 <= args.ramp <= args.duration:
        parser.error("--ramp is within the window: 0 <= ramp <= duration")
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if 3 * args.tables + 256 > hard:
        parser.error(f"{3 * args.tables} connections need more than the open-file limit {hard}")
    args.pin = args.pin and len(CPUS) >= 2
    pairs = [item.partition("=") for item in args.server_env]
    if any(not name.startswith("BONEYARD_") or not sep for name, sep, _ in pairs):
        parser.error("--server-env takes BONEYARD_NAME=VALUE")
    args.server_env = {name: value for name, _, value in pairs}
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by the server and load processes
    targets = ["bare", "boneyard"] if args.target == "both" else [args.target]
    plan = [(t, p) for t in targets for p in args.paces if not (t == "bare" and p == "bots")]
    if args.target == "both" and "bots" in args.paces and "flat" not in args.paces:
        plan.insert(0, ("bare", "flat"))  # the ceiling bots-only throughput is compared with
    runs = []
    with tempfile.TemporaryDirectory(prefix="loadgen-") as tmp:
        for target, pace in plan:
            window = f"{args.duration:.0f} s window, ramp {args.ramp:.0f} s"
            print(f"== {target} {pace}: {args.tables} tables, {window}", flush=True)
            try:
                runs.append(run_one(target, pace, args, Path(tmp)))
            except RuntimeError as error:
                print(f"   failed: {error}", flush=True)
    if not runs:
        return 1
    print()
    print_table(runs)
    out = args.out or BENCH / "results" / time.strftime("loadgen-%Y%m%d-%H%M%S.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = {"cores": len(CPUS), "cpu": _cpu_model(), "python": platform.python_version()}
    document = {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "machine": machine, "argv": sys.argv[1:]}
    out.write_text(json.dumps({**document, "runs": runs}, indent=1, default=str))
    print(f"results: {out}")
    return 0


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    sys.exit(main())
