"""The entries of a cluster's accounts bucket, ``boneyard-accounts``: their keys and what their values hold.

Keys (each part base64url, so any name is a valid key):

- ``a.<account key>``: the account (its name, when it was created, its public keys, banned or not, its
  mutes). Two more forms, both written only by an operator's rename
  (:mod:`~boneyard.server.cluster.rename`): a *copy* (the account under its new name, with ``from``, the
  old key: no account while the old entry is one) and a *forward* (the old name's entry once renamed:
  ``moved_to``, the new key; no account, but the old name stays taken until the rename is finished);
- ``l.<look key>``: a claim on a name as it looks (``names.look_key``): the account's key and when it
  was claimed;
- ``k.<public key>``: a claim on a public key, likewise;
- ``c.<code hash>``: a link code not yet spent (its account and expiry).

A claim is made before its account (:meth:`ClusterAccounts._create`), so an account never lacks one; a
claim whose account was never made (a node stopped between the two) is *lone*, and free again once it is
older than ``CLAIM_SECONDS``.
"""

from __future__ import annotations

import json
import logging

from boneyard.server.accounts.book import Account
from boneyard.server.accounts.names import look_key
from boneyard.server.cluster.directory import Directory, key_part

log = logging.getLogger("boneyard.cluster")

CLAIM_SECONDS = 30.0
"""How long a claim on a name or a key without its account holds: a node creating an account writes the
account a round trip after the claim, so an older lone claim is one whose node stopped in between."""


def account_entry(key: str) -> str:
    return f"a.{key_part(key)}"


def look_entry(name: str) -> str:
    return f"l.{key_part(look_key(name))}"


def key_entry(public_key: str) -> str:
    return f"k.{key_part(public_key)}"


def code_entry(code_hash: str) -> str:
    return f"c.{code_hash}"


def encoded(account: Account, banned: bool = False, moving_from: str | None = None) -> bytes:
    """An account's entry (``a.``) as the bucket holds it; ``moving_from``: a rename's copy of the account
    of that key, not an account until that one is forwarded here."""
    value: dict[str, object] = {
        "name": account.name,
        "created": account.created,
        "keys": sorted(account.keys),
        "banned": banned,
        "muted": sorted(account.muted),
    }
    if moving_from is not None:
        value["from"] = moving_from
    return json.dumps(value).encode()


def decoded(key: str, value: bytes) -> tuple[Account, bool]:
    """The account of key ``key`` in an entry (``a.``, not a forward), and whether it is banned."""
    data = json.loads(value)
    account = Account(key, str(data["name"]), float(data["created"]), {str(k) for k in data["keys"]})
    account.muted = frozenset(str(name) for name in data.get("muted", ()))
    return account, bool(data.get("banned", False))


def moving_from(value: bytes) -> str | None:
    """The old key of a rename's copy (``None``: an account, or a forward)."""
    source = json.loads(value).get("from")
    return None if source is None else str(source)


def forward(new_key: str, new_name: str, old_name: str) -> bytes:
    """The entry of a renamed account's old name: where it went, and what it was called."""
    return json.dumps({"moved_to": new_key, "name": new_name, "was": old_name}).encode()


def forwarded(value: bytes) -> tuple[str, str, str] | None:
    """The new key, new name and old name of a forward (``None``: an account, or a rename's copy)."""
    data = json.loads(value)
    if "moved_to" not in data:
        return None
    return str(data["moved_to"]), str(data["name"]), str(data["was"])


def is_forward_to(value: bytes, key: str) -> bool:
    moved = forwarded(value)
    return moved is not None and moved[0] == key


def copy_made_plain(value: bytes, old_key: str) -> bytes | None:
    """A rename's copy (of ``old_key``'s account) as a plain account (``None``: not that copy)."""
    data = json.loads(value)
    if data.get("from") != old_key:
        return None
    del data["from"]
    return json.dumps(data).encode()


def mute_moved(value: bytes, old: str, new: str) -> bytes | None:
    """An account entry whose mutes name ``old`` (``moderation.muted_key``) naming ``new`` instead
    (``None``: they do not, or it is a forward)."""
    data = json.loads(value)
    muted = data.get("muted", [])
    if old not in muted:
        return None
    data["muted"] = sorted({*muted, new} - {old})
    return json.dumps(data).encode()


def claim(key: str, at: float, renaming: str | None = None) -> bytes:
    """A claim's value (``l.``, ``k.``): the account's key, and when; ``renaming``: a rename's claim on
    the new name of the account of that key."""
    return json.dumps([key, at] if renaming is None else [key, at, renaming]).encode()


def claimant(value: bytes) -> tuple[str, float, str | None]:
    """A claim's account key, time and the old key of its rename (a claim written before claims had
    times: the key alone, at 0).

    >>> claimant(claim("ana", 5.0)), claimant(b"ana"), claimant(claim("bea", 1.0, "ana"))
    (('ana', 5.0, None), ('ana', 0.0, None), ('bea', 1.0, 'ana'))
    """
    try:
        key, at, *renaming = json.loads(value)
    except (ValueError, TypeError):  # not JSON, or a key that is (``123``)
        return value.decode(), 0.0, None
    return str(key), float(at), str(renaming[0]) if renaming else None


def claim_moved(value: bytes, old_key: str, new_key: str) -> bytes | None:
    """A claim of the account ``old_key`` made the account ``new_key``'s (``None``: not old_key's)."""
    owner, at, _ = claimant(value)
    return claim(new_key, at) if owner == old_key else None


def code_moved(value: bytes, old_key: str, new_key: str) -> bytes | None:
    """A link code (``c.``) of the account ``old_key`` made the account ``new_key``'s (``None``: not
    old_key's)."""
    owner, expires = json.loads(value)
    return json.dumps([new_key, expires]).encode() if owner == old_key else None


async def take_claim(directory: Directory, entry: str, value: bytes, now: float) -> int | None:
    """Create the claim ``entry`` (its revision), or take over one that is free: a lone one (its account
    never made) older than ``CLAIM_SECONDS``, or the same rename's own; ``None``: it is someone's."""
    while True:  # again when the claim changed between the reads and the write
        revision = await directory.create(entry, value)
        if revision is not None:
            return revision
        stored = await directory.revision(entry)
        if stored is None:
            continue  # removed meanwhile
        owner, at, renaming = claimant(stored[0])
        ours = renaming is not None and claimant(value)[::2] == (owner, renaming)
        if not ours:
            if now - at < CLAIM_SECONDS or await directory.revision(account_entry(owner)) is not None:
                return None
            log.warning("accounts: %s (%s), its account never made, is free again", entry, owner)
        revision = await directory.update(entry, value, stored[1])
        if revision is not None:
            return revision
