"""A cluster's accounts: one key-value bucket, ``boneyard-accounts``, that every node mirrors.

Each node's :class:`~boneyard.server.accounts.book.AccountBook` is a copy of the bucket, fed by the
bucket's watch (:class:`~boneyard.server.cluster.directory.Directory`), so a sign-in reads no network
once the copy is current. Before each ``identify`` the node waits for its copy to catch up with the
bucket (:meth:`ClusterAccounts.prepare`), so an account created on another node a moment ago is known.

The bucket's entries are in :mod:`~boneyard.server.cluster.account_entries`.

A new account is three creates, each a compare-and-set that fails if the key has a value: the claims
first (``l.`` on the name as it looks, ``k.`` on the public key), then the account (``a.``), so that no
account is ever without its claims; if any fails, the ones made are removed again and the desk answers
from the copy (``name_taken``, or the key's refusal). So of two nodes registering one name (or two names
alike) at once, exactly one wins. A node stopping between a claim and its account leaves a lone
claim, which blocks the name for ``CLAIM_SECONDS`` and is then taken over by compare-and-set. A link
code is spent by removing ``c.`` at the revision read (once, on one node). A key added with a link code
updates ``a.`` by compare-and-set, retried on the latest value. These writes go through the node's
:class:`~boneyard.server.cluster.writes.Writes`: the ``welcome`` waits for them.

An operator's rename (:mod:`~boneyard.server.cluster.rename`) is seen here too: a rename's copy of an
account counts once its old entry is a forward (or gone), and the forward is no account.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from boneyard.protocol.accounts import SignIn
from boneyard.server.accounts.book import Account, AccountBook, code_hash
from boneyard.server.accounts.names import account_key, refusal
from boneyard.server.accounts.signin import name_taken, refused, verified
from boneyard.server.cluster.account_entries import (
    account_entry,
    claim,
    code_entry,
    decoded,
    encoded,
    forwarded,
    key_entry,
    look_entry,
    moving_from,
    take_claim,
)
from boneyard.server.cluster.directory import Directory, from_key_part
from boneyard.server.cluster.writes import Writes
from boneyard.server.errors import CommandError
from boneyard.server.ratings.replies import BOT_PLAYERS

log = logging.getLogger("boneyard.cluster")

__all__ = ["ClusterAccounts", "account_entry", "code_entry", "decoded", "encoded"]  # (their old home)

ACCOUNTS_BUCKET = "boneyard-accounts"
CATCH_UP_SECONDS = 2.0
"""How long an ``identify`` waits at most for this node's copy of the accounts to catch up."""


