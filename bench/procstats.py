"""CPU time and memory of a process from ``/proc`` (Linux), for the load benchmark.

>>> stats = read(os.getpid())
>>> stats.cpu_seconds > 0 and stats.rss_kib > 0
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ProcStats:
    cpu_seconds: float
    """utime + stime of the process (all its threads), in seconds."""
    rss_kib: int
    """VmRSS: resident memory now."""
    hwm_kib: int
    """VmHWM: the peak resident memory so far."""
    system_seconds: float = 0.0
    """The stime part of ``cpu_seconds``: in the kernel (system calls: loopback sends run the
    receiver's TCP path in the sender's call)."""


def read(pid: int) -> ProcStats:
    """One reading; raises ``OSError`` when the process is gone."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as file:
        # The command name (field 2) may hold spaces: split after its closing parenthesis.
        fields = file.read().rpartition(")")[2].split()
    # After ")": state is index 0, so utime (field 14) is index 11 and stime (field 15) index 12.
    system = int(fields[12]) / TICKS
    cpu = int(fields[11]) / TICKS + system
    rss = hwm = 0
    with open(f"/proc/{pid}/status", encoding="ascii") as file:
        for line in file:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return ProcStats(cpu, rss, hwm, system)


def cpu_percent(before: ProcStats, after: ProcStats, seconds: float) -> float:
    """CPU used between two readings, as a percentage of one core."""
    return 100.0 * (after.cpu_seconds - before.cpu_seconds) / seconds if seconds > 0 else 0.0


def read_cpus() -> dict[int, tuple[int, int]]:
    """Per CPU, (busy, total) jiffies from ``/proc/stat``: busy counts softirq too.

    Loopback traffic is processed in softirq on the receiving CPU and is not charged to any process,
    so a server's own utime + stime under-counts how busy its core is.
    """
    cpus = {}
    with open("/proc/stat", encoding="ascii") as file:
        for line in file:
            if line.startswith("cpu") and line[3].isdigit():
                name, *values = line.split()
                ticks = [int(v) for v in values[:8]]  # user nice system idle iowait irq softirq steal
                cpus[int(name[3:])] = (sum(ticks) - ticks[3] - ticks[4], sum(ticks))
    return cpus


def busy_percent(
    before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]], cpus: set[int]
) -> float:
    """How busy ``cpus`` were between two ``read_cpus()``, in percent of one core each (summed)."""
    busy = sum(after[c][0] - before[c][0] for c in cpus)
    total = sum(after[c][1] - before[c][1] for c in cpus) / max(1, len(cpus))
    return 100.0 * busy / total if total else 0.0
