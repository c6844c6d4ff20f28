"""The pause between hands at one table: who is ready, until when, and when it ends.

A :class:`HandPause` is a value-like state the :class:`~boneyard.server.match.Match` holds while its
engine rests between hands (``hold_deals``): it answers who the table still waits for and whether
the pause may end now. The match arms its one timer to the pause's end, and deals the next hand
when :meth:`HandPause.done`; nothing here reads a clock or sends a frame.

>>> from boneyard.server.seats import Seat
>>> seats = [Seat(0), Seat(1)]
>>> seats[1].make_bot()
>>> pause = HandPause(hand_number=0, until=10.0)
>>> pause.waiting(seats), pause.done(seats)  # no human seated: the pause runs its whole length
([], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from boneyard.server.seats import Seat
from boneyard.server.wire import body_of_dict


def waits_for(seat: Seat) -> bool:
    """A seat whose ``ready`` a pause waits for: a human the server does not play for, connected or
    dropped within the grace period (a bot is always ready, and so is a seat the server plays for: its
    player away, or timed out)."""
    return not seat.bot_plays


def pause_ms(asked: int | None, default_ms: int, bots_only: bool) -> int:
    """How long a table pauses between hands: what its creator asked for, else the server's default
    where a human sits and none at a table of bots only.

    >>> pause_ms(None, 10_000, False), pause_ms(None, 10_000, True), pause_ms(2500, 10_000, True)
    (10000, 0, 2500)
    """
    if asked is not None:
        return asked
    return 0 if bots_only else default_ms


@dataclass(slots=True)
class HandPause:
    """A pause after hand ``hand_number``, ending at clock time ``until`` at the latest."""

    hand_number: int
    until: float
    ready: set[int] = field(default_factory=set)
    told: tuple[int, ...] = ()
    """The seats ``waiting`` as last announced (a seat's change that changes nothing is not)."""

    def waiting(self, seats: Sequence[Seat]) -> list[int]:
        return [s.index for s in seats if waits_for(s) and s.index not in self.ready]

    def done(self, seats: Sequence[Seat]) -> bool:
        """Every human the pause waits for is ready (at a table where a human sits: a bots-only table's
        pause, asked for its spectators, runs its whole length)."""
        humans = any(s.session is not None for s in seats)
        return humans and not self.waiting(seats)

    def time_left_ms(self, now: float) -> int:
        return max(0, int((self.until - now) * 1000))

    def info(self, seats: Sequence[Seat], now: float) -> dict[str, object]:
        """The pause as ``PauseInfo`` (in ``hand_pause`` and ``snapshot.pause``)."""
        return {
            "hand_number": self.hand_number,
            "time_left_ms": self.time_left_ms(now),
            "ready": sorted(self.ready),
            "waiting": self.waiting(seats),
        }

    def body(self, table_id: str, seats: Sequence[Seat], now: float) -> bytes:
        """The ``hand_pause`` message (noting what it announced)."""
        info = self.info(seats, now)
        self.told = tuple(self.waiting(seats))
        return body_of_dict({"type": "hand_pause", "seq": 1, "table_id": table_id, "pause": info})
