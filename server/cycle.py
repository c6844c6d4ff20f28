"""A table's games, one after another: waiting, playing, finished, and back to waiting by a rematch.

A :class:`GameCycle` belongs to its :class:`~boneyard.server.table.Table` and sees it through
:class:`Hall` (the table as its games see it): it starts a game once every seat is held, makes
each game's :class:`~boneyard.server.match.Match` (a rematch is a new match), and starts again once
every seated human has asked for a rematch. A restore deals the stored game again through
:meth:`GameCycle.restore`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from boneyard.server.errors import CommandError
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.fanout import Regenerated
from boneyard.server.games.registry import GameOptions, GameSpec
from boneyard.server.host import EngineAction, Room, Services
from boneyard.server.match import Match
from boneyard.server.pause import HandBreak
from boneyard.server.seats import Seat
from boneyard.server.session import Session
from boneyard.server.storage.stored import StoredTable


class Hall(Room, Protocol):
    """The table as its games see it (``boneyard.server.table.Table``)."""

    def removed_if_empty(self) -> bool:
        """Remove the table if no human sits or watches (a bots-only game plays out first)."""
        ...


class GameCycle:
    """The table's status (``waiting``, ``playing``, ``finished``), its games, the rematch requests."""

    __slots__ = ("games", "hall", "match", "options", "rematch", "server", "spec", "status")

    def __init__(self, server: Services, hall: Hall, spec: GameSpec, options: GameOptions) -> None:
        self.server = server
        self.hall = hall
        self.spec = spec
        self.options = options
        self.status = "waiting"
        self.games = 0
        """Games started at this table (rematches included)."""
        self.match: Match | None = None
        """The current (or, once finished, the last) game; ``None`` while waiting."""
        self.rematch: set[int] = set()
        """The seats whose players asked for a rematch."""

    @property
    def seats(self) -> list[Seat]:
        return self.hall.roster.seats

    def maybe_start(self) -> bool:
        if self.status != "waiting" or not all(seat.held for seat in self.seats):
            return False
        self.start_game()
        return True

    def _new_match(self, games: int, seeds: GameSeeds) -> Match:
        self.games = games
        self.match = Match(self.server, self.hall, self.spec, self.options, games, seeds)
        return self.match

    def start_game(self) -> None:
        """Every seat is held: commit to the deal (``deal_commitment``), wait briefly for the seated
        humans' seeds, then deal (:meth:`Match.first_deal`)."""
        games = self.games + 1
        fixed = self.server.settings.seed
        # The table's number, not its run tag (random per run): a fixed seed replays across runs.
        derived = None if fixed is None else f"{fixed}/{self.hall.table_id.partition('-')[0]}/{games}"
        match = self._new_match(games, GameSeeds.fresh(len(self.seats), derived))
        self.status = "playing"
        for seat in self.seats:
            seat.timeouts = 0
        self.hall.changed()  # the seed is stored before its commitment goes out
        match.start.commit()
        match.start.await_seeds()

    def contribute(self, seat: int, seed: str) -> None:
        """``contribute_seed``: a seated human's seed for the deal of the game starting."""
        if self.status != "playing" or self.match is None:
            raise CommandError("seed_closed", "no game is starting at this table")
        self.match.start.contribute(seat, seed)

    def deal_messages(self, session: Session) -> None:
        if self.status == "playing" and self.match is not None:
            self.match.start.deal_messages(session)

    def game_over(self) -> None:
        self.status = "finished"
        self.hall.changed()
        self.hall.removed_if_empty()

    def request_rematch(self, seat: int) -> None:
        if self.status != "finished":
            raise CommandError("game_in_progress", "a rematch can be asked for once the game is over")
        self.rematch.add(seat)
        if not self.check_rematch():
            self.hall.changed()

    def check_rematch(self) -> bool:
        """Every seated human asked: back to waiting, and start at once if every seat is held."""
        humans = {seat.index for seat in self.hall.roster.humans()}
        if self.status != "finished" or not humans or not humans <= self.rematch:
            return False
        self.status = "waiting"
        self.match = None
        self.rematch.clear()
        if not self.maybe_start():
            self.hall.changed()
        return True

    def restore(
        self,
        stored: StoredTable,
        actions: Iterable[tuple[int, EngineAction, bool]],
        regenerate_from: int | None = None,
    ) -> list[Regenerated | None]:
        """A restore: the stored status, and the stored game dealt again and replayed (nothing is sent);
        the seated players' messages of the actions from ``regenerate_from`` on (:meth:`Match.replay`)."""
        self.status = stored.status
        self.rematch = set(stored.rematch)
        self.games = stored.games
        if stored.seed is not None and stored.status != "waiting":
            players, seeds = len(self.seats), stored.player_seeds
            stored_seeds = GameSeeds.stored(players, stored.seed, stored.deal_algorithm, seeds, stored.dealt)
            match = self._new_match(stored.games, stored_seeds)
            return match.replay(actions, stored.hand_ready, regenerate_from)
        return []

    def resume_turn(self, seconds_left: float | None) -> None:
        """After a restore: the turn of the seat to move goes on (to its stored deadline)."""
        if self.match is not None and self.status == "playing":
            self.match.resume_turn(seconds_left)

    @property
    def between_hands(self) -> bool:
        """The game pauses between hands (no hand is being played)."""
        return self.status == "playing" and self.match is not None and self.match.pause is not None

    @property
    def breaks(self) -> HandBreak | None:
        """The pauses between hands of the game in play (``ready`` goes there); ``None``: no game in play."""
        return self.match.breaks if self.match is not None and self.status == "playing" else None

    def pause_changed(self) -> None:
        """Someone came, went or is played for: a pause between hands may wait for others now."""
        if (breaks := self.breaks) is not None:
            breaks.changed()

    def restart_turn(self, seat: Seat) -> None:
        """Who plays ``seat`` changed: if it is to move, start its turn afresh."""
        if self.match is not None and self.status == "playing":
            self.match.restart_turn(seat)

    def player_back(self, holder: Seat) -> None:
        """The player of ``holder`` is back: the server stops playing for them."""
        was_auto, holder.auto, holder.timeouts = holder.auto, False, 0
        self.hall.seat_status(holder)
        if was_auto:
            self.restart_turn(holder)  # the server was playing for them: their turn starts afresh
        elif holder.session is not None and self.match is not None and self.status == "playing":
            # Their timer runs on to its deadline (reconnecting buys no time); they are reminded of it.
            self.match.remind_turn(holder.session, holder.index)

    def player_away(self, holder: Seat) -> None:
        """The player of ``holder`` stayed away past the grace period: the server plays for them."""
        if not holder.auto:
            holder.auto = True
            self.hall.seat_status(holder)
            self.restart_turn(holder)

    def stop(self) -> None:
        """Stop the game's timer for good (shutdown, removal): no bot moves, no timeouts."""
        if self.match is not None:
            self.match.turns.cancel()
