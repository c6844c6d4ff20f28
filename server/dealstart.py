"""A game's start before its first deal: the commitment to the deal, and the wait for the seated
humans' seeds (PROTOCOL.md, "Fair deals").

A :class:`DealStart` belongs to its :class:`~boneyard.server.match.Match` (seen through
:class:`Dealing`) and holds nothing of its own but the game's :class:`~boneyard.server.fairdeal.GameSeeds`:
it tells the table the commitment, takes the players' seeds, and has the match deal once every human
seat has given one or the wait is over.
"""

from __future__ import annotations

import math
from typing import Protocol

from boneyard.server.fairdeal import GameSeeds
from boneyard.server.host import Room, Services
from boneyard.server.pause import Timer
from boneyard.server.seats import Seat
from boneyard.server.session import Session


class Dealing(Protocol):
    """The game as its start sees it (``boneyard.server.match.Match``)."""

    @property
    def number(self) -> int: ...
    @property
    def seats(self) -> list[Seat]: ...

    @property
    def turns(self) -> Timer:
        """The game's one timer."""
        ...

    def first_deal(self) -> None:
        """Deal, tell everyone, first turn (nothing if dealt already)."""
        ...


class DealStart:
    """The commitment and the players' seeds of one game, until its first deal."""

    __slots__ = ("_closes_at", "game", "room", "seeds", "server")

    def __init__(self, server: Services, room: Room, game: Dealing, seeds: GameSeeds) -> None:
        self.server = server
        self.room = room
        self.game = game
        self.seeds = seeds
        self._closes_at: float | None = None
        """Clock time the wait for the seeds ends (``None``: not waiting)."""

    def seed_seats(self) -> list[int]:
        """The seats that may contribute a seed: those a human holds."""
        return [seat.index for seat in self.game.seats if seat.session is not None]

    def _wait_ms(self) -> int:
        return self.server.settings.deal_seed_wait_ms if self.seed_seats() else 0

    def commit(self) -> None:
        """Tell the table what the deal is committed to (the seed is stored before this goes out)."""
        self.room.roster.broadcast(self._commitment(self._wait_ms()))

    def await_seeds(self) -> None:
        """Deal once the players' seeds are in, or their wait is over (at once if nobody is waited for)."""
        wait = self._wait_ms()
        if wait and not self.server.stopping:
            self._closes_at = self.server.clock.time() + wait / 1000
            self.game.turns.later(wait / 1000, self.game.first_deal)
        else:
            self.game.first_deal()

    def contribute(self, seat: int, seed: str) -> None:
        """A seated human's ``contribute_seed``: stored, announced to the table, and once every human
        seat has one, the deal follows at once."""
        seeds = self.seeds
        seeds.contribute(seat, seed)
        self.room.stored()  # stored before anyone hears of it
        self.room.roster.broadcast(seeds.contributed_body(self.room.table_id, seat))
        if all(seeds.players[s] is not None for s in self.seed_seats()):
            self.game.first_deal()

    def deal_messages(self, session: Session) -> None:
        """For someone arriving while the game runs, or coming back to it with a fresh ``snapshot``: its
        commitment and the seeds contributed so far (without them, a client cannot check the reveal).
        Its ``wait_ms`` is what is left of the wait, so that a player back during it still gives a seed
        (0 for one whose seat has given one already: nothing is waited for from it)."""
        seeds = self.seeds
        if not seeds.fair:
            return
        seats = self.game.seats
        given = any(seat.session is session and seeds.players[seat.index] is not None for seat in seats)
        session.deliver(self._commitment(0 if given else self._wait_left_ms()))
        for seat, seed in enumerate(seeds.players):
            if seed is not None:
                session.deliver(seeds.contributed_body(self.room.table_id, seat))

    def _wait_left_ms(self) -> int:
        if self.seeds.dealt or self._closes_at is None:
            return 0
        return max(0, math.ceil((self._closes_at - self.server.clock.time()) * 1000))

    def _commitment(self, wait_ms: int) -> bytes:
        return self.seeds.commitment_body(self.room.table_id, self.game.number, self.seed_seats(), wait_ms)