class ClusterAccounts:
    """The node's copy of the cluster's accounts: the book's :class:`AccountLog` and the sign-in desk's
    :class:`~boneyard.server.accounts.signin.AccountStore`."""

    def __init__(self, directory: Directory, writes: Writes, wall: Callable[[], float]) -> None:
        self.directory = directory
        self._writes = writes
        self._wall = wall
        self.book = AccountBook(self)
        self._banned: set[str] = set()
        self._created: dict[int, tuple[SignIn, Account | CommandError | None]] = {}
        """What :meth:`prepare` made of each request to create an account (the account, or why not), by
        the id of the request."""
        self._codes: dict[str, tuple[str, float]] = {}
        """Link codes :meth:`prepare` spent, by hash, until the book asks for them."""
        self.renamed: Callable[[str, str], None] = lambda key, new_name: None
        """Told the old key and the new name of an account an operator renamed (the node signs its
        sessions out)."""
        self.changed: Callable[[str], None] = lambda key: None
        """Told the key of each account entry that changed (the ratings follow what ``lists`` says)."""
        self._copies: dict[str, str] = {}
        """Renames not flipped yet: the key of the copy (``a.`` with ``from``), by the old key."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._following: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Fill the book from the mirror and follow the bucket from now on."""
        self._following = self.directory.follow(self._apply)

    def _apply(self, entry: str, value: bytes | None) -> None:
        if entry.startswith("a."):
            key = from_key_part(entry[2:])
            self._take(key, value)
            self.changed(key)

    def _take(self, key: str, value: bytes | None) -> None:
        """The account entry of ``key`` into the book (or out of it)."""
        self.book.forget(key)  # keys taken away (none today) must not stay in the copy
        self._banned.discard(key)
        moved = None if value is None else forwarded(value)
        if value is None or moved is not None:
            if moved is not None:
                self.renamed(key, moved[1])
            renamed = self._copies.pop(key, None)
            if renamed is not None:  # this account was renamed: its copy under the new name counts now
                self._apply(account_entry(renamed), self.directory.entries.get(account_entry(renamed)))
            return
        source = moving_from(value)
        if source is not None and self._is_account(source):
            self._copies[source] = key  # a rename not flipped yet: the account is still the old entry
            return
        account, banned = decoded(key, value)
        self.book.loaded(account)
        if banned:
            self._banned.add(key)

    def lists(self, key: str) -> bool:
        """Whether ``key``'s ratings are shown: an account's, or a player's with no account entry (a bot);
        not a rename's copy before its flip, nor its old name's after it (so that none is shown twice)."""
        return account_entry(key) not in self.directory.entries or self.book.get(key) is not None

    def keeps_ratings(self, key: str) -> bool:
        """Whether a rating of ``key`` is stored: an account of this node's copy, or a bot. Not a name
        renamed away (a game ending after the rename, left by its player before it, rates the old key:
        stored, it would be a rating of nobody, or of whoever signs up under the freed name next)."""
        return self.book.get(key) is not None or key in BOT_PLAYERS

    def _is_account(self, key: str) -> bool:
        value = self.directory.entries.get(account_entry(key))
        return value is not None and forwarded(value) is None

    async def close(self) -> None:
        for task in (*self._tasks, self._following):
            if task is not None:
                task.cancel()

    # -- the sign-in desk's AccountStore ------------------------------------------------------------------

    def prepare(self, request: SignIn | None, nonce: str | None, then: Callable[[], None]) -> None:
        task = asyncio.get_running_loop().create_task(self._prepare(request, nonce, then))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _prepare(self, request: SignIn | None, nonce: str | None, then: Callable[[], None]) -> None:
        try:
            await self.directory.caught_up(CATCH_UP_SECONDS)
            if request is not None and nonce is not None and verified(request, nonce):
                if request.create:
                    try:
                        self._created[id(request)] = (request, await self._create(request))
                    except Exception:
                        self._created[id(request)] = (request, refused("the accounts cannot be reached"))
                        raise
                elif request.link_code is not None:
                    await self._spend(request.link_code)
        except Exception as error:  # NATS unreachable: the desk answers from the copy (and creates nothing)
            log.warning("accounts: %s", error or type(error).__name__)
        then()

    def created(self, request: SignIn) -> Account | None:
        asked, outcome = self._created.pop(id(request), (None, None))
        if asked is not request or outcome is None:
            return None  # (an id is reused once its object is gone: the request itself must match)
        if isinstance(outcome, CommandError):
            raise outcome
        return outcome

    async def _create(self, request: SignIn) -> Account | CommandError | None:
        """The account made, or why not (``None``: the desk refuses it from the copy)."""
        name, public_key = request.account, request.public_key
        book = self.book
        if refusal(name) is not None or book.alike(name) is not None or book.by_key(public_key) is not None:
            return None
        key = account_key(name)
        now = self._wall()
        account = Account(key, name, now, {public_key})
        directory = self.directory
        made: list[tuple[str, int]] = []
        for entry, value in (
            (look_entry(name), claim(key, now)),
            (key_entry(public_key), claim(key, now)),
            (account_entry(key), encoded(account)),  # the account last: never one without its claims
        ):
            if entry.startswith("a."):
                revision = await directory.create(entry, value)
            else:
                revision = await take_claim(directory, entry, value, now)
            if revision is None:  # another node holds it (maybe for a moment): undo what was made
                for undo, at in reversed(made):
                    await directory.remove(undo, last=at)
                if entry.startswith("k."):
                    return refused("this key already belongs to an account")
                return name_taken(name)
            made.append((entry, revision))
        book.loaded(account)
        return account

    async def _spend(self, code: str) -> None:
        hashed = code_hash(code)
        stored = await self.directory.revision(code_entry(hashed))
        if stored is not None and await self.directory.remove(code_entry(hashed), last=stored[1]):
            account, expires = json.loads(stored[0])
            self._codes[hashed] = (str(account), float(expires))
        else:
            self.book.spent_elsewhere(code)  # spent on some node already (or never made)

    # -- the book's AccountLog ---------------------------------------------------------------------

    def account_created(self, account: Account) -> None:
        pass  # the store creates a cluster's accounts (``created``), never the book

    def key_added(self, account: Account, public_key: str, now: float) -> None:
        def add(current: Account) -> None:
            current.keys.add(public_key)

        self._update(account, add, claimed=(key_entry(public_key), claim(account.key, now)))

    def mutes_changed(self, account: Account) -> None:
        muted = account.muted

        def mute(current: Account) -> None:
            current.muted = muted

        self._update(account, mute)

    def _update(
        self, account: Account, change: Callable[[Account], None], claimed: tuple[str, bytes] | None = None
    ) -> None:
        """Make ``change`` to the account's entry (through ``Writes``: what follows waits), by
        compare-and-set on the latest value, after creating ``claimed`` (a key and its value), if given.
        An account renamed meanwhile (its entry a forward) is changed no more: said in the log."""
        key = account.key
        directory = self.directory

        async def write() -> None:
            try:
                if claimed is not None:
                    await directory.create(*claimed)
                while (stored := await directory.revision(account_entry(key))) is not None:
                    if forwarded(stored[0]) is not None:
                        log.warning("accounts: %s was renamed: not changed", account.name)
                        return
                    current, banned = decoded(key, stored[0])
                    change(current)
                    if await directory.update(account_entry(key), encoded(current, banned), stored[1]):
                        return
            except Exception as error:
                log.warning("accounts: cannot change the account %s: %s", account.name, error)

        self._writes.write(write, f"account {key}")

    def code_made(self, account: Account, code_hash: str, expires: float) -> None:
        value = json.dumps([account.key, expires]).encode()

        async def write() -> None:
            try:
                await self.directory.put(code_entry(code_hash), value)
            except Exception as error:
                log.warning("accounts: cannot store a link code of %s: %s", account.name, error)

        self._writes.write(write, f"code {code_hash}")

    def code_spent(self, code_hash: str) -> None:
        pass  # spent in the bucket by ``prepare``, before the book was asked

    def stored_code(self, code_hash: str) -> tuple[str, float] | None:
        return self._codes.pop(code_hash, None)

    def banned(self, key: str) -> bool:
        return key in self._banned
