"""The games the server knows, each described once: engine, options, record actions, bot.

>>> sorted(GAMES)
['moon', 'straight']
>>> game_spec("moon").players_of(game_spec("moon").options_from_dict({}))
3
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from boneyard.server.games import moon, straight
from boneyard.server.games.base import Dealer, Engine
from boneyard.server.games.moon.actions import ALL_ACTIONS as MOON_ACTIONS
from boneyard.server.games.straight.actions import ALL_ACTIONS as STRAIGHT_ACTIONS


@dataclass(frozen=True, slots=True)
class GameSpec:
    name: str
    options_type: type[Any]
    engine_type: Callable[[Any, Dealer], Engine]
    action_from_record: Callable[[Mapping[str, Any]], Any]
    bot: Callable[[Any, random.Random], Any]
    """The basic bot: ``bot(view, rng) -> action``, seeing only what its seat may see."""
    actions: tuple[Any, ...] = ()
    """Every well-formed action of the game (each with ``as_dict()``, its wire form): what the wire
    translation (``boneyard.server.wire``) maps client actions to."""

    def options_from_dict(self, values: Mapping[str, Any]) -> Any:
        """Options from a record's or a client's dict; unknown names are an error."""
        known = {f.name for f in dataclasses.fields(self.options_type)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown {self.name} option(s): {', '.join(sorted(unknown))}")
        return self.options_type(**values)

    def players_of(self, options: Any) -> int:
        return int(getattr(options, "players", 3))

    def new_game(self, options: Any, dealer: Dealer) -> Engine:
        return self.engine_type(options, dealer)


GAMES: dict[str, GameSpec] = {
    "moon": GameSpec(
        "moon", moon.MoonOptions, moon.MoonGame, moon.action_from_record, moon.choose, MOON_ACTIONS
    ),
    "straight": GameSpec(
        "straight",
        straight.StraightOptions,
        straight.StraightGame,
        straight.action_from_record,
        straight.choose,
        STRAIGHT_ACTIONS,
    ),
}


def game_spec(name: str) -> GameSpec:
    """The spec of a game by name; ValueError naming the known games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(sorted(GAMES))}") from None
