"""The games the server knows, each described once: engine, options, record actions, bots by level.

>>> sorted(GAMES)
['moon', 'straight', 'texas42']
>>> game_spec("moon").players_of(game_spec("moon").options_from_dict({}))
3
>>> LEVELS, game_spec("straight").bot_at("strong") == straight_search.STRONG.choose
(('basic', 'good', 'strong'), True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from boneyard.protocol.values import BotLevel
from boneyard.protocol.values import GameOptions as GameOptions
from boneyard.server.games import moon, straight, texas42
from boneyard.server.games.base import Dealer, Engine
from boneyard.server.games.figures import NO_FIGURES, ArenaFigures
from boneyard.server.games.kinds import RatedKind
from boneyard.server.games.moon import search as moon_search
from boneyard.server.games.moon.actions import ALL_ACTIONS as MOON_ACTIONS
from boneyard.server.games.straight import search as straight_search
from boneyard.server.games.straight.actions import ALL_ACTIONS as STRAIGHT_ACTIONS
from boneyard.server.games.texas42 import search as texas42_search

LEVELS: tuple[BotLevel, ...] = get_args(BotLevel)
"""Bot levels, weakest first: ``basic`` is a heuristic, ``good`` and ``strong`` search
(``good`` at about a tenth of ``strong``'s time per move)."""


BotFn = Callable[[Any, random.Random], Any]
"""``bot(view, rng) -> action``: it sees only what its seat may see; ``rng`` is its only chance."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    name: str
    options_type: type[GameOptions]
    """The game's options model (``boneyard.protocol.options``): the one definition of its options, which
    the engine plays by, the tables list and the records carry (``as_dict``)."""
    engine_type: Callable[..., Engine]
    """``engine_type(options, dealer, *, hold_deals=False)``."""
    action_from_record: Callable[[Mapping[str, Any]], Any]
    bot: BotFn
    """The basic bot: ``bot(view, rng) -> action``, seeing only what its seat may see."""
    actions: tuple[Any, ...] = ()
    """Every well-formed action of the game (each with ``as_dict()``, its wire form): what the wire
    translation (``boneyard.server.wire``) maps client actions to."""
    searchers: Mapping[str, BotFn] = dataclasses.field(default_factory=dict)
    """The searching bots by level (``good``, ``strong``); a level a game has no searcher for is played
    by its basic bot (the server plays for an away player at ``good``)."""
    kinds: tuple[RatedKind, ...] = ()
    """The kinds of this game rated and sought apart (``boneyard.server.games.kinds``); none: its
    tables are not rated and nobody seeks it."""
    arena: ArenaFigures = NO_FIGURES
    """What the arena counts of its events (``boneyard.server.games.figures``)."""

    def bot_at(self, level: str) -> BotFn:
        """The bot of ``level``; ValueError naming the levels otherwise."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
        return self.searchers.get(level, self.bot)

    def options_from_dict(self, values: Mapping[str, object]) -> GameOptions:
        """Options from a record's, a stored table's or an operator's dict, checked by the game's model;
        ValueError in words otherwise (an unknown name included)."""
        return self.options_type.checked(values, self.name)

    def players_of(self, options: GameOptions) -> int:
        return options.players

    @property
    def fixed_players(self) -> int | None:
        """The number of seats of a game that has no ``players`` option (Moon 3, Texas 42 4), else None."""
        return self.options_type.fixed_players()

    def new_game(self, options: GameOptions, dealer: Dealer, *, hold_deals: bool = False) -> Engine:
        """A new game (``hold_deals``: it rests after each hand until ``deal_next``; the deals, the
        events and the record are the same, only later)."""
        return self.engine_type(options, dealer, hold_deals=hold_deals)


GAMES: dict[str, GameSpec] = {
    "moon": GameSpec(
        "moon",
        moon.MoonOptions,
        moon.MoonGame,
        moon.action_from_record,
        moon.choose,
        MOON_ACTIONS,
        {"good": moon_search.GOOD.choose, "strong": moon_search.STRONG.choose},
        kinds=moon.MOON_KINDS,
        arena=moon.MOON_FIGURES,
    ),
    "straight": GameSpec(
        "straight",
        straight.StraightOptions,
        straight.StraightGame,
        straight.action_from_record,
        straight.choose,
        STRAIGHT_ACTIONS,
        {"good": straight_search.GOOD.choose, "strong": straight_search.STRONG.choose},
        kinds=straight.STRAIGHT_KINDS,
        arena=straight.STRAIGHT_FIGURES,
    ),
    "texas42": GameSpec(
        "texas42",
        texas42.TexasOptions,
        texas42.Texas42Game,
        texas42.action_from_record,
        texas42.choose,
        texas42.ALL_ACTIONS,
        {"good": texas42_search.GOOD.choose, "strong": texas42_search.STRONG.choose},
        kinds=texas42.TEXAS42_KINDS,
        arena=texas42.TEXAS42_FIGURES,
    ),
}


def register_game(spec: GameSpec) -> None:
    """Add a game (a game of the tests; the built-in ones are listed above)."""
    if GAMES.get(spec.name, spec) != spec:
        raise ValueError(f"another game is registered as {spec.name!r}")
    GAMES[spec.name] = spec


def forget_game(name: str) -> None:
    """Undo :func:`register_game`."""
    GAMES.pop(name, None)


def game_spec(name: str) -> GameSpec:
    """The spec of a game by name; ValueError naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(sorted(GAMES))}") from None
