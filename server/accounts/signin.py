"""Checking an ``identify.sign_in``: the rate limits, the signature over this connection's nonce, and
what it asks for (sign in, create the account, add a key with a link code).

The nonce is the connection's (``hello.nonce``) and is spent by its ``identify``, whatever the outcome:
the signature covers the nonce and the account name, so it signs in once, on that connection only.
Every refusal says no more than it must: an unknown account and a wrong key are both
``sign_in_refused`` (what the name rules refuse is said, to whoever registers).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from boneyard.protocol.accounts import SignIn, sign_in_message, unb64
from boneyard.protocol.handshake import Identify
from boneyard.server.accounts.book import Account, AccountBook
from boneyard.server.accounts.names import account_key, refusal
from boneyard.server.errors import CommandError
from boneyard.server.meter import BucketsByKey

LINK_CODE_SECONDS = 600.0
"""How long a ``link_device`` code is good for."""


def refused(message: str) -> CommandError:
    return CommandError("sign_in_refused", message)


def name_taken(name: str) -> CommandError:
    return CommandError("name_taken", f"an account named {name!r} or alike exists")


class AccountStore(Protocol):
    """Accounts shared by several servers (a cluster's nodes): the book is a copy, brought up to date
    before each ``identify``, and a new account is created by the store, which alone can tell whether
    another server took the name at the same moment."""

    def prepare(self, request: SignIn | None, nonce: str | None, then: Callable[[], None]) -> None:
        """Bring the book up to date for an ``identify`` (``request``: its ``sign_in``, if any), create
        the account if it asks to and its signature verifies and the name is free everywhere (compare-
        and-set), spend its link code; then call ``then`` (whatever happened: the desk answers)."""
        ...

    def created(self, request: SignIn) -> Account | None:
        """The account :meth:`prepare` created for ``request``, if it did; ``None`` if it did not try
        (the book tells why); :class:`CommandError` if it tried and failed (another server took the
        name or the key at the same moment, or the store could not be reached)."""
        ...


def verified(request: SignIn, nonce: str) -> bool:
    """Whether ``request.signature`` is ``request.public_key``'s over this nonce and account name."""
    try:
        key = Ed25519PublicKey.from_public_bytes(unb64(request.public_key))
        key.verify(unb64(request.signature), sign_in_message(nonce, request.account))
    except (InvalidSignature, ValueError):
        return False
    return True


class SignInDesk:
    """Signs players in to the :class:`AccountBook`, within the rate limits."""

    __slots__ = ("_by_address", "_by_name", "book", "monotonic", "store", "wall")

    def __init__(
        self,
        book: AccountBook,
        per_minute: int,
        monotonic: Callable[[], float],
        wall: Callable[[], float],
    ) -> None:
        self.book = book
        self.monotonic = monotonic
        self.wall = wall
        self._by_address = BucketsByKey(per_minute)
        self._by_name = BucketsByKey(per_minute)
        self.store: AccountStore | None = None
        """Accounts shared with other servers (a cluster's), of which ``book`` is this server's copy."""

    def ready(self, command: Identify, nonce: str | None, then: Callable[[], None]) -> None:
        """Call ``then`` (which identifies) once the book is up to date for ``command``: at once, unless
        the accounts are shared and it names an account or a guest's new name (then after the store's
        :meth:`AccountStore.prepare`; a guest's resume asks nothing of the accounts)."""
        if self.store is None or (command.sign_in is None and command.resume is not None):
            then()
        else:
            self.store.prepare(command.sign_in, nonce, then)

    @staticmethod
    def nonce() -> str:
        """A fresh nonce for a connection's ``hello`` (32 random bytes)."""
        return secrets.token_urlsafe(32)

    def sign_in(self, request: SignIn, nonce: str | None, host: str) -> Account:
        """The account ``request`` proves (created or given a key if it asks); :class:`CommandError`
        if refused or over the rate."""
        now = self.monotonic()
        # Both buckets are charged: guessing at one name from many addresses, or at many names from one.
        over_address = not self._by_address.take(host, now)
        if not self._by_name.take(account_key(request.account), now) or over_address:
            raise CommandError("rate_limited", "too many sign-in attempts: wait a minute")
        if nonce is None or not verified(request, nonce):
            raise refused("the signature does not verify against this connection's nonce")
        book = self.book
        if request.create:
            return self._create(request)
        account = book.find(request.account)
        if account is None:
            raise refused("no such account, or not this key's")
        if request.link_code is not None:
            if book.spend_code(request.link_code, self.wall()) is not account:
                raise refused("that link code is unknown, spent or expired")
            if request.public_key not in account.keys:
                if book.by_key(request.public_key) is not None:
                    raise refused("this key belongs to another account")
                book.add_key(account, request.public_key, self.wall())
        elif request.public_key not in account.keys:
            raise refused("no such account, or not this key's")
        if book.log.banned(account.key):
            raise CommandError("banned", "this account is banned from this server")
        return account

    def _create(self, request: SignIn) -> Account:
        book = self.book
        why = refusal(request.account)
        if why is not None:
            raise CommandError("name_refused", f"the name {request.account!r} is not allowed: {why}")
        store = self.store
        if store is not None and (mine := store.created(request)) is not None:
            return mine  # the shared store's compare-and-set made it (then its copy is in the book)
        if book.alike(request.account) is not None:
            raise name_taken(request.account)
        if book.by_key(request.public_key) is not None:
            raise refused("this key already belongs to an account")
        if store is not None:  # free in the copy, yet the store did not try: it changed meanwhile
            raise refused("the accounts changed meanwhile: try again")
        return book.create(request.account, request.public_key, self.wall())

    def link_code(self, account: Account) -> str:
        """A one-time code that adds a device's key to ``account`` (``LINK_CODE_SECONDS``)."""
        return self.book.new_code(account, self.wall(), LINK_CODE_SECONDS)
