"""The client's picture of the server, built only from the messages the server sends.

:class:`Mirror` holds the lobby (every table's public description) and, per table the
client sits at or watches, a :class:`TableMirror`: the game as a :class:`protocol.View`,
exactly the shape a ``snapshot`` carries. A snapshot replaces a table's view (PROTOCOL.md
section 4); each later ``event`` and ``turn`` turns the view into the next one, so the
view after any message is what a fresh snapshot would say at that moment (the test suite
checks this against the engines, event by event).

Two rules keep a mirror honest:

- an event makes the legal actions stale, so they are cleared until the next ``turn``
  (a client must never act on actions the server has not offered for the current state);
- information the receiver was not sent stays unknown (``null`` tiles are never guessed).
"""

from __future__ import annotations

import time
from typing import Any

from boneyard.clients.cli.core.fairness import DealWitness, Verdict
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.rules import Tile
from boneyard.clients.cli.core.table_mirror import Clock, TableMirror, View
from boneyard.protocol import (
    ChatMessage,
    DealCommitment,
    DealRevealed,
    GameEvent,
    HandPause,
    Hello,
    LobbyChanged,
    PauseInfo,
    Seated,
    SeatStatus,
    SeedContributed,
    Snapshot,
    TableCreated,
    TableInfo,
    TableList,
    TableRemoved,
    TableUpdated,
    Turn,
    Welcome,
)
from boneyard.protocol.deals import FIXED_SEED
from boneyard.protocol.game import EventMessageBase, GameOver, HandStarted

__all__ = ["Clock", "Mirror", "MirrorError", "TableMirror", "View"]  # the table's half lives in table_mirror


class MirrorError(Exception):
    """A message does not fit the mirror's picture (e.g. a tile played where it cannot go).

    The server is the authority: a client that gets this should ask for a fresh picture
    (reconnecting and resuming does that), not carry on with a wrong one.
    """


