"""Accounts on a durable server's database: the :class:`AccountLog` writing through the journal, the
book read back at start, and the operator's recovery code (``boneyard-server players recovery-code``).

Writes go through the journal like the tables' (the ``welcome`` of a new account waits for its commit);
reads of the book happen once, at start. A code written by the operator's command while the server runs
is read when a sign-in names it (``stored_code``): the only read on the loop, and a rare one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from boneyard.server.accounts.book import Account, AccountBook, code_hash, new_code
from boneyard.server.accounts.names import account_key, look_key, refusal
from boneyard.server.moderation import muted_key
from boneyard.server.storage.db import StorageError, connect, open_database, open_read_only
from boneyard.server.storage.journal import Journal

RECOVERY_CODE_SECONDS = 7 * 24 * 3600.0
"""How long an operator's recovery code is good for."""


class SQLiteAccountLog:
    """The book's changes as statements on the journal; stored codes read through a connection of
    their own (WAL: it never waits for the writer)."""

    __slots__ = ("_journal", "_path")

    def __init__(self, journal: Journal, path: Path) -> None:
        self._journal = journal
        self._path = path

    def account_created(self, account: Account) -> None:
        self._journal.write(
            "INSERT INTO accounts (key, name, created) VALUES (?, ?, ?)",
            (account.key, account.name, account.created),
        )

    def key_added(self, account: Account, public_key: str, now: float) -> None:
        self._journal.write(
            "INSERT INTO account_keys (public_key, account, added) VALUES (?, ?, ?)",
            (public_key, account.key, now),
        )

    def code_made(self, account: Account, code_hash: str, expires: float) -> None:
        self._journal.write(
            "INSERT INTO link_codes (code_hash, account, expires) VALUES (?, ?, ?)",
            (code_hash, account.key, expires),
        )

    def code_spent(self, code_hash: str) -> None:
        self._journal.write("DELETE FROM link_codes WHERE code_hash = ?", (code_hash,))

    def mutes_changed(self, account: Account) -> None:
        self._journal.write("DELETE FROM mutes WHERE account = ?", (account.key,))
        for muted in sorted(account.muted):
            self._journal.write("INSERT INTO mutes (account, muted) VALUES (?, ?)", (account.key, muted))

    def stored_code(self, code_hash: str) -> tuple[str, float] | None:
        with closing(connect(self._path, read_only=True)) as reader:
            row = reader.execute(
                "SELECT account, expires FROM link_codes WHERE code_hash = ?", (code_hash,)
            ).fetchone()
        return None if row is None else (str(row[0]), float(row[1]))

    def banned(self, key: str) -> bool:
        with closing(connect(self._path, read_only=True)) as reader:
            row = reader.execute("SELECT banned FROM accounts WHERE key = ?", (key,)).fetchone()
        return row is not None and bool(row[0])


def load_book(journal: Journal, path: Path) -> AccountBook:
    """Every account and key stored in the database at ``path``, in a book that writes through ``journal``."""
    book = AccountBook(SQLiteAccountLog(journal, path))
    with closing(connect(path, read_only=True)) as reader:
        accounts = {
            key: Account(key, name, created)
            for key, name, created in reader.execute("SELECT key, name, created FROM accounts")
        }
        for public_key, key in reader.execute("SELECT public_key, account FROM account_keys"):
            accounts[key].keys.add(public_key)
        mutes: dict[str, set[str]] = {}
        for key, muted in reader.execute("SELECT account, muted FROM mutes"):
            mutes.setdefault(key, set()).add(muted)
        for key, muted_names in mutes.items():
            if key in accounts:
                accounts[key].muted = frozenset(muted_names)
    for account in accounts.values():
        book.loaded(account)
    return book


def _on_account(path: Path, name: str, change: Callable[[sqlite3.Connection, str], object]) -> str:
    """Run ``change`` (a write, given the account's key) on the database at ``path`` (a server may be
    running on it); the account's name as registered. :class:`StorageError` if there is no such account."""
    open_read_only(path).close()  # checks it is a Boneyard database of a version this one knows
    connection = connect(path)
    try:
        key = account_key(name)
        row = connection.execute("SELECT name FROM accounts WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise StorageError(f"no account named {name!r} in {path}")
        change(connection, key)
    except sqlite3.Error as error:
        raise StorageError(f"cannot write to {path}: {error}") from None
    finally:
        connection.close()
    return str(row[0])


def issue_recovery_code(path: Path, name: str, now: float) -> str:
    """A one-time code adding a key to the account ``name`` (``RECOVERY_CODE_SECONDS``), written to the
    database at ``path``."""
    code = new_code()
    insert = "INSERT INTO link_codes (code_hash, account, expires) VALUES (?, ?, ?)"
    _on_account(
        path, name, lambda db, key: db.execute(insert, (code_hash(code), key, now + RECOVERY_CODE_SECONDS))
    )
    return code


def set_banned(path: Path, name: str, banned: bool) -> str:
    """Ban (or unban) the account ``name`` in the database at ``path`` (a running server reads the flag at
    each sign-in); the account's name as registered."""
    update = "UPDATE accounts SET banned = ? WHERE key = ?"
    return _on_account(path, name, lambda db, key: db.execute(update, (int(banned), key)))


_RENAMED = (
    "UPDATE account_keys SET account = ? WHERE account = ?",
    "UPDATE link_codes SET account = ? WHERE account = ?",
    "UPDATE sessions SET account = ? WHERE account = ?",
    "UPDATE ratings SET player = ? WHERE player = ?",
    "UPDATE rated_games SET player = ? WHERE player = ?",
    "UPDATE reports SET account = ? WHERE account = ?",
    "UPDATE mutes SET account = ? WHERE account = ?",
)
"""Everything that names an account by its key (others' mutes name it by its name)."""


def rename_account(path: Path, old: str, new: str) -> str:
    """Rename the account ``old`` to ``new`` (the name rules hold, and ``new`` must be free) in the
    database at ``path``, keys, ratings and history kept; the old name as registered. The server must be
    stopped (it holds the accounts in memory): the database's lock says so otherwise."""
    why = refusal(new)
    if why is not None:
        raise StorageError(f"the name {new!r} is not allowed: {why}")
    database = open_database(path)
    try:
        connection = database.connection
        old_key, new_key = account_key(old), account_key(new)
        row = connection.execute("SELECT name FROM accounts WHERE key = ?", (old_key,)).fetchone()
        if row is None:
            raise StorageError(f"no account named {old!r} in {path}")
        names = [name for key, name in connection.execute("SELECT key, name FROM accounts") if key != old_key]
        taken = [name for name in names if account_key(name) == new_key or look_key(name) == look_key(new)]
        if taken:
            raise StorageError(f"the name {new!r} is taken, or looks like one that is ({taken[0]!r})")
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("UPDATE accounts SET key = ?, name = ? WHERE key = ?", (new_key, new, old_key))
        for statement in _RENAMED:
            connection.execute(statement, (new_key, old_key))
        # Others' mutes name the player as shown: the new name now (one mute of both: kept once).
        old_muted, new_muted = muted_key(str(row[0])), muted_key(new)
        connection.execute("UPDATE OR IGNORE mutes SET muted = ? WHERE muted = ?", (new_muted, old_muted))
        connection.execute("DELETE FROM mutes WHERE muted = ?", (old_muted,))
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        raise StorageError(f"cannot write to {path}: {error}") from None
    finally:
        database.close()
    return str(row[0])
