"""A rated table's part (feature ``ratings``): who played each seat, who left while the game ran, and
the ``rating_changes`` a finished game makes.

A seat is rated as the account its player signed in to, or as its bot's level (``bot-good``). A player who
leaves a rated game in progress is rated for it, as its last (a bot finishes the game for the table; it is
not rated for that game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from boneyard.protocol.ratings import RatingChange, RatingChanges
from boneyard.server.errors import CommandError
from boneyard.server.ratings.book import RatingBook, bot_player
from boneyard.server.ratings.kinds import Kind
from boneyard.server.seats import Roster, Seat
from boneyard.server.session import Session
from boneyard.server.wire import body_of


def check_signed_in(session: Session) -> None:
    """Only signed-in players sit at a rated table (a guest's rating would belong to nobody)."""
    if session.account is None:
        raise CommandError("not_signed_in", "a rated table seats signed-in players only: sign in first")


class RatedTable:
    """What a rated table adds to a table: its kind, and the players who left a game in progress."""

    __slots__ = ("_left", "book", "kind")

    def __init__(
        self, book: RatingBook, kind: Kind, left: Mapping[int, tuple[str, str]] | None = None
    ) -> None:
        self.book = book
        self.kind = kind
        self._left: dict[int, tuple[str, str]] = dict(left or {})
        """Seat -> (account, name) of whoever left the game while it ran (stored with the table, so that
        a restart or a takeover still rates the game as their loss: ``left`` is what a restore read)."""

    @property
    def left(self) -> Mapping[int, tuple[str, str]]:
        """Who left the game in progress: seat -> (account, name)."""
        return self._left

    def leaving(self, table_id: str, roster: Roster, session: Session, now: float) -> None:
        """``session`` leaves while the game runs: the game counts as its loss. When it was the last
        player, the game is abandoned (the table goes): rated at once, and the leaver told."""
        seat = roster.seat_of(session)
        if seat is None:
            return
        if session.account is not None:
            self._left.setdefault(seat, (session.account, session.name))
        if all(other.session is session for other in roster.humans()):
            session.deliver(self.over(table_id, roster.seats, None, (), None, now))

    def finished(
        self,
        table_id: str,
        roster: Roster,
        winner: int,
        scores: Sequence[int],
        record_id: str | None,
        now: float,
    ) -> None:
        """The game is over: rated, and everyone at the table told (``rating_changes``)."""
        body = self.over(table_id, roster.seats, winner, scores, record_id, now)
        roster.broadcast(body)

    def over(
        self,
        table_id: str,
        seats: Sequence[Seat],
        winner: int | None,
        scores: Sequence[int],
        record_id: str | None,
        now: float,
    ) -> bytes:
        """Rate the finished game (``winner`` ``None``, no scores: abandoned by its last player, everyone
        who stayed shares the first place); the ``rating_changes`` body for the table."""
        players: list[tuple[str, str]] = []
        for seat in seats:
            session = seat.session
            if seat.index in self._left:
                players.append(self._left[seat.index])
            elif session is not None and session.account is not None:
                players.append((session.account, session.name))
            else:
                players.append((bot_player(seat.level), bot_player(seat.level)))
        changes = self.book.rate(
            self.kind,
            [player for player, _ in players],
            list(scores),
            winner,
            last=frozenset(self._left),
            record_id=record_id,
            now=now,
        )
        self._left.clear()
        return body_of(
            RatingChanges(
                type="rating_changes",
                seq=1,
                table_id=table_id,
                kind=self.kind,
                record_id=record_id,
                changes=tuple(
                    RatingChange(
                        seat=c.seat,
                        player=players[c.seat][1],
                        before=c.before,
                        after=c.after,
                        provisional=c.provisional,
                    )
                    for c in changes
                ),
            )
        )
