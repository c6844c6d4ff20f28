"""A cluster's ratings: one key-value bucket, ``boneyard-ratings``, that every node mirrors.

Each node's :class:`~boneyard.server.ratings.book.RatingBook` is a copy of the bucket, fed by its watch
(:class:`~boneyard.server.cluster.directory.Directory`), so profiles and leaderboards answer alike on
every node and matchmaking reads the same ratings. Keys (the player's part base64url):

- ``r.<player>.<kind>``: the rating (mu, sigma, games, wins);
- ``h.<player>.<kind>.<games>``: the rated game that made it ``games`` games (the profile's history).

Only an operator's rename of an account removes entries (:mod:`~boneyard.server.cluster.rename`: they
moved to the new key), so a removal drops all the player's ratings and history from the copy. Between a
rename's copy and its settling both keys have entries: the book holds a player's only while ``listed``
says so (the accounts' copy: not a rename's copy before its flip, nor its old name's forward after it),
and takes them again from the mirror when told the account changed (:meth:`ClusterRatings.account_changed`),
so that a leaderboard or a profile shows the player once, under the name that signs in.

The node that rates a game writes each changed rating through its
:class:`~boneyard.server.cluster.writes.Writes` (``rating_changes`` waits for it) by compare-and-set on
the revision it read. When another node rated the same player meanwhile (two games of one player ending
at once on two nodes), this game's change is applied again to the newer value, none lost: mu moves by
the same amount, sigma shrinks by the same factor, games and wins add up.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import astuple

from boneyard.server.cluster.directory import Directory, from_key_part, key_part
from boneyard.server.cluster.writes import Writes
from boneyard.server.ratings.book import Change, Rating, RatingBook
from boneyard.server.ratings.kinds import as_kind

log = logging.getLogger("boneyard.cluster")

RATINGS_BUCKET = "boneyard-ratings"
_NEWCOMERS = RatingBook()
"""An empty book: what a player with no rating yet is rated from."""

Numbers = tuple[float, float, int, int]
"""A rating as stored: mu, sigma, games, wins."""


def _numbers(rating: Rating) -> Numbers:
    return rating.mu, rating.sigma, rating.games, rating.wins


def _decoded(value: bytes) -> Numbers:
    mu, sigma, games, wins = json.loads(value)
    return float(mu), float(sigma), int(games), int(wins)


def merged(mine: Numbers, before: Numbers, current: Numbers) -> Numbers:
    """``mine`` (rated from ``before``) applied again to ``current``, the value another node wrote
    meanwhile.

    >>> merged((27.0, 6.0, 1, 1), (25.0, 8.0, 0, 0), (24.0, 7.0, 1, 0))
    (26.0, 5.25, 2, 1)
    """
    mu, sigma, games, wins = mine
    base_mu, base_sigma, base_games, base_wins = before
    now_mu, now_sigma, now_games, now_wins = current
    return (
        now_mu + (mu - base_mu),
        now_sigma * (sigma / base_sigma),
        now_games + games - base_games,
        now_wins + wins - base_wins,
    )


class ClusterRatings:
    """The node's copy of the cluster's ratings, and its book's ``RatingLog``."""

    def __init__(self, directory: Directory, writes: Writes) -> None:
        self.directory = directory
        self._writes = writes
        self.book = RatingBook(self)
        self._seen: dict[str, Numbers] = {}
        """Each rating's value as the mirror last delivered it, by key (what the book rated from)."""
        self._own: set[str] = set()
        """History keys this node wrote (the book has those changes already)."""
        self.listed: Callable[[str], bool] = lambda player: True
        """Whether the book holds a player's ratings: its account entry is not halfway renamed."""
        self.stored: Callable[[str], bool] = lambda player: True
        """Whether a player's new rating is stored (not a name renamed away)."""
        self._held: set[str] = set()
        """Players whose entries are held back from the book (``listed`` said no)."""
        self._following: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Fill the book from the mirror (in key order: ``h.`` before ``r.``, the history before the
        rating it led to) and follow the bucket from now on."""
        self._following = self.directory.follow(self._apply)

    def _apply(self, entry: str, value: bytes | None) -> None:
        kind, *rest = entry.split(".")
        player = from_key_part(rest[0])
        if value is None:  # only a rename removes ratings, every one of the old key's: all of it moved
            self._seen.pop(entry, None)
            self.book.forget(player)
            return
        if kind == "r":
            self._seen[entry] = _decoded(value)
        if not self.listed(player):
            self._held.add(player)
        elif entry not in self._own:
            self._load(entry, value)

    def _load(self, entry: str, value: bytes) -> None:
        """An entry into the book: a rating, or a rated game (added to the rating the book has)."""
        kind, *rest = entry.split(".")
        if kind == "r":
            player, kind_name = from_key_part(rest[0]), as_kind(rest[1])
            self.book.loaded(Rating(player, kind_name, *_decoded(value)), [])
        elif kind == "h":
            seat, player, kind_name, before, after, provisional, won, record_id, finished = json.loads(value)
            change = Change(
                seat, player, as_kind(kind_name), before, after, provisional, won, record_id, finished
            )
            self.book.loaded(self.book.get(player, change.kind), [change])

    def account_changed(self, player: str) -> None:
        """``player``'s account entry changed: its ratings leave the book if it is not ``listed`` now (a
        rename's old name, flipped), or come back from the mirror if it is again (its copy, flipped)."""
        if not self.listed(player):
            if player not in self._held:
                self._held.add(player)
                self.book.forget(player)
        elif player in self._held:
            self._held.discard(player)
            self.book.forget(player)  # (what was held, all of it, comes back from the mirror)
            part = key_part(player)
            for entry, value in sorted(self.directory.entries.items()):  # h. before r., as at start
                if entry.startswith((f"h.{part}.", f"r.{part}.")):
                    self._load(entry, value)

    async def close(self) -> None:
        if self._following is not None:
            self._following.cancel()

    # -- the book's RatingLog -------------------------------------------------------------------------------

    def rated(self, rating: Rating, change: Change) -> None:
        if not self.stored(rating.player):
            log.warning("ratings: %s is no account now (renamed): its game is not stored", rating.player)
            self.book.forget(rating.player)  # (what the book just rated it, from nothing of the account's)
            return
        entry = f"r.{key_part(rating.player)}.{rating.kind}"
        before = self._seen.get(entry) or _numbers(_NEWCOMERS.get(rating.player, rating.kind))
        mine = _numbers(rating)
        history = f"h.{key_part(rating.player)}.{rating.kind}"
        directory = self.directory
        game = json.dumps(astuple(change)).encode()

        async def write() -> None:
            try:
                while True:
                    stored = await directory.revision(entry)
                    if stored is None:
                        numbers = mine
                        revision = await directory.create(entry, json.dumps(numbers).encode())
                    else:
                        current = _decoded(stored[0])
                        numbers = mine if current == before else merged(mine, before, current)
                        revision = await directory.update(entry, json.dumps(numbers).encode(), stored[1])
                    if revision is not None:
                        break
                self._own.add(f"{history}.{numbers[2]}")  # (merged: the game's number is the merged count)
                await directory.put(f"{history}.{numbers[2]}", game)
            except Exception as error:
                log.warning("ratings: cannot store %s's %s rating: %s", rating.player, rating.kind, error)

        self._writes.write(write, f"rating {entry}")
