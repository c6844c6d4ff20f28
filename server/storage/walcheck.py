"""Checking a database's write-ahead log before SQLite recovers it (issue #15, item 11).

After a crash the last commits live only in ``PATH-wal``. SQLite replays its frames up to the first
whose checksum fails and silently ignores the rest, so one damaged frame (a bad sector, a torn copy)
drops every commit after it without a word: finished games' records vanished that way. So, before
opening, the log is read the way SQLite reads it (header, then frames whose salts match and whose
cumulative checksums hold); if frames of the current log follow the first bad one, the damage is
reported and the whole log is copied aside, so that nothing is lost silently and an operator can
try to recover it.

The format: https://www.sqlite.org/fileformat2.html#walformat (32-byte header; each frame a 24-byte
header and one page; checksums over 32-bit words, big-endian when the magic is ``0x377f0683``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

_MAGIC = (0x377F0682, 0x377F0683)
_HEADER = 32
_FRAME_HEADER = 24


@dataclass(frozen=True, slots=True)
class WalDamage:
    """Frames of the current log that SQLite will ignore because an earlier one is damaged."""

    good_frames: int
    """Frames up to the last commit SQLite will replay."""
    lost_frames: int
    """Frames of the current log (matching salts) after the first bad one."""
    lost_commits: int
    """Commit frames among them: transactions that will be lost."""


def check_wal(db: Path) -> WalDamage | None:
    """The damage in ``db``'s write-ahead log, or ``None`` when it is intact, empty or absent."""
    wal = db.with_name(db.name + "-wal")
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < _HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:_HEADER])
    if magic not in _MAGIC or page_size < 512 or page_size & (page_size - 1):
        return None  # not a log SQLite would replay at all (it resets such a file)
    order = ">" if magic & 1 else "<"
    s = _checksum(data[:24], 0, 0, order)
    size = _FRAME_HEADER + page_size
    frames = (len(data) - _HEADER) // size
    good = 0
    bad_at: int | None = 0 if s != (c1, c2) else None  # a bad header: SQLite ignores the whole log
    for i in range(frames if bad_at is None else 0):
        at = _HEADER + i * size
        page, commit, f_salt1, f_salt2, f1, f2 = struct.unpack(">6I", data[at : at + _FRAME_HEADER])
        if (f_salt1, f_salt2) != (salt1, salt2):
            break  # left over from an earlier log: the current one ends here
        s = _checksum(data[at : at + 8], *s, order)
        s = _checksum(data[at + _FRAME_HEADER : at + size], *s, order)
        if s != (f1, f2) or page == 0:
            bad_at = i
            break
        if commit:
            good = i + 1
    if bad_at is None:
        return None
    lost = commits = 0
    for i in range(bad_at, frames):
        at = _HEADER + i * size
        _page, commit, f_salt1, f_salt2 = struct.unpack(">4I", data[at : at + 16])
        if (f_salt1, f_salt2) == (salt1, salt2):
            lost += 1
            commits += commit != 0
    if lost == 0:
        return None
    return WalDamage(good, lost, commits)


def _checksum(data: bytes, s0: int, s1: int, order: str) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continuing from ``(s0, s1)``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1
