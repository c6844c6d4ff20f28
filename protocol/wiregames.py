"""The games on the wire: one :class:`WireGame` per game, registered by its wire module, and the
message fields that hold a game's model (:data:`TableInfo`, :data:`CreateTable`, :data:`EventMessage`,
:data:`View`, :data:`Record`), which choose that model by ``game`` through the registry.

A game registered later (a game of the tests, a plug-in) validates everywhere the built-in games do:
the choice is made when a message is validated, not when the unions are built. Its JSON Schema is the
``oneOf`` of the registered models with a ``game`` discriminator, as a static union's would be.

>>> [game.name for game in wire_games()]
['moon', 'straight', 'texas42']
>>> from pydantic import TypeAdapter
>>> TypeAdapter(CreateTable).validate_python({"type": "create_table", "game": "moon"}).players
3
>>> try:
...     TypeAdapter(CreateTable).validate_python({"type": "create_table", "game": "go"})
... except ValueError as error:
...     print(error.errors()[0]["msg"])  # doctest: +NORMALIZE_WHITESPACE
Input tag 'go' found using 'game' does not match any of the expected tags: 'moon', 'straight', 'texas42'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from boneyard.protocol.fairness import DealRule, register_deal_rule
from boneyard.protocol.play import BaseView, EventMessageBase, GameEvent
from boneyard.protocol.recordbase import BaseHand, BaseRecord
from boneyard.protocol.tables import BaseCreateTable, BaseTable
from boneyard.protocol.values import GameOptions

Kind = Literal["table", "create_table", "event_message", "view", "record"]
"""The per-game models a message field may hold, by :class:`WireGame` attribute."""


@dataclass(frozen=True, slots=True)
class WireGame:
    """Everything of one game that crosses the wire, each model named once."""

    name: str
    """The ``game`` value of its messages."""
    options: type[GameOptions]
    """Its table options: every constraint with its message (the one check of options)."""
    table: type[BaseTable]
    create_table: type[BaseCreateTable]
    event_message: type[EventMessageBase]
    """Its ``event`` message; the ``event`` field's union lists its events."""
    view: type[BaseView]
    record: type[BaseRecord]
    hand: type[BaseHand]
    """A record's hand."""
    deal: DealRule
    """Its part of ``boneyard-deal/1`` (which tiles, how many a hand, what is left)."""
    types: tuple[type[BaseModel], ...] = ()
    """Types of its view that the spec's type reference lists right after the views (Straight's layout)."""
    events: Mapping[str, type[GameEvent]] = field(init=False)
    """Its events' wire models by ``type``."""

    def __post_init__(self) -> None:
        # pydantic keeps the union (its discriminator moved to the field's info)
        members: tuple[type[GameEvent], ...] = get_args(self.event_message.model_fields["event"].annotation)
        by_type = {_literal(member, "type"): member for member in members}
        object.__setattr__(self, "events", by_type)
        for kind in ("table", "create_table", "event_message", "view", "record"):
            model: type[BaseModel] = getattr(self, kind)
            if _literal(model, "game") != self.name:
                raise ValueError(f"{model.__name__}.game must be Literal[{self.name!r}]")


def _literal(model: type[BaseModel], name: str) -> str:
    value: str = get_args(model.model_fields[name].annotation)[0]
    return value


_GAMES: dict[str, WireGame] = {}


def register_wire_game(game: WireGame) -> None:
    """Make ``game`` known to every message (a game's wire module calls it once, at import)."""
    if game.name in _GAMES and _GAMES[game.name] != game:
        raise ValueError(f"another game is registered as {game.name!r}")
    _GAMES[game.name] = game
    register_deal_rule(game.name, game.deal)


def forget_wire_game(name: str) -> None:
    """Undo :func:`register_wire_game` (for a game registered by tests only)."""
    _GAMES.pop(name, None)
    register_deal_rule(name, None)


def wire_game(name: str) -> WireGame:
    """The registered game of that name; ``KeyError`` if there is none."""
    return _GAMES[name]


def wire_games() -> tuple[WireGame, ...]:
    """Every registered game, in the order they were registered."""
    return tuple(_GAMES.values())


class _ByGame:
    """A field's schema: the registered model of one :data:`Kind`, chosen by the input's ``game``."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind

    def _validate(
        self, value: Any, handler: core_schema.ValidatorFunctionWrapHandler, info: core_schema.ValidationInfo
    ) -> Any:
        name = value.get("game") if isinstance(value, dict) else getattr(value, "game", None)
        game = _GAMES.get(name) if isinstance(name, str) else None
        if game is None:
            raise PydanticCustomError(
                "union_tag_invalid",
                "Input tag {tag} found using 'game' does not match any of the expected tags: {expected_tags}",
                {"tag": repr(name), "expected_tags": ", ".join(repr(g) for g in _GAMES)},
            )
        model: type[BaseModel] = getattr(game, self.kind)
        # A nested validation does not inherit the caller's settings: a lenient decode passes its
        # ``extra`` in the context (``boneyard.protocol.codec``).
        context = info.context if isinstance(info.context, dict) else {}
        return model.__pydantic_validator__.validate_python(
            value, extra=context.get("extra"), context=context
        )

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # The base model's schema stays inside, so that a union by ``type`` still finds its literal;
        # each value is serialized as what it is (the game's model), not as the base.
        return core_schema.with_info_wrap_validator_function(
            self._validate,
            handler(source),
            serialization=core_schema.wrap_serializer_function_ser_schema(
                lambda value, serialize: serialize(value), schema=core_schema.any_schema()
            ),
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        choices: dict[Any, core_schema.CoreSchema] = {
            game.name: getattr(game, self.kind).__pydantic_core_schema__ for game in _GAMES.values()
        }
        return handler(core_schema.tagged_union_schema(choices, discriminator="game"))


def models_of(kind: Kind) -> tuple[type[BaseModel], ...]:
    """The registered models of ``kind``, in registration order."""
    return tuple(getattr(game, kind) for game in _GAMES.values())


def dispatched_kind(annotation: Any) -> Kind | None:
    """The kind of a field type made here (``TableInfo`` gives ``"table"``), else ``None``."""
    for extra in getattr(annotation, "__metadata__", ()):
        if isinstance(extra, _ByGame):
            return extra.kind
    return None


TableInfo = Annotated[BaseTable, _ByGame("table")]
"""A table's public description."""
CreateTable = Annotated[BaseCreateTable, _ByGame("create_table")]
"""``create_table``, of any game."""
EventMessage = Annotated[EventMessageBase, _ByGame("event_message")]
"""An ``event`` message of any game."""
View = Annotated[BaseView, _ByGame("view")]
"""A game as the receiver sees it (in ``snapshot``)."""
Record = Annotated[BaseRecord, _ByGame("record")]
"""A ``boneyard-record/1`` object."""


class EngineEvents(Mapping[str, Mapping[str, type[GameEvent]]]):
    """Each registered game's events by ``type``: ``ENGINE_EVENTS[game][event.type]``."""

    def __getitem__(self, game: str) -> Mapping[str, type[GameEvent]]:
        return _GAMES[game].events

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_GAMES))

    def __len__(self) -> int:
        return len(_GAMES)
