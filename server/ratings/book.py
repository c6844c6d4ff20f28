"""Ratings by player and kind, rated game by game with openskill's Plackett-Luce model, and their history.

A player is an account (its key) or a bot level (``bot-basic``, ``bot-good``, ``bot-strong``: names no
account can take), so bots are rated by their games against people. A rating is *provisional* while its
deviation (sigma) is above ``PROVISIONAL_SIGMA``; leaderboards list established ratings only. On the wire
a rating is shown as ``round(mu * SCALE)`` and its deviation as ``round(sigma * SCALE)`` (1500 and 500 for
a newcomer, as chess servers show).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

from boneyard.server.ratings.kinds import Kind, ranks, teams_of

SCALE = 60.0
"""openskill's mu 25 is shown as 1500."""
PROVISIONAL_SIGMA = 4.0
"""A rating is provisional (``?``) while its sigma is above this (a newcomer's is 25/3)."""

_MODEL = PlackettLuce()


@dataclass(slots=True)
class Rating:
    """One player's rating in one kind."""

    player: str
    kind: Kind
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        return round(self.mu * SCALE)

    @property
    def deviation(self) -> int:
        return round(self.sigma * SCALE)


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one player's rating."""

    seat: int
    player: str
    kind: Kind
    before: int
    after: int
    provisional: bool
    won: bool
    record_id: str | None
    finished: float


class RatingLog(Protocol):
    """Where ratings and their history are written (the database; nothing in memory)."""

    def rated(self, rating: Rating, change: Change) -> None: ...


class NoRatingLog:
    def rated(self, rating: Rating, change: Change) -> None:
        pass


def bot_player(level: str) -> str:
    """The rated player a bot of ``level`` is."""
    return f"bot-{level}"


class RatingBook:
    """Every rating by (player, kind), each player's history, and the rating of a finished game."""

    __slots__ = ("_history", "_ratings", "log")

    def __init__(self, log: RatingLog | None = None) -> None:
        self.log: RatingLog = NoRatingLog() if log is None else log
        self._ratings: dict[tuple[str, Kind], Rating] = {}
        self._history: dict[str, list[Change]] = {}

    def get(self, player: str, kind: Kind) -> Rating:
        """``player``'s rating in ``kind`` (a newcomer's if it has none yet)."""
        rating = self._ratings.get((player, kind))
        if rating is None:
            fresh = _MODEL.rating()
            rating = Rating(player, kind, fresh.mu, fresh.sigma)
        return rating

    def loaded(self, rating: Rating, history: list[Change]) -> None:
        self._ratings[(rating.player, rating.kind)] = rating
        games = self._history.setdefault(rating.player, [])
        games.extend(history)
        games.sort(key=lambda change: change.finished)

    def forget(self, player: str) -> None:
        """``player``'s ratings and history are gone (a cluster's account renamed: they moved)."""
        for rated in [rated for rated in self._ratings if rated[0] == player]:
            del self._ratings[rated]
        self._history.pop(player, None)

    def ratings_of(self, player: str) -> list[Rating]:
        return [r for (p, _), r in self._ratings.items() if p == player]

    def history(self, player: str) -> list[Change]:
        """``player``'s rated games, newest first."""
        return list(reversed(self._history.get(player, [])))

    def leaderboard(self, kind: Kind) -> list[Rating]:
        """The established ratings of ``kind``, best first."""
        board = [r for (_, k), r in self._ratings.items() if k == kind and not r.provisional]
        return sorted(board, key=lambda r: (-r.mu, r.player))

    def rate(
        self,
        kind: Kind,
        players: list[str],
        scores: list[int],
        winner: int | None,
        *,
        last: frozenset[int] = frozenset(),
        record_id: str | None = None,
        now: float = 0.0,
    ) -> list[Change]:
        """Rate one finished game: ``players`` by seat, ``scores`` and ``winner`` per side (a seat, or a
        partnership; no scores: everyone shares the first place); the seats in ``last`` left the game while
        it ran and are ranked last. The changes, by seat."""
        teams = teams_of(kind, len(players))
        places = ranks(scores, winner) if scores else [0] * len(teams)
        if last:
            worst = max(places) + 1
            places = [
                worst if any(seat in last for seat in team) else place
                for team, place in zip(teams, places, strict=True)
            ]
        before = [[self.get(players[seat], kind) for seat in team] for team in teams]
        model_teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
        after = _MODEL.rate(model_teams, ranks=[float(place) for place in places])
        # One player in several seats (two bots of one level) is rated once, as its best-placed seat.
        sides = sorted(zip(teams, before, after, places, strict=True), key=lambda side: side[3])
        applied: dict[str, Rating] = {}
        changes: list[Change] = []
        for team, old_team, new_team, place in sides:
            for seat, old, new in zip(team, old_team, new_team, strict=True):
                won = place == 0
                rating = applied.get(old.player)
                once = rating is None
                if rating is None:
                    rating = Rating(old.player, kind, new.mu, new.sigma, old.games + 1, old.wins + won)
                    applied[old.player] = self._ratings[(old.player, kind)] = rating
                change = Change(
                    seat, old.player, kind, old.shown, rating.shown, rating.provisional, won, record_id, now
                )
                if once:
                    self._history.setdefault(old.player, []).append(change)
                    self.log.rated(rating, change)
                changes.append(change)
        return sorted(changes, key=lambda c: c.seat)