class Mirror:
    """Every table the client knows of, updated by :meth:`apply` for each server message."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.lobby: dict[str, TableInfo] = {}
        self.tables: dict[str, TableMirror] = {}
        self.player_id: str | None = None
        self.name: str | None = None
        self.fixed_seed = False
        """The server said its deals come from a fixed seed (``hello.features``: ``fixed_seed``)."""
        self.unverified: dict[tuple[str, int], Verdict] = {}
        """Every game whose deals this client checked and found NOT verified, by table and game number
        (kept when the table is left or a rematch starts: ``boneyard play`` exits non-zero for them)."""

    def table(self, table_id: str) -> TableMirror:
        """The mirror of a table, created on first use."""
        if table_id not in self.tables:
            self.tables[table_id] = TableMirror(table_id, table=self.lobby.get(table_id))
        return self.tables[table_id]

    def forget(self, table_id: str) -> None:
        """Stop following a table (after ``leave``)."""
        self.tables.pop(table_id, None)

    def apply(self, message: Any) -> None:
        """Update from one server message; messages that change nothing here are ignored."""
        match message:
            case Hello():
                self.fixed_seed = FIXED_SEED in message.features
            case Welcome():
                self.player_id, self.name = message.player_id, message.name
                for ref in message.seats:
                    self.table(ref.table_id).seat = ref.seat
            case TableList():
                self.lobby = {t.table_id: t for t in message.tables}
                for tid, mirror in self.tables.items():
                    if tid in self.lobby:
                        mirror.table = self.lobby[tid]
            case TableCreated() | TableUpdated():
                self._table_info(message.table)
            case Seated():
                self.table(message.table_id).seat = message.seat
            case TableRemoved():
                self.lobby.pop(message.table_id, None)
            case LobbyChanged():
                for table in message.tables:
                    self._table_info(table)
                for table_id in message.removed:
                    self.lobby.pop(table_id, None)
            case Snapshot():
                self._table_info(message.table)
                mirror = self.table(message.table.table_id)
                # A game this client cannot show is a table without a view.
                game = client_game(message.table.game)
                shown = game.view_of(message.view) if game is not None and message.view is not None else None
                mirror.view = _sorted(shown) if shown is not None else None
                if message.chat or not mirror.chat:
                    mirror.chat = list(message.chat)  # the table's own history replaces ours
                self._set_deadline(mirror, message.time_left_ms)
                self._set_pause(mirror, message.pause)
                if mirror.deals is not None:
                    mirror.deals.resync(message.view.hand_number if message.view is not None else None)
            case Turn():
                mirror = self.table(message.table_id)
                if mirror.view is not None:
                    mirror.view = mirror.view.model_copy(
                        update={"to_move": message.seat, "legal_actions": tuple(message.legal_actions)}
                    )
                self._set_deadline(mirror, message.time_left_ms)
            case EventMessageBase():
                mirror = self.table(message.table_id)
                self._event(mirror, message.event)
                if mirror.deals is not None:
                    mirror.deals.apply(message.event, message.game)
            case DealCommitment():
                mirror = self.table(message.table_id)
                known = mirror.deals.commitment if mirror.deals is not None else None
                if mirror.deals is None or known is None or known.commitment != message.commitment:
                    mirror.deals = DealWitness(mirror.seat, message)  # a new game
                else:  # the same game's commitment again (we sat down at a table we watch)
                    mirror.deals.seat = mirror.seat
            case SeedContributed() | DealRevealed():
                mirror = self.table(message.table_id)
                if mirror.deals is None:  # joined after the commitment: the check will say so
                    mirror.deals = DealWitness(mirror.seat, None)
                if mirror.table is not None:
                    mirror.deals.players = len(mirror.table.seats)
                mirror.deals.fixed_seed = self.fixed_seed
                mirror.deals.apply(message)
                verdict = mirror.deals.verdict
                if isinstance(message, DealRevealed) and verdict is not None and not verdict.ok:
                    self.unverified[(message.table_id, message.game_number)] = verdict
            case HandPause():
                self._set_pause(self.table(message.table_id), message.pause)
            case SeatStatus():
                self._seat_status(message)
            case ChatMessage():
                self.table(message.table_id).chat.append(message)

    # --- lobby ---------------------------------------------------------------------------

    def _table_info(self, table: TableInfo) -> None:
        self.lobby[table.table_id] = table
        if table.table_id in self.tables:
            self.tables[table.table_id].table = table

    def _seat_status(self, message: SeatStatus) -> None:
        table = self.lobby.get(message.table_id)
        if table is None or message.seat >= len(table.seats):
            return
        seats = list(table.seats)
        seats[message.seat] = seats[message.seat].model_copy(
            update={"connected": message.connected, "auto": message.auto}
        )
        self._table_info(table.model_copy(update={"seats": tuple(seats)}))

    def _set_deadline(self, mirror: TableMirror, time_left_ms: int | None) -> None:
        mirror.deadline = None if time_left_ms is None else self.clock() + time_left_ms / 1000

    def _set_pause(self, mirror: TableMirror, pause: PauseInfo | None) -> None:
        mirror.pause = pause
        mirror.pause_until = None if pause is None else self.clock() + pause.time_left_ms / 1000

    # --- game events ---------------------------------------------------------------------

    def _event(self, mirror: TableMirror, event: GameEvent) -> None:
        if isinstance(event, GameOver):
            mirror.game_over = event
        if isinstance(event, HandStarted) and event.hand == 0:
            mirror.hands, mirror.game_over = [], None  # a new game (e.g. a rematch)
        if isinstance(event, HandStarted | GameOver):
            self._set_pause(mirror, None)  # the pause (if any) is over
        if isinstance(event, HandStarted):
            mirror.hand_result, mirror.last_trick, mirror.last_trick_winner = None, (), None
        if event.type == "hand_scored":  # every game's hand result has this name (its shape is the game's)
            mirror.hand_result = event
            mirror.hands.append(event)
        if event.type == "trick_won":
            _trick_won(mirror, event)
        view = mirror.view
        if view is None:
            if not isinstance(event, HandStarted) or mirror.table is None:
                return  # nothing to build on: the snapshot that follows a game start will fill in
            game = client_game(mirror.table.game)
            if game is None:
                return
            view = game.blank_view(mirror.table, mirror.seat)
        game = client_game(view.game)
        if game is None:
            return
        # Whatever happened, the actions offered before it are stale until the next ``turn``.
        update: dict[str, object] = {"legal_actions": ()}
        update.update(game.fold(view, event))
        mirror.view = _sorted(view.model_copy(update=update))


def _trick_won(mirror: TableMirror, event: GameEvent) -> None:
    """Keep the trick just won on show: its plays as the view built them (its game's ``trick``: a seat
    may sit out, as in a nello hand), or, with no view to hold them, its tiles from the leader round the
    table."""
    tiles: tuple[Tile, ...] = getattr(event, "tiles", ())
    leader, winner = getattr(event, "leader", 0), getattr(event, "seat", None)
    view = mirror.view
    game = client_game(view.game) if view is not None else None
    built = tuple(game.trick(view)) if game is not None and view is not None else ()
    if len(built) != len(tiles):
        players = len(mirror.table.seats) if mirror.table is not None else len(tiles)
        built = tuple(((leader + i) % players, tile) for i, tile in enumerate(tiles))
    mirror.last_trick, mirror.last_trick_winner = built, winner


def _sorted(view: View) -> View:
    game = client_game(view.game)
    return game.sort_hand(view) if game is not None else view
