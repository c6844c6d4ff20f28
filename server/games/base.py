"""What every rules engine shares: the error type, event visibility, the dealer, the engine shape.

An engine is a sans-I/O state machine in the style of python-chess and the
websockets protocol core: it holds the state of one whole game (all its hands),
lists the legal actions of a seat, and ``apply(seat, action)`` either changes the
state and returns the events that caused, or raises :class:`IllegalAction` and
changes nothing. No sockets, no clocks, no global randomness: chance comes only
from the :class:`Dealer` handed to the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from boneyard.server.games.tiles import Tile


class IllegalAction(Exception):
    """An action the rules do not allow now: illegal, out of turn, or after the game is over.

    ``code`` is stable and machine-readable (``not_your_turn``, ``game_over``,
    ``illegal_action``); ``str(error)`` says in words what was wrong.
    """

    def __init__(self, message: str, code: str = "illegal_action") -> None:
        super().__init__(message)
        self.code = code


def either(choices: Sequence[str]) -> str:
    """The choices an error message offers, as people list them.

    >>> either(["6", "7", "21", "pass"]), either(["left", "right"]), either(["up"])
    ('6, 7, 21 or pass', 'left or right', 'up')
    """
    *most, last = choices
    return f"{', '.join(most)} or {last}" if most else last


Viewer = int | None
"""A seat number, or ``None`` for a spectator."""


A = TypeVar("A")


def forced(legal: Sequence[A]) -> A | None:
    """A bot's shortcut: the only legal action, if there is one choice (``None``: the bot chooses);
    ValueError if there is none (the view is not of the seat to move).

    >>> forced(["pass"]), forced(["pass", "bid"])
    ('pass', None)
    """
    if not legal:
        raise ValueError("the viewer has no legal action")
    return legal[0] if len(legal) == 1 else None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table. Public unless a subclass says otherwise.

    ``seen_by(viewer)`` is the single place hidden information is decided: it
    returns the event as that viewer may know it, or ``None`` when the viewer
    must not learn of it at all. A private event overrides it.
    """

    type: ClassVar[str]
    """The event's name on the wire, snake_case (e.g. ``tile_played``)."""
    recurs: ClassVar[bool] = True
    """Equal events come again and again (a Moon ``tile_played`` is one of 84), so the server keeps their
    encodings by value; ``False`` for an event naming a moment's whole state (a deal, a trick's three
    tiles, the scores), which almost never comes again: kept, it would only crowd out those that do."""

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self


class Dealer(Protocol):
    """The engine's only source of chance."""

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        """The tiles in the order they are dealt for the next hand (called once per hand)."""
        ...

    def pick(self, n: int) -> int:
        """A player chosen at random, in ``range(n)``, when the rules call for one."""
        ...


class RandomDealer:
    """A :class:`Dealer` drawing from a seeded, private ``random.Random``.

    >>> tiles = [(1, 0), (2, 0), (3, 0)]
    >>> RandomDealer(7).shuffled(tiles) == RandomDealer(7).shuffled(tiles)
    True
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        out = list(tiles)
        self._rng.shuffle(out)
        return out

    def pick(self, n: int) -> int:
        return self._rng.randrange(n)


class Engine(Protocol):
    """The shape both engines have (``MoonGame``, ``StraightGame``)."""

    game: ClassVar[str]  # "moon" | "straight"

    @property
    def players(self) -> int: ...
    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` once the game is over (or between hands)."""
        ...

    @property
    def is_over(self) -> bool: ...
    @property
    def hand_number(self) -> int:
        """The hand being played (or, between hands, the one that ended), from 0."""
        ...

    @property
    def winner(self) -> int | None:
        """The winning seat (team with partnerships: 0 = seats 0+2, 1 = seats 1+3)."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative scores, per seat (per team with partnerships)."""
        ...

    @property
    def between_hands(self) -> bool:
        """A hand is over and the next is held back (an engine made with ``hold_deals``: the server's
        pause between hands); ``to_move`` is ``None`` meanwhile."""
        ...

    def deal_next(self) -> list[Event]:
        """Deal the hand held back: its ``hand_started`` and ``hand_dealt`` events (ValueError if none is)."""
        ...

    def opening_events(self) -> list[Event]:
        """The events of the first deal (``hand_started`` and ``hand_dealt``), made on construction."""
        ...

    def legal_actions(self, seat: int) -> list[Any]:
        """The actions ``seat`` may take now; empty when it is not that seat's turn."""
        ...

    def check_turn(self, seat: int) -> None:
        """Raise :class:`IllegalAction` (``game_over``, ``not_your_turn``) unless ``seat`` may act now: the
        first thing ``apply`` checks, and what the server says to an action that is no action of the game."""
        ...

    def apply(self, seat: int, action: Any, *, auto: bool = False) -> list[Event]:
        """Take ``action`` for ``seat`` (``auto``: the server acted for the player)."""
        ...

    def view(self, viewer: Viewer) -> Any:
        """The state exactly as ``viewer`` may know it, with that seat's legal actions."""
        ...

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game so far as a ``boneyard-record/1`` object (secret until the game ends)."""
        ...
