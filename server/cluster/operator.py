"""The operator's account commands on a cluster: ``boneyard-server players ban|unban|recovery-code|rename
--cluster URL`` write to the ``boneyard-accounts`` bucket that every node mirrors (a rename to the
ratings too: :mod:`~boneyard.server.cluster.rename`).

A node follows the bucket (:class:`~boneyard.server.cluster.accounts.ClusterAccounts`), so a ban written
here refuses the account's next sign-in on every node, and a recovery code is spent by whichever node the
player signs in on, once. The account's entry is changed by compare-and-set on the revision read, retried
on the latest value, so a key a node adds to the account at the same moment is not lost.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import nats
from nats.js import JetStreamContext
from nats.js.errors import BucketNotFoundError

from boneyard.server.accounts.book import code_hash, new_code
from boneyard.server.accounts.names import account_key
from boneyard.server.cluster import ClusterError
from boneyard.server.cluster.account_entries import (
    account_entry,
    code_entry,
    decoded,
    encoded,
    forwarded,
    moving_from,
)
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET
from boneyard.server.cluster.directory import Directory
from boneyard.server.cluster.ratings import RATINGS_BUCKET
from boneyard.server.cluster.rename import STEPS, Rename, unfinished
from boneyard.server.cluster.reports import stored_reports
from boneyard.server.cluster.tablelog import TOKENS_BUCKET


async def _said_once(error: Exception) -> None:
    """nats-py's error callback (by default, a traceback on standard error): the error that stops the
    command reaches the operator once, in the command's own line."""


@asynccontextmanager
async def _jetstream(url: str) -> AsyncIterator[JetStreamContext]:
    """The cluster's JetStream, or :class:`ClusterError` in one line."""
    try:
        nc = await nats.connect(
            [server.strip() for server in url.split(",")],
            name="boneyard-server players",
            connect_timeout=5,
            max_reconnect_attempts=1,
            allow_reconnect=False,
            error_cb=_said_once,
        )
    except Exception as error:  # nats-py's: no servers, timeouts
        raise ClusterError(f"cannot reach the cluster at {url}: {error or type(error).__name__}") from None
    try:
        yield nc.jetstream()
    finally:
        await nc.close()


async def _bucket(js: JetStreamContext, name: str) -> Directory | None:
    """The bucket ``name`` (read and written directly: no mirror of it is needed here), if there is one."""
    try:
        return Directory(js, name, await js.key_value(name))
    except BucketNotFoundError:
        return None


async def _accounts_of(js: JetStreamContext, url: str) -> Directory:
    """The cluster's accounts bucket, or :class:`ClusterError` in one line."""
    accounts = await _bucket(js, ACCOUNTS_BUCKET)
    if accounts is None:
        raise ClusterError(f"the cluster at {url} has no accounts yet (no {ACCOUNTS_BUCKET} bucket)")
    return accounts


@asynccontextmanager
async def _accounts(url: str) -> AsyncIterator[Directory]:
    async with _jetstream(url) as js:
        yield await _accounts_of(js, url)


async def _entry(accounts: Directory, name: str, url: str) -> tuple[str, bytes, int]:
    """The account ``name``'s key, stored value and revision; :class:`ClusterError` if there is none."""
    key = account_key(name)
    stored = await accounts.revision(account_entry(key))
    if stored is None:
        raise ClusterError(f"no account named {name!r} on the cluster at {url}")
    moved = forwarded(stored[0])
    if moved is not None:
        raise ClusterError(f"no account named {name!r} on the cluster at {url}: renamed to {moved[1]!r}")
    if moving_from(stored[0]) is not None:  # (a change now would make it an account beside the old one)
        raise unfinished(name)
    return key, *stored


async def set_banned_on_cluster(url: str, name: str, banned: bool) -> str:
    """Ban (or unban) the account ``name`` on the cluster at ``url``; its name as registered."""
    async with _accounts(url) as accounts:
        while True:
            key, value, revision = await _entry(accounts, name, url)
            account, _ = decoded(key, value)
            if await accounts.update(account_entry(key), encoded(account, banned), revision) is not None:
                return account.name
            # changed on a node since it was read (a key added): again, on the latest value


async def recovery_code_on_cluster(url: str, name: str, now: float, lasts: float) -> str:
    """A one-time code adding a key to the account ``name`` until ``now + lasts``, stored on the cluster
    at ``url`` (only its hash, as a node stores a link code)."""
    async with _accounts(url) as accounts:
        key, _, _ = await _entry(accounts, name, url)
        code = new_code()
        await accounts.put(code_entry(code_hash(code)), json.dumps([key, now + lasts]).encode())
        return code


async def rename_on_cluster(url: str, old: str, new: str, now: float, steps: tuple[str, ...] = STEPS) -> str:
    """Rename the account ``old`` to ``new`` on the cluster at ``url`` (its ``steps``: all of them but
    in a test); the old name as registered."""
    async with _jetstream(url) as js:
        accounts = await _accounts_of(js, url)
        ratings, tokens = await _bucket(js, RATINGS_BUCKET), await _bucket(js, TOKENS_BUCKET)
        rename = Rename(accounts, ratings, tokens, old, new, now, where=f"the cluster at {url}")
        await rename.run(steps)
        return rename.old_name


async def reports_on_cluster(url: str) -> list[str]:
    """Every report made on the cluster at ``url``, oldest first (``players reports``' lines)."""
    async with _jetstream(url) as js:
        return await stored_reports(js)
