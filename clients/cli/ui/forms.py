"""The lobby's create form and chat, checked field by field before anything is sent.

The server would refuse a bad table too, but a person should hear which field is wrong, in
words, and never lose their seat to a traceback. A game's own options (``players``, ``nello``...)
are whatever its options model in the protocol takes, checked by that model (:mod:`.options`).
:func:`create_request` turns the words of ``create moon bots=1,2 turn=30`` (or the fields of the
full-screen form) into ``Client.create_table`` keyword arguments, or raises :class:`FormError` naming
the field.

>>> create_request(["moon", "bots=1,2"])["bots"]
[1, 2]
>>> create_request(["moon", "bots=1,2", "level=strong"])["bot_levels"]
['strong', 'strong']
>>> create_request(["moon", "level=expert"])
Traceback (most recent call last):
boneyard.clients.cli.ui.forms.FormError: level: the bots play at basic, good or strong, not 'expert'
>>> create_request(["straight", "players=5"])
Traceback (most recent call last):
boneyard.clients.cli.ui.forms.FormError: players must be 2, 3 or 4
>>> create_request(["texas42", "nello=on", "bots=1,2,3"])["options"]
{'nello': True}
>>> create_request(["moon", "seat=5"])
Traceback (most recent call last):
boneyard.clients.cli.ui.forms.FormError: seat: Moon has seats 0 to 2 (or seat=none to watch), not 5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.clients.cli.core.games import load_games
from boneyard.clients.cli.ui.options import OptionError, check_options, game_named, option_value, players_of
from boneyard.protocol.values import MAX_CHAT_CHARS, BotLevel

TURN_RANGE = (5, 3600)
TABLE_FIELDS = ("bots", "level", "turn", "seat", "delay")
"""The form's fields about the table (its game's own options come from the game's options model)."""
DELAY_RANGE = (0, 10_000)
LEVELS: tuple[BotLevel, ...] = ("basic", "good", "strong")


class FormError(ValueError):
    """A field of a form is wrong; the message names it and says what would do."""


def _number(field: str, value: str) -> int:
    if not value.strip().isdigit():
        raise FormError(f"{field}: {value!r} is not a whole number")
    return int(value)


def _seat_list(value: str, seats: int, game: str) -> list[int]:
    out: list[int] = []
    for word in value.replace(" ", "").split(","):
        if not word:
            continue
        seat = _number("bots", word)
        if seat >= seats:
            raise FormError(f"bots: {game} has seats 0 to {seats - 1}, not {seat}")
        if seat in out:
            raise FormError(f"bots: seat {seat} is named twice")
        out.append(seat)
    return out


def parse_fields(words: Sequence[str]) -> tuple[str, dict[str, str]]:
    """``["moon", "bots=1,2"]`` as the game and its ``key=value`` fields (nothing checked yet)."""
    games = load_games()
    if not words or words[0].lower() not in games:
        raise FormError("game: " + " or ".join(f"create {name} ..." for name in games))
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep:
            raise FormError(f"{word!r}: write options as key=value, e.g. bots=1,2")
        fields[key] = value.strip()
    return words[0].lower(), fields


def create_request(words: Sequence[str]) -> dict[str, Any]:
    """``create`` words as ``Client.create_table`` keyword arguments; :class:`FormError` names a bad field."""
    game, fields = parse_fields(words)
    return validate_create(game, fields)


def game_options(game: str, fields: Mapping[str, str]) -> tuple[dict[str, object], int]:
    """The form's fields that are the game's options, checked by its model; and the table's seats."""
    try:
        model = game_named(game).options
        options = {
            key: option_value(value) for key, value in fields.items() if key not in TABLE_FIELDS and value
        }
        if "players" not in model.model_fields and options.get("players") == players_of(model()):
            del options["players"]  # the form's seat count, where the game has a fixed one
        return options, players_of(check_options(game, options))
    except OptionError as error:
        raise FormError(str(error)) from None


def validate_create(game: str, fields: Mapping[str, str]) -> dict[str, Any]:
    """Check every field of the create form; the defaults fill what is missing."""
    options, players = game_options(game, fields)
    name = game_named(game).title
    seat: int | None = 0
    if "seat" in fields:
        value = fields["seat"].lower()
        seat = None if value in ("none", "") else _number("seat", value)
        if seat is not None and seat >= players:
            raise FormError(f"seat: {name} has seats 0 to {players - 1} (or seat=none to watch), not {seat}")
    bots = _seat_list(fields.get("bots", ""), players, name)
    if seat is not None and seat in bots:
        raise FormError(f"bots: seat {seat} is yours; bots go in the other seats, or say seat=none")
    turn: int | None = 30
    if "turn" in fields:
        value = fields["turn"].lower()
        turn = None if value == "none" else _number("turn", value)
        low, high = TURN_RANGE
        if turn is not None and not low <= turn <= high:
            raise FormError(f"turn: {low} to {high} seconds per turn, or turn=none for no timer, not {turn}")
    request: dict[str, Any] = {
        "game": game.lower(),
        "options": options,
        "bots": bots,
        "seat": seat,
        "turn_seconds": turn,
    }
    level = fields.get("level", "").lower()
    if level:
        if level not in LEVELS:
            raise FormError(
                f"level: the bots play at {', '.join(LEVELS[:-1])} or {LEVELS[-1]}, not {level!r}"
            )
        if bots:  # one level for every bot seat; left out, the server's default (basic)
            request["bot_levels"] = [level] * len(bots)
    if fields.get("delay"):
        delay = _number("delay", fields["delay"])
        low, high = DELAY_RANGE
        if not low <= delay <= high:
            raise FormError(f"delay: {low} to {high} milliseconds before each bot move, not {delay}")
        request["bot_delay_ms"] = delay
    return request


def chat_text(text: str) -> str:
    """What ``say`` sends; :class:`FormError` when it is empty or too long."""
    text = text.strip()
    if not text:
        raise FormError("say what? (say TEXT)")
    if any(ord(c) < 32 and c not in "\t" for c in text):
        raise FormError("say: no control characters, please")
    if len(text) > MAX_CHAT_CHARS:
        raise FormError(f"say: at most {MAX_CHAT_CHARS} characters at a time (that was {len(text)})")
    return text
