"""The client's games: one :class:`ClientGame` value per game, registered by name.

Everything the client does differently per game is a field here, filled in by the game's own module
(``clients/cli/games/<game>.py``): how its view follows the events, how the line client and the
full-screen table draw it, its score sheet, its replay, its rules heading, its options model. The
rest of the client asks :func:`client_game` and never names a game, so a game registered at run
time (a test's) plays in the line client with no change elsewhere.

This module sits in ``core`` and imports no drawing: the games' modules import the drawing code and
register themselves; :func:`client_game` loads the built-in ones on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from boneyard.clients.cli.core.rules import Tile
from boneyard.clients.cli.core.table_mirror import View
from boneyard.protocol.values import GameOptions

if TYPE_CHECKING:
    import random

    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from rich.text import Text

    from boneyard.clients.cli.core.table_mirror import TableMirror
    from boneyard.protocol import TableInfo

ViewT = TypeVar("ViewT", bound=View)
"""A game's view model: every one is a :class:`~.table_mirror.View` (what the shared code reads)."""

Update = dict[str, object]
"""Fields of a view to replace (``model_copy(update=...)``)."""


@dataclass(frozen=True)
class ClientGame(Generic[ViewT]):
    """One game as the terminal client knows it. ``ViewT`` is its snapshot view model."""

    name: str
    """The wire name (``create_table``'s ``game``)."""
    title: str
    """Its short name in headings: ``Texas 42``."""
    rules_heading: str
    """Its section heading in the rule book (``rules`` at a table)."""
    options: type[GameOptions]
    """The protocol's options model: the one check of a table's options, its fields the form's."""
    view: type[ViewT]
    first_role: str
    """What the first seat of a hand does first, in words (``bids first``, ``leads``)."""
    teams: Callable[[ViewT], bool]
    """Whether the table plays in partnerships (seats 0+2 against 1+3): scores are per team then."""
    blank_view: Callable[[TableInfo, int | None], ViewT]
    """A view to start from when a hand starts with no snapshot before it."""
    fold: Callable[[ViewT, object], Update]
    """How one event changes the view (the legal actions are cleared by the mirror)."""
    sort_hand: Callable[[ViewT], ViewT]
    """The view with its hand in the order the client shows it (one order for the whole hand)."""
    line_board: Callable[[TableMirror, ViewT, float | None], StyleAndTextTuples]
    """The table in the line client (``board``)."""
    tui_board: Callable[[TableMirror, ViewT, int, int], Text]
    """The middle of the full-screen table, in ``width`` x ``height``."""
    seat_columns: Callable[[TableMirror, ViewT, int, bool], Text]
    """A seat's game columns on the players' lines (bid, tricks, score...), ``wide`` or narrow."""
    event_line: Callable[[TableMirror, object], StyleAndTextTuples | None]
    """Words for this game's own events (the common ones are said by ``ui/describe``)."""
    hand_words: Callable[[TableMirror, object], tuple[str, bool | None]]
    """A scored hand on the sheet: its words, and whether the bid was made (``None``: no bid)."""
    hand_detail: Callable[[TableMirror, object], str]
    """A scored hand's second line in its window (tricks taken, pips left...)."""
    hand_points: Callable[[object], Sequence[int]]
    """A scored hand's points per side, as the sheet shows them."""
    choose: Callable[[ViewT, random.Random], object]
    """The ``--auto`` player: one of ``view.legal_actions``."""
    replay: Callable[[BaseModel], Sequence[object]]
    """A record of this game as table positions (``tui/replay_states.Position``), to step through."""
    complete_options: Callable[[dict[str, object]], dict[str, object]] = lambda options: options
    """The options ``boneyard play`` asks for, completed as the rule book has it where the model leaves
    a choice to the server (Straight: partnerships with 4 players)."""
    line_replay: Callable[[BaseModel], Iterable[object]] | None = None
    """The record as the line replay's steps (``replay.Step``), where the game words them its own way;
    ``None``: the table positions of :attr:`replay`, each drawn by :attr:`line_board`."""
    bids: tuple[int, ...] = ()
    """The bid ladder (``bid N`` is checked against it; ``()``: the game has no auction)."""
    contracts: Mapping[str, int | str] = field(default_factory=dict)
    """Words ``trump WORD`` takes besides a trump, with their wire values (Texas 42: ``nello``)."""
    bid_words: Callable[[int], str] = str
    """A bid as the game's players say it, where it is offered (Texas 42: ``84 (2 marks)``)."""
    sheet_unit: str = "points"
    """What the sheet's per-hand row counts (Texas 42: ``marks``)."""
    trump: Callable[[ViewT], int | str | None] = lambda view: None
    """The trump to mark in the hand (``None``: the game has none)."""
    trick: Callable[[ViewT], Sequence[tuple[int, Tile]]] = lambda view: ()
    """A trick game's trick so far as ``(seat, tile)`` in play order (kept on show once it is won)."""

    def view_of(self, shown: BaseModel) -> ViewT | None:
        """A snapshot's view as this game's model (``None``: the view of another game)."""
        return shown if isinstance(shown, self.view) else None


CLIENT_GAMES: dict[str, ClientGame[Any]] = {}
"""Every game this client can show, by wire name (the built-in ones once :func:`client_game` ran)."""

BUILT_IN = "boneyard.clients.cli.games"


def register_client_game(game: ClientGame[Any]) -> ClientGame[Any]:
    """Add (or replace) a game; returns it."""
    CLIENT_GAMES[game.name] = game
    return game


def load_games() -> Mapping[str, ClientGame[Any]]:
    """Every known game, the built-in ones loaded (their modules import drawing code, hence late)."""
    importlib.import_module(BUILT_IN)
    return CLIENT_GAMES


def client_game(name: str) -> ClientGame[Any] | None:
    """The game called ``name``, or ``None`` for one this client cannot show."""
    return load_games().get(name)


def game_title(name: str) -> str:
    """A game's short name for a heading (its wire name for a game this client does not know).

    >>> game_title("texas42"), game_title("dominion")
    ('Texas 42', 'dominion')
    """
    game = client_game(name)
    return game.title if game is not None else name
