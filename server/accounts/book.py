"""The accounts, their public keys and one-time link codes, in memory, written through an ``AccountLog``.

Nothing here is a usable secret: an account holds public keys only, and a link code is kept as its
SHA-256 (a code is 24 random bytes, so its hash tells nothing and cannot be turned back into it).

>>> book = AccountBook()
>>> ana = book.create("Ana", "k" * 43, now=0.0)
>>> book.by_key("k" * 43) is ana, book.find("ANA") is ana, book.find("bob")
(True, True, None)
>>> code = book.new_code(ana, now=0.0, lasts=60.0)
>>> book.spend_code(code, now=1.0) is ana, book.spend_code(code, now=1.0)
(True, None)
>>> book.spend_code(book.new_code(ana, now=0.0, lasts=60.0), now=61.0) is None
True
"""

from __future__ import annotations

import hashlib
import secrets
import string
from dataclasses import dataclass, field
from typing import Protocol

from boneyard.server.accounts.names import account_key, look_key


@dataclass(slots=True)
class Account:
    """One account: its name as registered, the key of that name, its public keys."""

    key: str
    """``names.account_key(name)``: what tells accounts apart."""
    name: str
    created: float
    keys: set[str] = field(default_factory=set)
    """Its Ed25519 public keys (base64url)."""
    muted: frozenset[str] = frozenset()
    """Who it muted (``moderation.muted_key`` of each display name): a session it signs in to starts so."""


class AccountLog(Protocol):
    """Where the book's changes are written (a durable server's database; nothing in memory)."""

    def account_created(self, account: Account) -> None: ...

    def key_added(self, account: Account, public_key: str, now: float) -> None: ...

    def code_made(self, account: Account, code_hash: str, expires: float) -> None: ...

    def code_spent(self, code_hash: str) -> None: ...

    def mutes_changed(self, account: Account) -> None:
        """``account.muted`` is what it is now."""
        ...

    def stored_code(self, code_hash: str) -> tuple[str, float] | None:
        """A code written by someone else (an operator's recovery code): its account key and expiry."""
        ...

    def banned(self, key: str) -> bool:
        """Whether an operator banned the account (``boneyard-server players ban``, read at each sign-in)."""
        ...


class NoAccountLog:
    """An :class:`AccountLog` that keeps nothing (an in-memory server)."""

    def account_created(self, account: Account) -> None:
        pass

    def key_added(self, account: Account, public_key: str, now: float) -> None:
        pass

    def code_made(self, account: Account, code_hash: str, expires: float) -> None:
        pass

    def code_spent(self, code_hash: str) -> None:
        pass

    def mutes_changed(self, account: Account) -> None:
        pass

    def stored_code(self, code_hash: str) -> tuple[str, float] | None:
        return None

    def banned(self, key: str) -> bool:
        return False


def code_hash(code: str) -> str:
    """How a link code is kept: its SHA-256, in hex."""
    return hashlib.sha256(code.encode()).hexdigest()


CODE_ALPHABET = string.ascii_letters + string.digits
CODE_LENGTH = 32  # 62 ** 32 is about 2 ** 190


def new_code() -> str:
    """A fresh one-time code: 32 random letters and digits.

    Letters and digits only, because a person types it on another device's command line: a
    base64url code starting with ``-`` is read there as an option, and the link fails.
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class AccountBook:
    """Accounts by key, accounts by public key, and the link codes not yet spent."""

    __slots__ = ("_accounts", "_by_public_key", "_codes", "_looks", "_spent", "log")

    def __init__(self, log: AccountLog | None = None) -> None:
        self.log: AccountLog = log or NoAccountLog()
        self._accounts: dict[str, Account] = {}
        self._by_public_key: dict[str, Account] = {}
        self._looks: dict[str, Account] = {}
        """Accounts by how their names look as written (``names.look_key``)."""
        self._codes: dict[str, tuple[str, float]] = {}
        self._spent: set[str] = set()
        """Codes spent while this server runs (a stored code's deletion may not be committed yet)."""

    def find(self, name: str) -> Account | None:
        """The account ``name`` is (under the name rules), if any."""
        return self._accounts.get(account_key(name))

    def alike(self, name: str) -> Account | None:
        """The account ``name`` is, or looks like as written, if any (what a new name must not be)."""
        return self.find(name) or self._looks.get(look_key(name))

    def get(self, key: str) -> Account | None:
        """The account whose name has this key (``names.account_key``)."""
        return self._accounts.get(key)

    def by_key(self, public_key: str) -> Account | None:
        return self._by_public_key.get(public_key)

    def loaded(self, account: Account) -> None:
        """An account read back from storage."""
        self._accounts[account.key] = account
        self._looks[look_key(account.name)] = account
        for public_key in account.keys:
            self._by_public_key[public_key] = account

    def forget(self, key: str) -> None:
        """The account whose name has this key is gone (a cluster's claim undone)."""
        account = self._accounts.pop(key, None)
        if account is None:
            return
        if self._looks.get(look_key(account.name)) is account:
            del self._looks[look_key(account.name)]
        for public_key in account.keys:
            if self._by_public_key.get(public_key) is account:
                del self._by_public_key[public_key]

    def spent_elsewhere(self, code: str) -> None:
        """The code was spent on another server of a cluster: never again here."""
        hashed = code_hash(code)
        self._codes.pop(hashed, None)
        self._spent.add(hashed)

    def create(self, name: str, public_key: str, now: float) -> Account:
        """A new account (the caller checked the name is free and allowed, and the key unused)."""
        account = Account(account_key(name), name, now)
        self._accounts[account.key] = account
        self._looks[look_key(name)] = account
        self.log.account_created(account)
        self.add_key(account, public_key, now)
        return account

    def add_key(self, account: Account, public_key: str, now: float) -> None:
        account.keys.add(public_key)
        self._by_public_key[public_key] = account
        self.log.key_added(account, public_key, now)

    def keep_mutes(self, key: str | None, muted: frozenset[str]) -> None:
        """A signed-in session's mutes changed: the account keeps them (``key`` ``None``: a guest's,
        which go with its session)."""
        account = None if key is None else self._accounts.get(key)
        if account is not None and account.muted != muted:
            account.muted = muted
            self.log.mutes_changed(account)

    def mutes_of(self, key: str) -> frozenset[str]:
        """The mutes a session signed in to the account starts with."""
        account = self._accounts.get(key)
        return frozenset() if account is None else account.muted

    def new_code(self, account: Account, now: float, lasts: float) -> str:
        """A one-time code adding a key to ``account`` until ``now + lasts``."""
        code = new_code()
        hashed = code_hash(code)
        self._codes[hashed] = (account.key, now + lasts)
        self.log.code_made(account, hashed, now + lasts)
        return code

    def spend_code(self, code: str, now: float) -> Account | None:
        """The account a code is for, spending it; ``None`` if it is unknown, spent or expired."""
        hashed = code_hash(code)
        if hashed in self._spent:
            return None
        entry = self._codes.pop(hashed, None) or self.log.stored_code(hashed)
        self._forget_expired(now)
        if entry is None:
            return None
        self._spent.add(hashed)
        self.log.code_spent(hashed)
        key, expires = entry
        return self._accounts.get(key) if now < expires else None

    def _forget_expired(self, now: float) -> None:
        for hashed in [h for h, (_, expires) in self._codes.items() if expires <= now]:
            del self._codes[hashed]
