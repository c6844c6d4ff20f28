"""The replies of ``get_profile`` and ``get_leaderboard`` (feature ``ratings``), from the ratings and the
accounts' names."""

from __future__ import annotations

from boneyard.protocol.ratings import (
    GetLeaderboard,
    GetProfile,
    KindRating,
    Leaderboard,
    LeaderboardEntry,
    Profile,
    RatedGame,
)
from boneyard.server.accounts.book import AccountBook
from boneyard.server.errors import CommandError
from boneyard.server.ratings.book import Rating, RatingBook, bot_player
from boneyard.server.wire import body_of

BOT_PLAYERS = frozenset(bot_player(level) for level in ("basic", "good", "strong"))


def _name(accounts: AccountBook, player: str) -> str:
    account = accounts.get(player)
    return player if account is None else account.name


def _kind_rating(rating: Rating) -> KindRating:
    return KindRating(
        kind=rating.kind,
        rating=rating.shown,
        deviation=rating.deviation,
        provisional=rating.provisional,
        games=rating.games,
        wins=rating.wins,
    )


def profile_body(ratings: RatingBook, accounts: AccountBook, command: GetProfile) -> bytes:
    """``profile``: the player's ratings and a page of their rated games; ``no_such_player`` if none."""
    if command.player.casefold() in BOT_PLAYERS:
        player, name = command.player.casefold(), command.player.casefold()
    else:
        account = accounts.find(command.player)
        if account is None:
            raise CommandError("no_such_player", f"no account named {command.player!r}")
        player, name = account.key, account.name
    history = ratings.history(player)
    page = history[command.offset : command.offset + command.limit]
    return body_of(
        Profile(
            type="profile",
            seq=1,
            reply_to=command.id,
            player=name,
            ratings=tuple(_kind_rating(r) for r in sorted(ratings.ratings_of(player), key=lambda r: r.kind)),
            games=tuple(
                RatedGame(
                    record_id=c.record_id,
                    kind=c.kind,
                    finished_ms=round(c.finished * 1000),
                    before=c.before,
                    after=c.after,
                    won=c.won,
                )
                for c in page
            ),
            total=len(history),
        )
    )


def leaderboard_body(ratings: RatingBook, accounts: AccountBook, command: GetLeaderboard) -> bytes:
    """``leaderboard``: a page of the kind's established ratings, best first."""
    board = ratings.leaderboard(command.kind)
    page = board[command.offset : command.offset + command.limit]
    return body_of(
        Leaderboard(
            type="leaderboard",
            seq=1,
            reply_to=command.id,
            kind=command.kind,
            entries=tuple(
                LeaderboardEntry(
                    rank=command.offset + i + 1,
                    player=_name(accounts, r.player),
                    rating=r.shown,
                    deviation=r.deviation,
                    games=r.games,
                )
                for i, r in enumerate(page)
            ),
            total=len(board),
        )
    )
