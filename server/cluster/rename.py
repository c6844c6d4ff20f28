"""An operator's rename of a cluster's account (``boneyard-server players rename OLD NEW --cluster URL``).

An account's entries are keyed by the key of its name (``names.account_key``): the account (``a.``),
the claims on its name and its public keys (``l.``, ``k.``), its link codes (``c.``), its ratings and
their history in ``boneyard-ratings`` (``r.``, ``h.``), and other accounts' mutes name it. JetStream
writes one key at a time, so a rename is a sequence of writes with one of them the moment it happens
(the *flip*), in an order where a stop anywhere leaves the old name or the new one, each signing in, and
where the same command run again finishes the work:

1. ``check``: the new name passes the rules of a new account's; the account is there; its player holds
   no seat (a session at a table keeps its account's key until it ends: refused, said in one line);
2. ``claim`` the new name as it looks (``l.``), by compare-and-set: a sign-up of that name, or of one
   alike, fails from now on (or this one does, if it came first);
3. ``copy``: the account to the new key, marked as a copy (``from``): the new name is taken for good,
   but no node counts it as an account; then its ratings and history (each created only if missing:
   after the account, so that a rename given up never leaves ratings to a stranger signing up);
4. ``flip``: no seat again (else refused, the old name still the account's), then the old entry becomes
   a forward to the new key, by compare-and-set on the revision the copy was made from (a key, mute or
   ban written by a node meanwhile: copied again, and again): from here every node signs the player in
   under the new name only, with the same keys, and signs out a session still signed in under the old
   (its rated seek ends: a pool is one node's, unseen by the check);
5. ``settle``: what still names the old key moves (new history copied, key claims, link codes, other
   accounts' mutes), the old ratings and claim are removed, the copy becomes a plain account, and the
   forward is removed last: only then is the old name free for a sign-up. (Each removal leaves a delete
   marker, which every node must see; the nodes purge the old ones: ``ClusterNode._sweep_forever``.)

Before the flip a rerun starts over (every step finds its own writes and goes on); after it, the forward
says so and a rerun settles. A rename to the same key (``ana`` to ``Ana``) changes the name in place.
Between the copy and the settling (moments, or until a rename stopped midway is run again) the ratings
bucket holds the player's ratings under both keys; a node shows one of them, the account's that signs in
(before the flip the old key's, after it the new key's: ``ClusterAccounts.lists``), so a leaderboard or a
profile never lists the player twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from boneyard.server.accounts.book import Account
from boneyard.server.accounts.names import account_key, look_key, refusal
from boneyard.server.cluster import ClusterError
from boneyard.server.cluster.account_entries import (
    account_entry,
    claim,
    claim_moved,
    claimant,
    code_moved,
    copy_made_plain,
    decoded,
    encoded,
    forward,
    forwarded,
    is_forward_to,
    look_entry,
    moving_from,
    mute_moved,
    take_claim,
)
from boneyard.server.cluster.directory import Directory, key_part
from boneyard.server.cluster.tablelog import token_entry
from boneyard.server.moderation import muted_key

STEPS = ("check", "claim", "copy", "flip", "settle")
"""A rename's steps, in order (a test runs the first few only, as a stop between them would)."""


def unfinished(name: str) -> ClusterError:
    """Why a rename's copy (``name``, not an account yet) is not changed: the rename must finish first."""
    return ClusterError(f"{name!r} is the new name of a rename not finished: run the rename again")


