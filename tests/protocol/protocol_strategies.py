"""Hypothesis strategies for wire data, derived from the published JSON Schema.

Deriving them from ``schema.json`` (rather than hand-writing one per message) means a new
message or field is covered by the round-trip tests as soon as it exists. The few rules a
JSON Schema cannot state (a tile's high >= low, one seat entry per seat, distinct seats)
get small overrides, and a final filter keeps only data the models accept.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from hypothesis import strategies as st

from boneyard.protocol.spec.schemas import json_schema
from boneyard.protocol.values import MAX_SAFE_INT

Strategy = st.SearchStrategy[Any]

TILES = [[h, lo] for h in range(7) for lo in range(h + 1)]
SAFE_TEXT = st.characters(codec="utf-8", exclude_categories=["Cs"])


@cache
def _defs() -> dict[str, Any]:
    defs: dict[str, Any] = json_schema()["$defs"]
    return defs


def _integers(schema: dict[str, Any]) -> Strategy:
    low = schema.get("minimum", -MAX_SAFE_INT)
    high = schema.get("maximum", MAX_SAFE_INT)
    # Mostly small values, sometimes the bounds.
    return st.one_of(st.integers(max(low, -3), min(high, 40)), st.sampled_from([low, high]))


def _strings(schema: dict[str, Any]) -> Strategy:
    low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
    if "pattern" in schema:
        text = st.from_regex(schema["pattern"], fullmatch=True, alphabet=SAFE_TEXT)
        return text.filter(lambda s: low <= len(s) <= high)
    return st.text(SAFE_TEXT, min_size=low, max_size=min(high, 40))


def from_schema(schema: dict[str, Any]) -> Strategy:
    """Data matching ``schema`` (the subset of JSON Schema pydantic generates)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: for_def(name))
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([from_schema(s) for s in schema[key]])
    kind = schema.get("type")
    if kind == "integer":
        return _integers(schema)
    if kind == "string":
        return _strings(schema)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*(from_schema(s) for s in schema["prefixItems"])).map(list)
        return st.lists(from_schema(schema["items"]), max_size=min(schema.get("maxItems", 4), 4))
    if kind == "object" and "properties" in schema:
        required = set(schema.get("required", ()))
        props = schema["properties"]
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in props.items() if k in required},
            optional={k: from_schema(v) for k, v in props.items() if k not in required},
        )
    if kind == "object":
        keys = from_schema(schema.get("propertyNames", {"type": "string"}))
        return st.dictionaries(keys, from_schema(schema["additionalProperties"]), max_size=4)
    raise NotImplementedError(f"no strategy for schema {schema}")


def _seats(n: int) -> Strategy:
    seat = from_schema(_defs()["SeatInfo"])
    return st.tuples(*(seat.map(lambda d, i=i: {**d, "seat": i}) for i in range(n))).map(list)


def _players(name: str) -> Strategy:
    return st.just(3) if name.startswith("Moon") or name.startswith("CreateMoon") else st.integers(2, 4)


def _straight_options(players: int, resolved: bool) -> Strategy:
    choices: list[bool | None] = [False, True] if players == 4 else [False]
    if not resolved:
        choices.append(None)
    return st.fixed_dictionaries(
        {
            "players": st.just(players),
            "partnerships": st.sampled_from(choices),
            "target": st.integers(1, 10_000),
        }
    )


def _with_players(name: str, build: Any) -> Strategy:
    """Generic data for ``name``, with the fields that depend on the number of seats fixed up."""
    base = from_schema(_defs()[name])
    return st.tuples(base, _players(name)).flatmap(lambda pair: build(*pair))


def _table(name: str) -> Strategy:
    def build(data: dict[str, Any], n: int) -> Strategy:
        options = _straight_options(n, True) if "Straight" in name else st.just(data["options"])
        return st.tuples(_seats(n), options).map(lambda so: {**data, "seats": so[0], "options": so[1]})

    return _with_players(name, build)


def _create(name: str) -> Strategy:
    def build(data: dict[str, Any], n: int) -> Strategy:
        options = _straight_options(n, False) if "Straight" in name else st.just(data.get("options", {}))
        seats = st.permutations(range(n)).flatmap(
            lambda order: st.tuples(st.integers(0, n), st.booleans()).map(
                lambda kb: {
                    "bots": list(order[: kb[0]]),
                    "seat": order[kb[0]] if kb[1] and kb[0] < n else None,
                }
            )
        )
        return st.tuples(seats, options).map(lambda so: {**data, **so[0], "options": so[1]})

    return _with_players(name, build)


def _record(name: str) -> Strategy:
    hand = "MoonHand" if name == "MoonRecord" else "StraightHand"

    def build(data: dict[str, Any], n: int) -> Strategy:
        deal = st.lists(st.lists(st.sampled_from(TILES), max_size=7), min_size=n, max_size=n)
        hands = st.lists(st.tuples(for_def(hand), deal).map(lambda hd: {**hd[0], "deal": hd[1]}), max_size=2)
        options = _straight_options(n, True) if name == "StraightRecord" else st.just(data["options"])
        return st.tuples(hands, options).map(
            lambda ho: {**data, "players": n, "hands": ho[0], "options": ho[1]}
        )

    return _with_players(name, build)


def _all_options(name: str) -> Strategy:
    # Tables and records carry every option; the schema's defaults make them optional elsewhere.
    props = _defs()[name]["properties"]
    return st.fixed_dictionaries({k: from_schema(v) for k, v in props.items()})


OVERRIDES = {
    "Tile": lambda: st.sampled_from(TILES),
    "MoonOptions": lambda: _all_options("MoonOptions"),
    "MoonTable": lambda: _table("MoonTable"),
    "StraightTable": lambda: _table("StraightTable"),
    "CreateMoonTable": lambda: _create("CreateMoonTable"),
    "CreateStraightTable": lambda: _create("CreateStraightTable"),
    "MoonRecord": lambda: _record("MoonRecord"),
    "StraightRecord": lambda: _record("StraightRecord"),
}


@cache
def for_def(name: str) -> Strategy:
    """Data for the schema definition ``name`` (a model's class name)."""
    override = OVERRIDES.get(name)
    return override() if override else from_schema(_defs()[name])
