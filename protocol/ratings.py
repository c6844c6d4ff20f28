"""Ratings (feature ``ratings``): rated tables, what a rated game does to its players' ratings,
profiles and leaderboards.

A rating is per game kind (``moon``, ``straight-2``, ``straight-3``, ``straight-4``, ``partnerships``,
``texas42``), by openskill's Plackett-Luce model, shown as ``round(mu * 60)`` with a deviation
``round(sigma * 60)`` (a newcomer: 1500 and 500). It is *provisional* while the deviation is above 240;
a client shows it with a ``?``, and leaderboards list established ratings only. Bots are rated too, as
``bot-basic``, ``bot-good`` and ``bot-strong``, from their games at rated tables.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boneyard.protocol.envelope import CommandBase, ReplyBase, ServerMessageBase
from boneyard.protocol.values import Bool, Count, Id, Int, Name, Seat, Seq, Str, WireModel

FEATURE_RATINGS = "ratings"
"""``hello.features`` names it when ``create_table.rated``, ``rating_changes``, ``get_profile`` and
``get_leaderboard`` are in use (section 5, "Rated games")."""

RatingKind = Literal["moon", "straight-2", "straight-3", "straight-4", "partnerships", "texas42"]
"""Every game's kinds, as the games declare them (``GameSpec.kinds``; a test holds the two together)."""
PageSize = Annotated[Int, Field(ge=1, le=50)]


class RatingChange(WireModel):
    """One seat's rating before and after a rated game."""

    seat: Seat
    player: Str
    """The account's name, or ``bot-<level>``."""
    before: Int
    after: Int
    provisional: Bool
    """The new rating is still provisional (show it with a ``?``)."""


class RatingChanges(ServerMessageBase):
    """To everyone at a rated table, right after its ``game_over`` (and ``deal_revealed``)."""

    type: Literal["rating_changes"]
    table_id: Id
    kind: RatingKind
    record_id: Id | None
    """The game's record (as in ``game_over``)."""
    changes: Seq[RatingChange]
    """One per seat (a seat whose player left the game while it ran counts as last, under their name)."""


class KindRating(WireModel):
    """A player's rating in one kind."""

    kind: RatingKind
    rating: Int
    deviation: Count
    provisional: Bool
    games: Count
    wins: Count


class RatedGame(WireModel):
    """One rated game in a player's history."""

    record_id: Id | None
    kind: RatingKind
    finished_ms: Count
    """When it ended, in milliseconds since the Unix epoch."""
    before: Int
    after: Int
    won: Bool


class PagedCommand(CommandBase):
    """Base of the commands answered a page at a time."""

    offset: Count = 0
    """How many entries to skip."""
    limit: PageSize = 20
    """How many entries at most (1-50)."""


class GetProfile(PagedCommand):
    """A player's ratings and rated games (newest first, a page at a time). Reply: ``profile``;
    ``no_such_player`` for a name that is neither an account nor a bot level."""

    type: Literal["get_profile"]
    player: Name
    """An account's name (under the name rules), or ``bot-basic``, ``bot-good``, ``bot-strong``."""


class Profile(ReplyBase):
    """The answer to ``get_profile``."""

    type: Literal["profile"]
    player: Str
    """As registered."""
    ratings: Seq[KindRating]
    """Each kind the player has played rated games of."""
    games: Seq[RatedGame]
    """The page of rated games asked for, newest first."""
    total: Count
    """Rated games in all."""


class LeaderboardEntry(WireModel):
    rank: Count
    """From 1."""
    player: Str
    rating: Int
    deviation: Count
    games: Count


class GetLeaderboard(PagedCommand):
    """The established ratings of a kind, best first, a page at a time. Reply: ``leaderboard``."""

    type: Literal["get_leaderboard"]
    kind: RatingKind


class Leaderboard(ReplyBase):
    """The answer to ``get_leaderboard``."""

    type: Literal["leaderboard"]
    kind: RatingKind
    entries: Seq[LeaderboardEntry]
    total: Count
    """Established players of this kind in all."""
