"""The operator's account commands on a cluster: ``boneyard-server players ban|unban|recovery-code
--cluster URL`` write to the ``boneyard-accounts`` bucket that every node mirrors.

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
from nats.js.errors import BucketNotFoundError

from boneyard.server.accounts.book import code_hash, new_code
from boneyard.server.accounts.names import account_key
from boneyard.server.cluster import ClusterError
from boneyard.server.cluster.accounts import ACCOUNTS_BUCKET, account_entry, code_entry, decoded, encoded
from boneyard.server.cluster.directory import Directory


async def _said_once(error: Exception) -> None:
    """nats-py's error callback (by default, a traceback on standard error): the error that stops the
    command reaches the operator once, in the command's own line."""


@asynccontextmanager
async def _accounts(url: str) -> AsyncIterator[Directory]:
    """The cluster's accounts bucket (read and written directly: no mirror of it is needed here), or
    :class:`ClusterError` in one line."""
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
        js = nc.jetstream()
        try:
            bucket = await js.key_value(ACCOUNTS_BUCKET)
        except BucketNotFoundError:
            raise ClusterError(
                f"the cluster at {url} has no accounts yet (no {ACCOUNTS_BUCKET} bucket)"
            ) from None
        yield Directory(js, ACCOUNTS_BUCKET, bucket)
    finally:
        await nc.close()


async def _entry(accounts: Directory, name: str, url: str) -> tuple[str, bytes, int]:
    """The account ``name``'s key, stored value and revision; :class:`ClusterError` if there is none."""
    key = account_key(name)
    stored = await accounts.revision(account_entry(key))
    if stored is None:
        raise ClusterError(f"no account named {name!r} on the cluster at {url}")
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
