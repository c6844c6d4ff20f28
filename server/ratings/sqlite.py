"""Ratings on a durable server's database: each rating and rated game written through the journal (a
game's ``rating_changes`` waits for their commit, like every frame), the book read back at start."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from boneyard.server.ratings.book import Change, Rating, RatingBook
from boneyard.server.ratings.kinds import as_kind
from boneyard.server.storage.db import connect
from boneyard.server.storage.journal import Journal

_UPSERT_RATING = """INSERT INTO ratings (player, kind, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (player, kind) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
        games = excluded.games, wins = excluded.wins"""
_ADD_GAME = """INSERT INTO rated_games (player, kind, seat, record_id, finished, before, after, won)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""


class SQLiteRatingLog:
    """The book's changes as statements on the journal."""

    __slots__ = ("_journal",)

    def __init__(self, journal: Journal) -> None:
        self._journal = journal

    def rated(self, rating: Rating, change: Change) -> None:
        row = (rating.player, rating.kind, rating.mu, rating.sigma, rating.games, rating.wins)
        self._journal.write(_UPSERT_RATING, row)
        game = (change.player, change.kind, change.seat, change.record_id, change.finished)
        self._journal.write(_ADD_GAME, (*game, change.before, change.after, change.won))


def load_ratings(journal: Journal, path: Path) -> RatingBook:
    """Every stored rating and rated game, in a book that writes through ``journal``."""
    book = RatingBook(SQLiteRatingLog(journal))
    with closing(connect(path, read_only=True)) as reader:
        games: dict[tuple[str, str], list[Change]] = {}
        query = (
            "SELECT player, kind, seat, record_id, finished, before, after, won FROM rated_games"
            " ORDER BY finished, rowid"
        )
        for player, kind, seat, record_id, finished, before, after, won in reader.execute(query):
            change = Change(seat, player, as_kind(kind), before, after, False, bool(won), record_id, finished)
            games.setdefault((player, kind), []).append(change)
        for player, kind, mu, sigma, played, wins in reader.execute(
            "SELECT player, kind, mu, sigma, games, wins FROM ratings"
        ):
            book.loaded(Rating(player, as_kind(kind), mu, sigma, played, wins), games.get((player, kind), []))
    return book
