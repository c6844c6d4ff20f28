"""The journal on its own: batches, the order callbacks run in, what ``pending`` means, failures."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from boneyard.server.storage.db import open_database
from boneyard.server.storage.journal import Journal


async def test_callbacks_run_in_order_once_what_came_before_them_is_committed(tmp_path: Path) -> None:
    db = open_database(tmp_path / "j.db")
    journal = Journal(db.connection, asyncio.get_running_loop())
    order: list[str] = []
    assert not journal.pending()
    journal.after_commit(lambda: order.append("nothing pending: at once"))
    journal.write("INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", ("a", "p1", "ana"))
    journal.after_commit(lambda: order.append("first"))
    assert journal.pending() and order == ["nothing pending: at once"]
    await asyncio.sleep(0)  # the batch starts; what is written now goes in the next one
    journal.write("INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", ("b", "p2", "bo"))
    journal.after_commit(lambda: order.append("second"))
    await journal.drain()
    assert order == ["nothing pending: at once", "first", "second"]
    assert (journal.commits, journal.statements) == (2, 2)
    reader = db.reader()
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 2
    reader.close()
    await journal.close()
    db.close()


async def test_a_failed_statement_breaks_the_journal_and_nothing_waiting_runs(tmp_path: Path) -> None:
    db = open_database(tmp_path / "j.db")
    failures: list[BaseException] = []
    journal = Journal(db.connection, asyncio.get_running_loop(), failures.append)
    ran: list[str] = []
    journal.write("INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", ("a", "p1", "ana"))
    journal.write("INSERT INTO no_such_table VALUES (1)")
    journal.after_commit(lambda: ran.append("never"))
    await journal.drain()
    assert journal.broken() and journal.pending() and ran == []
    assert len(failures) == 1 and isinstance(failures[0], sqlite3.OperationalError)
    with pytest.raises(RuntimeError):
        journal.write("INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", ("b", "p2", "bo"))
    reader = db.reader()
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0  # the batch rolled back
    reader.close()
    await journal.close()
    db.close()


async def test_an_inline_journal_commits_on_the_loop_in_the_same_pass(tmp_path: Path) -> None:
    # db_sync=normal: no fsync to wait for, so no worker thread: the batch and its commit run in the
    # loop pass after the writes, and what waited for them runs right then.
    db = open_database(tmp_path / "j.db")
    db.set_synchronous("normal")
    assert db.connection.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    journal = Journal(db.connection, asyncio.get_running_loop(), inline=True)
    ran: list[str] = []
    journal.write("INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", ("a", "p1", "ana"))
    journal.after_commit(lambda: ran.append("after"))
    assert journal.pending() and ran == []
    await asyncio.sleep(0)  # one loop pass
    assert ran == ["after"] and not journal.pending() and journal.commits == 1
    reader = db.reader()
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 1
    reader.close()
    await journal.close()
    db.close()


def _session(journal: Journal, token: str) -> None:
    journal.write(
        "INSERT INTO sessions (token, player_id, name) VALUES (?, ?, ?)", (token, "p" + token, token)
    )


async def test_a_commit_window_makes_writes_soon_after_a_commit_share_the_next_one(tmp_path: Path) -> None:
    # The window (a minute here: no machine is that slow) lets a commit start at most once per window.
    # The first write after a quiet spell is committed at once; what comes after waits for the window's
    # end, with what waited for it, and shares one commit; closing does not wait for the window.
    db = open_database(tmp_path / "j.db")
    journal = Journal(db.connection, asyncio.get_running_loop(), window=60.0)
    order: list[str] = []
    _session(journal, "a")
    journal.after_commit(lambda: order.append("a"))
    await journal.committed()
    assert order == ["a"] and journal.commits == 1
    _session(journal, "b")
    journal.after_commit(lambda: order.append("b"))
    _session(journal, "c")
    journal.after_commit(lambda: order.append("c"))
    await asyncio.sleep(0)  # a loop pass: without the window, the batch of b and c would start in it
    assert journal.batches == 1 and journal.pending() and order == ["a"]
    reader = db.reader()
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 1
    await journal.close()
    assert order == ["a", "b", "c"] and not journal.pending()
    assert (journal.commits, journal.statements) == (2, 3)
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 3
    reader.close()
    db.close()


async def test_without_a_window_a_write_after_a_commit_starts_the_next_at_once(tmp_path: Path) -> None:
    db = open_database(tmp_path / "j.db")
    journal = Journal(db.connection, asyncio.get_running_loop())
    _session(journal, "a")
    await journal.committed()
    _session(journal, "b")
    await asyncio.sleep(0)  # a loop pass: the batch starts, where a window would hold it back
    assert journal.batches == 2
    await journal.committed()
    assert journal.commits == 2 and not journal.pending()
    await journal.close()
    db.close()


async def test_a_write_during_a_commit_waits_for_the_window_from_that_commits_start(tmp_path: Path) -> None:
    # Queued while a commit runs, it goes in the next batch, which starts at the window's end, not
    # when that commit ends.
    db = open_database(tmp_path / "j.db")
    journal = Journal(db.connection, asyncio.get_running_loop(), window=60.0)
    a_committed = asyncio.Event()
    _session(journal, "a")
    journal.after_commit(a_committed.set)
    await asyncio.sleep(0)  # the batch starts; the worker commits it
    assert journal.commits == 0
    _session(journal, "b")
    await a_committed.wait()  # without the window, b's batch would have started right then
    assert journal.batches == 1 and journal.commits == 1 and journal.pending()
    await journal.close()
    assert (journal.commits, journal.statements) == (2, 2) and not journal.pending()
    db.close()
