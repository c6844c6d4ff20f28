"""One table as the client knows it (:class:`TableMirror`), kept by :class:`~.mirror.Mirror` from the
server's messages: the game's view, our seat, the clock, the last trick, the score sheet, the chat."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, Self

from boneyard.clients.cli.core.fairness import DealWitness
from boneyard.clients.cli.core.rules import Tile
from boneyard.protocol import Action, ChatLine, ChatMessage, GameEvent, PauseInfo, TableInfo
from boneyard.protocol.game import GameOver


class View(Protocol):
    """A game's view as a snapshot carries it, as the client's shared code reads it: any registered
    game's view model is one (``MoonView``, ``StraightView``, ``TexasView``, a test's ``DuelView``).
    What only some games' views hold is read by the game's own module (its ``ClientGame``)."""

    @property
    def game(self) -> str: ...
    @property
    def viewer(self) -> int | None:
        """Our seat; ``None`` when watching."""
        ...

    @property
    def hand_number(self) -> int: ...
    @property
    def hand(self) -> tuple[Tile, ...]:
        """Our tiles, in the order shown (empty when watching)."""
        ...

    @property
    def tile_counts(self) -> tuple[int, ...]:
        """Tiles in each seat's hand: one entry a seat."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, or per partnership where the game plays in teams."""
        ...

    @property
    def target(self) -> int: ...
    @property
    def to_move(self) -> int | None:
        """``None`` once the game is over."""
        ...

    @property
    def legal_actions(self) -> tuple[Action, ...]: ...

    def model_copy(self, *, update: Mapping[str, object] | None = None, deep: bool = False) -> Self:
        """The view with ``update``'s fields replaced (pydantic's)."""
        ...


Clock = Callable[[], float]


@dataclass
class TableMirror:
    """One table as this client knows it."""

    table_id: str
    table: TableInfo | None = None
    view: View | None = None
    """The game; ``None`` until the first snapshot of a started game."""
    seat: int | None = None
    """Our seat here, or ``None`` when only watching."""
    deadline: float | None = None
    """When the seat to move runs out of time, on the mirror's clock; ``None``: no timer."""
    last_trick: tuple[tuple[int, Tile], ...] = ()
    """Trick games: the last completed trick as ``(seat, tile)``, kept for display after ``trick_won``."""
    last_trick_winner: int | None = None
    hand_result: GameEvent | None = None
    """The last ``hand_scored`` event (cleared when the next hand starts)."""
    hands: list[GameEvent] = field(default_factory=list)
    """Every ``hand_scored`` seen at this table this game, in order: the score sheet."""
    game_over: GameOver | None = None
    chat: list[ChatMessage | ChatLine] = field(default_factory=list)
    """What was said here: the snapshot's history (the last 50 lines), then each ``chat`` message."""
    deals: DealWitness | None = None
    """The current (or last) game's fair-deal check: ``deals.verdict`` once the seeds are revealed."""
    pause: PauseInfo | None = None
    """The table's pause between hands (``hand_pause``, ``snapshot.pause``), until the next hand starts."""
    pause_until: float | None = None
    """When that pause ends at the latest, on the mirror's clock."""

    def pause_left(self, clock: Clock = time.monotonic) -> float | None:
        """Seconds until the next hand at the latest, while the table pauses; ``None`` otherwise."""
        return None if self.pause_until is None else max(0.0, self.pause_until - clock())

    @property
    def ready_awaited(self) -> bool:
        """The table pauses between hands and waits for our ``ready``."""
        return self.pause is not None and self.seat is not None and self.seat in self.pause.waiting

    @property
    def my_turn(self) -> bool:
        return self.view is not None and self.seat is not None and self.view.to_move == self.seat

    def seconds_left(self, clock: Clock = time.monotonic) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - clock())

    def seat_name(self, seat: int) -> str:
        if self.table is not None and seat < len(self.table.seats):
            name = self.table.seats[seat].name
            if name:
                return name
        return f"seat {seat}"
