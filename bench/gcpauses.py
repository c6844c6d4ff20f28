"""Time a Python server's garbage collections from inside it (``gc.callbacks``), for the load benchmark.

A full collection stops the event loop for as long as it walks every tracked object, which with
thousands of connections is the longest stall a Python server has, and it is invisible to a profiler
such as py-spy. Run Boneyard under it with

    python bench/gcpauses.py serve --host 127.0.0.1 --port P --log-level warning

(the same arguments as ``boneyard-server``; ``bench/loadgen.py --gc-trace`` does this). At exit it
prints one ``gc:`` summary line and a ``gc-pause`` line per long pause (with the objects it freed and
``gc.get_count()`` when it started), which ``loadgen.py`` reads.
"""

from __future__ import annotations

import atexit
import gc
import sys
import time

LONG_PAUSE = 0.010
"""Pauses at least this long (seconds) are listed one by one with their time."""


class GcPauses:
    """Counts and times every collection; keeps the long ones (wall time, generation, seconds)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.count = [0, 0, 0]
        self.total = [0.0, 0.0, 0.0]
        self.worst = [0.0, 0.0, 0.0]
        self.counts = (0, 0, 0)
        self.long: list[tuple[float, int, float, int, tuple[int, int, int]]] = []
        gc.callbacks.append(self.callback)

    def callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.counts = gc.get_count()
            self.started = time.perf_counter()
            return
        gen = info["generation"]
        pause = time.perf_counter() - self.started
        self.count[gen] += 1
        self.total[gen] += pause
        self.worst[gen] = max(self.worst[gen], pause)
        if pause >= LONG_PAUSE and len(self.long) < 1000:
            self.long.append((time.time(), gen, pause, info.get("collected", 0), self.counts))

    def report(self) -> str:
        lines = [
            "gc: "
            + ", ".join(
                f"gen{g} {self.count[g]} collections, max {self.worst[g] * 1e3:.1f} ms, "
                f"total {self.total[g] * 1e3:.0f} ms"
                for g in range(3)
            )
        ]
        lines += [
            f"gc-pause {at:.3f} gen{gen} {pause * 1e3:.1f} ms, {collected} collected, counts {counts}"
            for at, gen, pause, collected, counts in self.long
        ]
        return "\n".join(lines)


def main() -> int:
    pauses = GcPauses()
    atexit.register(lambda: print(pauses.report(), flush=True))
    from boneyard.server.cli import main as server_main

    return int(server_main(sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main())
