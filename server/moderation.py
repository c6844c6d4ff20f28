"""Moderation (feature ``moderation``): who a session muted, and the reports kept for the operator.

Reports go to the log (``boneyard.moderation``) and to the server's ``ReportLog``: on a durable server
the database's ``reports`` table, on a cluster's node the cluster's stream of reports
(:mod:`~boneyard.server.cluster.reports`), so that ``boneyard-server players reports`` prints every
node's; the reporter's session is metered.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from boneyard.protocol.moderation import REPORTS_PER_MINUTE
from boneyard.server.errors import CommandError
from boneyard.server.meter import BucketsByKey
from boneyard.server.session import Session
from boneyard.server.storage.db import StorageError, open_read_only
from boneyard.server.storage.journal import Journal

log = logging.getLogger("boneyard.moderation")


def muted_key(name: str) -> str:
    """How a mute names a player: the display name case-folded."""
    return name.casefold()


@dataclass(frozen=True, slots=True)
class Report:
    """One player's report of another, as kept for the operator."""

    at: float
    """The wall time it was made."""
    reporter: str
    account: str | None
    """The reporter's account key (``None``: a guest)."""
    player: str
    reason: str

    def line(self) -> str:
        """The report as ``boneyard-server players reports`` prints it (one JSON line, no newline)."""
        return json.dumps({name: getattr(self, name) for name in self.__slots__})


class ReportLog(Protocol):
    """Where reports are kept for the operator."""

    def reported(self, report: Report) -> None: ...


class JournalReports:
    """The reports kept in a durable server's database, written through its journal."""

    __slots__ = ("_journal",)

    def __init__(self, journal: Journal) -> None:
        self._journal = journal

    def reported(self, report: Report) -> None:
        self._journal.write(
            "INSERT INTO reports (reporter, account, player, reason, at) VALUES (?, ?, ?, ?, ?)",
            (report.reporter, report.account, report.player, report.reason, report.at),
        )


class Reports:
    """Reports to the operator: metered per session, logged, and kept when a ``ReportLog`` is given."""

    __slots__ = ("_meters", "kept")

    def __init__(self) -> None:
        self._meters = BucketsByKey(REPORTS_PER_MINUTE)
        self.kept: ReportLog | None = None
        """Where the server keeps reports (``None``: an in-memory server, the log only)."""

    def report(self, reporter: Session, player: str, reason: str, now: float, wall: float) -> None:
        if not self._meters.take(reporter.player_id, now):
            raise CommandError("rate_limited", f"at most {REPORTS_PER_MINUTE} reports a minute")
        log.warning("report: %s reports %s: %s", reporter.name, player, reason)
        if self.kept is not None:
            self.kept.reported(Report(wall, reporter.name, reporter.account, player, reason))


def export_reports(path: Path, out: TextIO) -> int:
    """``boneyard-server players reports``: the stored reports as JSON Lines, oldest first; the count.
    Reads through a read-only connection (a server may be running meanwhile)."""
    connection = open_read_only(path)
    try:
        rows = connection.execute(
            "SELECT reporter, account, player, reason, at FROM reports ORDER BY at, rowid"
        )
        count = 0
        for reporter, account, player, reason, at in rows:
            out.write(Report(at, reporter, account, player, reason).line() + "\n")
            count += 1
    except sqlite3.Error as error:
        raise StorageError(f"cannot read the reports of {path}: {error}") from None
    finally:
        connection.close()
    return count
