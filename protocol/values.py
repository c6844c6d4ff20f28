"""The value types every message is built from: tiles, seats, ends, trumps, ids, table options.

Everything here is strict: a wire value of the wrong type is rejected, never coerced
(``"1"`` is not ``1``, ``1`` is not ``true``, ``4.0`` is not ``4``). Arrays are
accepted as Python lists or tuples, because msgpack decodes arrays as lists while
the engines hand out tuples; the items inside are still checked strictly.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(Tile).validate_python([6, 4])
(6, 4)
>>> TypeAdapter(Tile).validate_python([4, 6])  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
pydantic_core.ValidationError: a tile is [high, low]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Literal, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

T = TypeVar("T")

PROTOCOL_VERSION = 1
"""The protocol version this package implements (sent in ``hello``)."""

SUBPROTOCOL = "boneyard.v1"
"""The websocket subprotocol a client must offer."""

CONTENT_TYPE = "application/vnd.msgpack"
"""The content type of every frame."""

MAX_SAFE_INT = 2**53 - 1
"""The largest integer every client language can hold exactly (JavaScript's ``Number``)."""


class WireModel(BaseModel):
    """Base of every model on the wire: strict, closed (unknown fields rejected), immutable."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        frozen=True,
        use_attribute_docstrings=True,
    )


def exact_int(value: object) -> object:
    """A before-validator for integer Literals: only a real ``int`` may match.

    >>> exact_int(4)
    4
    """
    # pydantic's Literal check compares with ==, so True and 4.0 would pass as 1 and 4.
    if type(value) is not int:
        raise ValueError("must be an integer")
    return value


def _high_first(tile: tuple[int, int]) -> tuple[int, int]:
    if tile[0] < tile[1]:
        raise ValueError("a tile is [high, low]: high must be >= low")
    return tile


Int = Annotated[int, Strict()]
Bool = Annotated[bool, Strict()]
Str = Annotated[str, Strict()]

Seq = Annotated[tuple[T, ...], Strict(False)]
"""An array of any length; lists and tuples alike (the items are still strict)."""

Pip = Annotated[int, Strict(), Field(ge=0, le=6)]
"""A number on a tile, 0..6."""

TILES: tuple[tuple[int, int], ...] = tuple((high, low) for high in range(7) for low in range(high + 1))
"""The 28 tiles of a double-six set, each as ``(high, low)``."""

Tile = Annotated[tuple[Pip, Pip], Strict(False), AfterValidator(_high_first)]
"""A tile as ``[high, low]`` with ``6 >= high >= low >= 0``."""

Seat = Annotated[int, Strict(), Field(ge=0, le=3)]
"""A seat number, 0..players-1."""

Count = Annotated[int, Strict(), Field(ge=0, le=MAX_SAFE_INT)]
"""A non-negative integer."""

Score = Annotated[int, Strict(), Field(ge=-1_000_000, le=1_000_000)]
"""A score; Moon scores may go below zero."""

Seqno = Annotated[int, Strict(), Field(ge=1, le=MAX_SAFE_INT)]
"""A server message sequence number, 1, 2, 3, ... per connection."""

TrickPlay = Annotated[tuple[Seat, Tile], Strict(False)]
"""A tile played to a trick: ``[seat, tile]``."""

GameName = Str
"""A game's name, as registered (``boneyard.protocol.wiregames``): ``moon``, ``straight``, ``texas42``."""

End = Literal["left", "right", "up", "down"]
"""An open end of a Straight layout (see docs/RULES.md, "Naming the ends")."""

Bid = Annotated[Literal[4, 5, 6, 7, 21], BeforeValidator(exact_int)]
"""A Moon bid."""

Trump = Annotated[int, Strict(), Field(ge=0, le=6)] | Literal["doubles", "none"]
"""Moon trump: a number 0..6, ``"doubles"`` or ``"none"``."""

TexasBid = Annotated[
    Literal[30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 84, 126, 168, 210], BeforeValidator(exact_int)
]
"""A Texas 42 bid in points: 30-41, or ``42 * k`` for ``k`` marks (four turns reach 210 at most)."""

Contract = Trump | Literal["nello"]
"""Texas 42's contract: a trump as in Moon, or ``"nello"`` (the bidder to lose every trick)."""

BotLevel = Literal["basic", "good", "strong"]
"""How well a bot plays: ``basic`` (a quick heuristic), ``good`` (a search), ``strong`` (a deeper search)."""

Id = Annotated[str, Strict(), Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
"""A server-assigned identifier (table, record, player): 1-32 of ``A-Z a-z 0-9 _ -``."""

Token = Annotated[str, Strict(), Field(pattern=r"^[A-Za-z0-9_-]{16,128}$")]
"""A secret resume token: 16-128 of ``A-Z a-z 0-9 _ -``."""

_INVISIBLE = frozenset("\u061c\u200b\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff")
"""Zero-width and direction marks (format characters; ZWJ and ZWNJ, which emoji and scripts need, are
not here)."""
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional embeddings, overrides and isolates: they reorder what follows them on screen."""


def _plain_text(text: str) -> str:
    """Refuse what could fake or hide text on another player's screen: control characters (a ``\\r`` or
    an escape sequence rewrites a terminal line), line and paragraph separators, bidi controls and
    invisible characters.

    >>> _plain_text("caf\u00e9 \U0001f468\u200d\U0001f469") == "caf\u00e9 \U0001f468\u200d\U0001f469"
    True
    >>> _plain_text("\\r<bob> I resign")
    Traceback (most recent call last):
    ...
    ValueError: no control, bidi or invisible characters (found U+000D)
    """
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp", "Cs") or char in _BIDI or char in _INVISIBLE:
            raise ValueError(f"no control, bidi or invisible characters (found U+{ord(char):04X})")
    return text


def _plain_name(name: str) -> str:
    """A name also has no format characters at all and something visible, with no space around it."""
    _plain_text(name)
    if any(unicodedata.category(char) == "Cf" for char in name):
        raise ValueError("no invisible formatting characters in a name")
    if name != name.strip() or not any(unicodedata.category(c)[0] not in "ZM" for c in name):
        raise ValueError("a name has visible characters and no leading or trailing space")
    return name


def cleaned_name(name: str, fallback: str = "player") -> str:
    """``name`` with what :data:`Name` refuses taken out (for names stored before the rule).

    >>> cleaned_name("an\u202ea\u200b "), cleaned_name("\u200b")
    ('ana', 'player')
    """
    kept = "".join(
        c for c in name if unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Cs") and c not in _BIDI
    ).strip()[:32]
    return kept if any(unicodedata.category(c)[0] not in "ZM" for c in kept) else fallback


Name = Annotated[str, Strict(), Field(min_length=1, max_length=32), AfterValidator(_plain_name)]
"""A display name: 1-32 characters, something visible, no space around it; no control, bidi or
invisible formatting characters."""

CommandId = (
    Annotated[int, Strict(), Field(ge=0, le=MAX_SAFE_INT)]
    | Annotated[str, Strict(), Field(min_length=1, max_length=64)]
)
"""A client-chosen command id: an integer 0..2^53-1 or a string of 1-64 characters."""

MAX_CHAT_CHARS = 500
"""The hard cap on a chat line; a server may announce a lower ``limits.chat_max_chars``."""

ChatText = Annotated[
    str, Strict(), Field(min_length=1, max_length=MAX_CHAT_CHARS), AfterValidator(_plain_text)
]
"""A chat line: no control characters (no ``\\r``, no escape sequences), line separators, bidi controls or
invisible characters (zero-width joiners, which emoji sequences need, are fine)."""

TurnSeconds = Annotated[int, Strict(), Field(ge=5, le=3600)]
"""Seconds a seat has to act, 5..3600."""

MAX_BOT_DELAY_MS = 10_000
BotDelayMs = Annotated[int, Strict(), Field(ge=0, le=MAX_BOT_DELAY_MS)]
"""Milliseconds a bot waits before each move, 0..10000."""

MAX_HAND_PAUSE_MS = 60_000
HandPauseMs = Annotated[int, Strict(), Field(ge=0, le=MAX_HAND_PAUSE_MS)]
"""Milliseconds a table pauses between hands, 0..60000 (0: no pause)."""


def in_words(message: str) -> WrapValidator:
    """A field's refusal said in words (``message``) instead of pydantic's (which names only the broken
    bound), for options that people type; the constraints and the JSON Schema stay the field's own.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(Annotated[int, Field(ge=1), in_words("at least one")]).validate_python(0)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for ...
      at least one [type=option_value, input_value=0, input_type=int]
    """

    def check(value: object, handler: ValidatorFunctionWrapHandler) -> object:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError("option_value", message) from None

    return WrapValidator(check)


class GameOptions(WireModel):
    """Base of every game's table options (each game's in ``boneyard.protocol.options``): what the
    server's middle, the engines and the clients ask of options whatever the game. Each game's model
    carries every constraint on its options, with its message, so that validating it is the one check of
    options, and its values are what the engine plays by (immutable, so a value like any other)."""

    if TYPE_CHECKING:  # a property here would hide a game's ``players`` field (Straight's)

        @property
        def players(self) -> int:
            """The number of seats: a field (Straight's) or a property (a game of fixed seats)."""
            ...

        @property
        def target(self) -> int:
            """What wins the game (points, or Texas 42's marks): every game has the field."""
            ...

    def as_dict(self) -> dict[str, object]:
        """Every option by its wire name, defaults included and resolved: the ``options`` of a table
        listing (``TableInfo``) and of a record (RECORD-FORMAT.md), which readers take as they are."""
        return {**self.model_dump(), **self.resolved()}

    def resolved(self) -> dict[str, object]:
        """The options whose ``null`` stands for a default that depends on other options, as this
        table plays them (Straight's ``partnerships``); none for most games."""
        return {}

    @classmethod
    def fixed_players(cls) -> int | None:
        """The number of seats of a game that has no ``players`` option (Moon 3, Texas 42 4), else None."""
        return None if "players" in cls.model_fields else cls().players

    @classmethod
    def checked(cls, values: Mapping[str, object], game: str) -> Self:
        """``values`` (a record's, a stored table's, an operator's) as the options of ``game``: the one
        check of options; ValueError in one line of words otherwise (:func:`option_refusal`).

        >>> from boneyard.protocol.options.moon import MoonOptions
        >>> MoonOptions.checked({"target": 0}, "moon")
        Traceback (most recent call last):
        ValueError: target must be a whole number from 1 to 1000
        >>> MoonOptions.checked({"players": 4}, "moon")
        Traceback (most recent call last):
        ValueError: moon is played by exactly 3 players
        >>> MoonOptions.checked({"colour": "red"}, "moon")
        Traceback (most recent call last):
        ValueError: moon has no colour option (its options: all_pass, target)
        """
        try:
            return cls.model_validate(dict(values))
        except ValidationError as error:
            raise ValueError(option_refusal(cls, error, game)[1]) from None


def option_refusal(model: type[GameOptions], error: ValidationError, game: str) -> tuple[str, str]:
    """What ``model`` (``game``'s options) refused first in ``error``: the option's name and, in words
    that name it, what is wrong (an option of another game included)."""
    first = error.errors(include_url=False)[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    if first["type"] == "extra_forbidden":
        fixed = model.fixed_players()
        if field == "players" and fixed is not None:
            return field, f"{game} is played by exactly {fixed} players"
        return field, f"{game} has no {field} option (its options: {', '.join(model.model_fields)})"
    words = str(first["msg"]).removeprefix("Value error, ")
    if not field or words.startswith(field):
        return field, words
    return field, f"{field}: {words[:1].lower()}{words[1:]}"  # pydantic's own words begin with a capital


PARTNERSHIP_PLAYERS = 4
"""Partnerships (seats 0+2 against 1+3) need exactly this many players (RULES.md S1)."""


def check_partnerships(players: int, partnerships: bool | None) -> None:
    """The one statement of the partnership rule, for the wire model, the engine and the client.

    >>> check_partnerships(4, True); check_partnerships(3, False)
    >>> check_partnerships(3, True)
    Traceback (most recent call last):
    ValueError: partnerships need 4 players
    """
    if partnerships and players != PARTNERSHIP_PLAYERS:
        raise ValueError(f"partnerships need {PARTNERSHIP_PLAYERS} players")


def check_all_fields_set(model: BaseModel) -> None:
    """Raise ValueError unless every field of ``model`` was given explicitly (no defaults used).

    Records and table listings carry all options, defaults included, so readers never
    need to know the defaults.
    """
    missing = set(type(model).model_fields) - model.model_fields_set
    if missing:
        raise ValueError(f"missing {', '.join(sorted(missing))} (all options must be given)")
