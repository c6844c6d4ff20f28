"""Moderation (feature ``moderation``): who a session muted, and the reports kept for the operator.

Reports go to the log (``boneyard.moderation``) and, on a durable server, to the database's ``reports``
table (``boneyard-server players reports`` prints them); the reporter's session is metered.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import TextIO

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


class Reports:
    """Reports to the operator: metered per session, logged, and stored when a journal is given."""

    __slots__ = ("_meters", "journal")

    def __init__(self) -> None:
        self._meters = BucketsByKey(REPORTS_PER_MINUTE)
        self.journal: Journal | None = None
        """A durable server's journal (``None``: the log only)."""

    def report(self, reporter: Session, player: str, reason: str, now: float, wall: float) -> None:
        if not self._meters.take(reporter.player_id, now):
            raise CommandError("rate_limited", f"at most {REPORTS_PER_MINUTE} reports a minute")
        log.warning("report: %s reports %s: %s", reporter.name, player, reason)
        if self.journal is not None:
            self.journal.write(
                "INSERT INTO reports (reporter, account, player, reason, at) VALUES (?, ?, ?, ?, ?)",
                (reporter.name, reporter.account, player, reason, wall),
            )


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
            line = {"at": at, "reporter": reporter, "account": account, "player": player, "reason": reason}
            out.write(json.dumps(line) + "\n")
            count += 1
    except sqlite3.Error as error:
        raise StorageError(f"cannot read the reports of {path}: {error}") from None
    finally:
        connection.close()
    return count