class Rename:
    """The rename of the account ``old`` to ``new`` on a cluster's buckets (``ratings`` and ``tokens``:
    ``None`` where the cluster has none yet)."""

    def __init__(
        self,
        accounts: Directory,
        ratings: Directory | None,
        tokens: Directory | None,
        old: str,
        new: str,
        now: float,
        where: str,
    ) -> None:
        self.where = where
        """Where the accounts are, as an error message says it (``the cluster at nats://...``)."""
        self.accounts, self.ratings, self.tokens = accounts, ratings, tokens
        self.new, self.now = new, now
        self.old_name = old
        """The old name as registered (once checked)."""
        self.old_key, self.new_key = account_key(old), account_key(new)
        self.in_place = self.old_key == self.new_key
        """Another way to write the same name (``ana`` to ``Ana``): the entry keeps its key."""
        self.flipped = False

    async def run(self, steps: tuple[str, ...] = STEPS) -> None:
        for step in steps:
            await getattr(self, step)()

    # -- 1. check -----------------------------------------------------------------------------------------

    async def check(self) -> None:
        why = refusal(self.new)
        if why is not None:
            raise ClusterError(f"the name {self.new!r} is not allowed: {why}")
        stored = await self.accounts.revision(account_entry(self.old_key))
        if stored is None:
            raise ClusterError(f"no account named {self.old_name!r} on {self.where}")
        moved = forwarded(stored[0])
        if moved is not None:
            if moved[0] != self.new_key:
                raise ClusterError(f"{moved[2]!r} is being renamed to {moved[1]!r}: run that rename again")
            self.flipped, self.old_name = True, moved[2]
            return
        if moving_from(stored[0]) is not None:
            raise unfinished(self.old_name)
        self.old_name = decoded(self.old_key, stored[0])[0].name
        if not self.in_place:
            new = await self.accounts.revision(account_entry(self.new_key))
            if new is not None and moving_from(new[0]) != self.old_key:
                raise await self._taken(self.new_key)
        await self._no_seats()

    async def _taken(self, key: str) -> ClusterError:
        """The new name refused: taken by the account of ``key``, or looking like its name."""
        stored = await self.accounts.revision(account_entry(key))
        name = None if stored is None else json.loads(stored[0]).get("name")
        alike = "" if name is None or account_key(name) == self.new_key else f", or looks like {name!r}"
        return ClusterError(f"the name {self.new!r} is taken{alike}")

    async def _no_seats(self) -> None:
        """A session at a table keeps its account's key until it ends: refused while there is one."""
        tokens = self.tokens
        if tokens is None:
            return
        for token in await tokens.stored_keys(">"):
            stored = await tokens.revision(token)
            entry = None if stored is None else token_entry(stored[0])
            if entry is not None and entry[3] == self.old_key:
                raise ClusterError(
                    f"{self.old_name!r} has a seat at a table (a session on node {entry[2]}):"
                    " rename once the player has left every table"
                )

    # -- 2. claim -----------------------------------------------------------------------------------------

    async def claim(self) -> None:
        if self.flipped or look_key(self.new) == look_key(self.old_name):
            return
        entry = look_entry(self.new)
        value = claim(self.new_key, self.now, renaming=self.old_key)
        if await take_claim(self.accounts, entry, value, self.now) is None:
            stored = await self.accounts.revision(entry)
            raise await self._taken(self.new_key if stored is None else claimant(stored[0])[0])

    # -- 3. copy, 4. flip ---------------------------------------------------------------------------------

    async def copy(self) -> None:
        if not self.flipped and not self.in_place:
            await self._flip(copy_only=True)
            await self._copy_ratings()

    async def flip(self) -> None:
        if not self.flipped:
            await self._no_seats()  # again: the player may have sat down since the check (then: run it again)
        await self._flip(copy_only=False)

    async def _flip(self, copy_only: bool) -> None:
        """The account copied to the new key from the old entry's latest revision, then (unless
        ``copy_only``) the old entry made a forward at that revision: again while nodes change it."""
        accounts, old_entry = self.accounts, account_entry(self.old_key)
        while not self.flipped:
            stored = await accounts.revision(old_entry)
            if stored is not None and is_forward_to(stored[0], self.new_key):
                self.flipped = True  # by another run of this rename, meanwhile
                return
            if stored is None or forwarded(stored[0]) is not None:
                raise ClusterError(f"{self.old_name!r} was renamed or removed meanwhile: nothing done")
            account, banned = decoded(self.old_key, stored[0])
            if self.in_place:
                account.name = self.new
                written = encoded(account, banned)
                self.flipped = await accounts.update(old_entry, written, stored[1]) is not None
                continue
            renamed = Account(self.new_key, self.new, account.created, account.keys, account.muted)
            if not await self._write_copy(encoded(renamed, banned, moving_from=self.old_key)):
                raise await self._taken(self.new_key)
            if copy_only:
                return
            moved = forward(self.new_key, self.new, self.old_name)
            self.flipped = await accounts.update(old_entry, moved, stored[1]) is not None

    async def _write_copy(self, value: bytes) -> bool:
        """Write this rename's copy (``False``: the new name's entry is someone else's)."""
        accounts, entry = self.accounts, account_entry(self.new_key)
        while True:  # again if written meanwhile (another run of this rename, or a sign-up's account)
            stored = await accounts.revision(entry)
            if stored is not None and moving_from(stored[0]) != self.old_key:
                return False
            if stored is None and await accounts.create(entry, value) is not None:
                return True
            if stored is not None and await accounts.update(entry, value, stored[1]) is not None:
                return True

    async def _copy_ratings(self) -> None:
        """Each rating and rated game of the old key under the new key, unless there already."""
        ratings = self.ratings
        if ratings is None:
            return
        new = key_part(self.new_key)
        for entry in await ratings.stored_keys(f"*.{key_part(self.old_key)}.>"):
            stored = await ratings.revision(entry)
            if stored is None:
                continue
            value = stored[0]
            if entry.startswith("h."):  # a rated game names its player
                game = json.loads(value)
                game[1] = self.new_key
                value = json.dumps(game).encode()
            kind, _, rest = entry.split(".", 2)
            await ratings.create(f"{kind}.{new}.{rest}", value)

    # -- 5. settle ----------------------------------------------------------------------------------------

    async def settle(self) -> None:
        if not self.flipped:
            raise ClusterError(f"{self.old_name!r} is not renamed yet: nothing to settle")
        old_key, new_key = self.old_key, self.new_key
        if not self.in_place:
            await self._copy_ratings()  # games rated under the old key since the copy
            if self.ratings is not None:
                for entry in await self.ratings.stored_keys(f"*.{key_part(old_key)}.>"):
                    await self.ratings.remove(entry)
            await self._rewrite("k.>", lambda value: claim_moved(value, old_key, new_key))
            await self._rewrite("c.>", lambda value: code_moved(value, old_key, new_key))
        old_mute, new_mute = muted_key(self.old_name), muted_key(self.new)
        if old_mute != new_mute:
            await self._rewrite("a.>", lambda value: mute_moved(value, old_mute, new_mute))
        if look_key(self.old_name) != look_key(self.new):
            await self._drop(look_entry(self.old_name), lambda value: claimant(value)[0] == old_key)
        if not self.in_place:
            await self._rewrite(account_entry(new_key), lambda value: copy_made_plain(value, old_key))
            # Last: the old name is free from here, with nothing of the account left under it.
            await self._drop(account_entry(old_key), lambda value: is_forward_to(value, new_key))

    async def _rewrite(self, pattern: str, change: Callable[[bytes], bytes | None]) -> None:
        """Every accounts entry matching ``pattern`` made what ``change`` makes of its value (``None``: left
        as it is), by compare-and-set, again on the latest value if a node wrote it meanwhile."""
        accounts = self.accounts
        for entry in await accounts.stored_keys(pattern):
            while (stored := await accounts.revision(entry)) is not None:
                value = change(stored[0])
                if value is None or await accounts.update(entry, value, stored[1]) is not None:
                    break

    async def _drop(self, entry: str, when: Callable[[bytes], bool]) -> None:
        """Remove the accounts entry ``entry`` if ``when`` its value says so (at the revision read)."""
        accounts = self.accounts
        while (stored := await accounts.revision(entry)) is not None and when(stored[0]):
            if await accounts.remove(entry, last=stored[1]):
                return
