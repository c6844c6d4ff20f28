"""A table's options, checked by the one check there is: the game's options model in the protocol.

The client keeps no option list of its own: the fields a game takes, their ranges and their messages
come from the model (:attr:`ClientGame.options`), so a new option needs no change here. What the model
says is one line naming the field, in the words the server uses too (``option_refusal``).

>>> check_options("straight", {"players": 5})
Traceback (most recent call last):
boneyard.clients.cli.ui.options.OptionError: players must be 2, 3 or 4
>>> check_options("moon", {"players": 4})
Traceback (most recent call last):
boneyard.clients.cli.ui.options.OptionError: moon is played by exactly 3 players
>>> check_options("texas42", {"nello": option_value("on")}).nello
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from boneyard.clients.cli.core.games import ClientGame, client_game, load_games
from boneyard.protocol.values import option_refusal

ON = ("on", "true", "yes")
OFF = ("off", "false", "no")


class OptionError(ValueError):
    """An option does not fit its game; the message names the field and says what would do."""

    def __init__(self, field: str, words: str) -> None:
        super().__init__(words)  # words that name the field (protocol.values.option_refusal)
        self.field, self.words = field, words


def option_value(text: str) -> object:
    """A typed word as an option's value: ``on``/``off`` a truth, digits a number, ``none`` nothing,
    anything else the word itself (the model says whether it fits)."""
    word = text.strip()
    if word.lower() in ON:
        return True
    if word.lower() in OFF:
        return False
    if word.lower() == "none":
        return None
    return int(word) if word.isdigit() else word


def game_named(name: str) -> ClientGame[Any]:
    """The game called ``name``; OptionError listing the games otherwise."""
    game = client_game(name.lower())
    if game is None:
        raise OptionError("game", f"{' or '.join(load_games())}, not {name!r}")
    return game


def option_fields(name: str) -> tuple[str, ...]:
    """The options a game takes, as its model names them."""
    return tuple(game_named(name).options.model_fields)


def players_of(options: BaseModel) -> int:
    """The seats a table with these options has (every options model says, as a field or a property)."""
    players = getattr(options, "players", None)
    if not isinstance(players, int):
        raise OptionError("players", f"{type(options).__name__} does not say how many play")
    return players


def check_options(name: str, options: Mapping[str, object]) -> BaseModel:
    """The options as the game's model takes them; :class:`OptionError` in words otherwise."""
    game = game_named(name)
    try:
        return game.options.model_validate(dict(options))
    except ValidationError as error:
        raise OptionError(*option_refusal(game.options, error, game.name)) from None
