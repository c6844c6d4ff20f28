"""The generated parts of PROTOCOL.md: tables and the message reference with examples.

``render(template)`` replaces each ``<!-- generated: NAME -->`` line of the hand-written
guide (``guide.md``) with the section NAME built from the models and examples.

>>> hex_lines(bytes(range(3)))
'00 01 02'
>>> pretty({"tile": [6, 4], "end": None})
'{"tile": [6, 4], "end": null}'
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import msgpack
from pydantic import BaseModel

from boneyard.protocol.accounts import LinkCodeMessage, LinkDevice
from boneyard.protocol.codec import COMMAND_LIMITS, SERVER_LIMITS
from boneyard.protocol.deals import ContributeSeed, DealCommitment, DealRevealed, SeedContributed
from boneyard.protocol.errors import CLOSE_CODES, ERROR_CODES, Error
from boneyard.protocol.events import ENGINE_EVENTS
from boneyard.protocol.handshake import Hello, Identify, Ok, Ping, Pong, Welcome
from boneyard.protocol.lobby import (
    ChatCommand,
    ChatMessage,
    Join,
    Leave,
    ListTables,
    LobbyChanged,
    Rematch,
    Seated,
    SeatStatus,
    Spectate,
    TableCreated,
    TableList,
    TableRemoved,
    TableUpdated,
    TakeSeat,
)
from boneyard.protocol.messages import COMMAND_MODELS, REPLIES
from boneyard.protocol.moderation import Mute, Report, Unmute
from boneyard.protocol.pause import HandPause, Ready
from boneyard.protocol.play import (
    Act,
    BidAction,
    DiscardAction,
    DrawAction,
    PassAction,
    PlayAction,
    TrumpAction,
    Turn,
)
from boneyard.protocol.ratings import GetLeaderboard, GetProfile, Leaderboard, Profile, RatingChanges
from boneyard.protocol.records import GetRecord, RecordMessage
from boneyard.protocol.seeks import CancelSeek, Seek, Seeks
from boneyard.protocol.spec.examples import ALL_EXAMPLES, Example
from boneyard.protocol.spec.schemas import JsonObj, json_schema
from boneyard.protocol.values import MAX_SAFE_INT
from boneyard.protocol.views import Snapshot
from boneyard.protocol.wiregames import WireGame, wire_games

GAMES: tuple[WireGame, ...] = wire_games()
"""The games the spec documents: those registered when it is generated (the built-in ones)."""

MESSAGE_SECTIONS: tuple[tuple[str, tuple[type[BaseModel], ...]], ...] = (
    ("Handshake and session", (Hello, Identify, Welcome, Ping, Pong, Ok, Error)),
    (
        "Lobby",
        (
            ListTables,
            TableList,
            *(game.create_table for game in GAMES),
            TableCreated,
            TableUpdated,
            TableRemoved,
            LobbyChanged,
            Join,
            TakeSeat,
            Seated,
            Spectate,
            Leave,
            Rematch,
            SeatStatus,
            ChatCommand,
            ChatMessage,
        ),
    ),
    ("Playing", (Snapshot, Turn, Act, *(game.event_message for game in GAMES))),
    ("The pause between hands", (HandPause, Ready)),
    ("Fair deals", (DealCommitment, ContributeSeed, SeedContributed, DealRevealed)),
    ("Records", (GetRecord, RecordMessage)),
    ("Accounts", (LinkDevice, LinkCodeMessage)),
    ("Ratings", (RatingChanges, GetProfile, Profile, GetLeaderboard, Leaderboard)),
    ("Matchmaking", (Seek, CancelSeek, Seeks)),
    ("Moderation", (Mute, Unmute, Report)),
)
"""The message reference's sections, in order."""

WRAPPERS = tuple(game.event_message for game in GAMES)

ACTIONS = (BidAction, PassAction, DiscardAction, TrumpAction, PlayAction, DrawAction)

TYPE_ORDER = (
    "Tile",
    "Limits",
    "Resume",
    "SeatRef",
    "SeatInfo",
    *(game.table.__name__ for game in GAMES),
    *(game.options.__name__ for game in GAMES),
    *(game.view.__name__ for game in GAMES),
    *(model.__name__ for game in GAMES for model in game.types),
    *(game.record.__name__ for game in GAMES),
    *(game.hand.__name__ for game in GAMES),
    "DealProof",
)
"""Shared types listed first in the type reference; the rest follow alphabetically."""


def hex_lines(data: bytes, per_line: int = 32) -> str:
    """Bytes as hex pairs, ``per_line`` to a line."""
    return "\n".join(data[i : i + per_line].hex(" ") for i in range(0, len(data), per_line))


def pretty(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON that stays on one line when it fits in ``width`` columns, and breaks by element when not."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + len(flat) <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {pretty(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _md(text: str) -> str:
    # Docstrings use reST literals; Markdown wants single backticks.
    return text.replace("``", "`")


def _doc(obj: type) -> str:
    return _md(inspect.cleandoc(obj.__doc__ or ""))


def anchor(name: str) -> str:
    """The HTML anchor of a message or type heading."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _int_range(schema: JsonObj) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None and high is None:
        return "integer"
    show = {MAX_SAFE_INT: "2^53-1", 2**31 - 1: "2^31-1"}
    return f"integer {'' if low is None else low}..{'' if high is None else show.get(high, high)}"


def type_text(schema: JsonObj) -> str:
    """A schema as a short human type: ``integer 0..6``, ``array of [Tile](#tile)``, ..."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{anchor(name)})"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        values = schema["enum"]
        if len(values) > 8:  # long lists are tabled in the text (codes) or described by their shape
            if all(isinstance(v, str) for v in values):
                return f"string (one of {len(values)} codes)"
            shape = type_text({k: v for k, v in schema.items() if k != "enum"})
            return f"{shape} (one of {len(values)} values)"
        return " \\| ".join(f"`{json.dumps(v)}`" for v in values)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " \\| ".join(type_text(s) for s in schema[key])
    kind = schema.get("type")
    if kind == "integer":
        return _int_range(schema)
    if kind == "string":
        text = "string"
        if "maxLength" in schema:
            text += f" of {schema.get('minLength', 0)}..{schema['maxLength']} characters"
        if "pattern" in schema:
            text += f" matching `{schema['pattern']}`"
        return text
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(type_text(s) for s in schema["prefixItems"]) + "]"
        return f"array of {type_text(schema['items'])}"
    if kind == "object" and "additionalProperties" in schema:
        keys = type_text(schema.get("propertyNames", {"type": "string"}))
        return f"map of {keys} to {type_text(schema['additionalProperties'])}"
    return {"boolean": "boolean", "null": "`null`"}.get(str(kind), str(kind))


def field_table(schema: JsonObj) -> str:
    """A model's fields as a Markdown table."""
    rows = ["| field | type | meaning |", "|---|---|---|"]
    required = set(schema.get("required", ()))
    for name, prop in schema.get("properties", {}).items():
        note = _md(prop.get("description", "")).replace("\n\n", " ").replace("\n", " ")
        if name not in required:
            note = f"Optional, default `{json.dumps(prop.get('default'))}`. {note}".strip()
        rows.append(f"| `{name}` | {type_text(prop)} | {note} |")
    return "\n".join(rows)


def example_block(example: Example) -> str:
    """An example as its JSON form and its msgpack bytes (both checked by the tests)."""
    frame = msgpack.packb(example.data)
    return "\n".join(
        (
            f"Example: {example.title} ({len(frame)} bytes)",
            "",
            f"<!-- example: {example.direction} -->",
            "```json",
            pretty(example.data),
            "```",
            "",
            "```hex",
            hex_lines(frame),
            "```",
        )
    )


def _message_heading(model: type[BaseModel]) -> str:
    kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    direction = "client → server" if model in COMMAND_MODELS else "server → client"
    return f'<a id="{anchor(model.__name__)}"></a>\n\n#### `{kind}` ({model.__name__}, {direction})'


def _section(heading: str, body: str, examples: Iterable[Example], schema: JsonObj) -> str:
    parts = [heading, "", body, "", field_table(schema)]
    parts += ["", *("\n\n".join(example_block(e) for e in examples).split("\n"))] if examples else []
    return "\n".join(parts)


@cache
def _defs() -> JsonObj:
    defs: JsonObj = json_schema()["$defs"]
    return defs


def reference() -> str:
    """The message reference: every message, its fields and its examples."""
    defs = _defs()
    out: list[str] = []
    for title, models in MESSAGE_SECTIONS:
        out.append(f"### {title}")
        for model in models:
            examples = [e for e in ALL_EXAMPLES if type(e.model) is model]
            if model in WRAPPERS:
                examples = examples[:1]  # the rest are shown with their events
            out.append(_section(_message_heading(model), _doc(model), examples, defs[model.__name__]))
    return "\n\n".join(out)


def events() -> str:
    """Every game event, with its examples (wrapped in ``event`` messages)."""
    defs = _defs()
    out = []
    seen: set[type[BaseModel]] = set()
    for by_type in ENGINE_EVENTS.values():
        for kind, model in by_type.items():
            if model in seen:
                continue
            seen.add(model)
            games = [name for name, other in ENGINE_EVENTS.items() if model in other.values()]
            where = "every game" if len(games) == len(ENGINE_EVENTS) else ", ".join(games)
            heading = f'<a id="{anchor(model.__name__)}"></a>\n\n#### `{kind}` ({model.__name__}, {where})'
            examples = [e for e in ALL_EXAMPLES if type(getattr(e.model, "event", None)) is model]
            out.append(_section(heading, _doc(model), examples, defs[model.__name__]))
    return "\n\n".join(out)


def actions() -> str:
    """The action models (sent inside ``act``, listed in ``legal_actions``)."""
    defs = _defs()
    out = []
    for model in ACTIONS:
        kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
        heading = f'<a id="{anchor(model.__name__)}"></a>\n\n#### `{kind}` ({model.__name__})'
        out.append(_section(heading, _doc(model), (), defs[model.__name__]))
    return "\n\n".join(out)


def types() -> str:
    """Every other model: the shared types the messages are built from."""
    defs = _defs()
    listed = {m.__name__ for _, ms in MESSAGE_SECTIONS for m in ms} | {m.__name__ for m in ACTIONS}
    listed |= {m.__name__ for events in ENGINE_EVENTS.values() for m in events.values()}
    listed |= {"ClientCommand", "ServerMessage", "Record"}
    rest = sorted(set(defs) - listed - set(TYPE_ORDER))
    out = []
    for name in (*TYPE_ORDER, *rest):
        schema = defs[name]
        body = _md(schema.get("description", ""))
        heading = f'<a id="{anchor(name)}"></a>\n\n#### {name}'
        if "properties" in schema:
            out.append(_section(heading, body, (), schema))
        else:
            out.append(f"{heading}\n\n{body}\n\nType: {type_text({**schema, 'description': ''})}")
    return "\n\n".join(out)


def replies() -> str:
    """Which reply each command gets."""
    rows = ["| command | reply when it succeeds |", "|---|---|"]
    rows += [f"| `{c}` | `{r}` |" for c, r in REPLIES.items()]
    return "\n".join(rows)


def error_codes() -> str:
    """The error code table."""
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{code}` | {text} |" for code, text in ERROR_CODES.items()]
    return "\n".join(rows)


def close_codes() -> str:
    """The close code table."""
    rows = ["| code | name | meaning | reconnect? | resume? |", "|---|---|---|---|---|"]
    for c in CLOSE_CODES.values():
        rows.append(
            f"| {c.code} | `{c.name}` | {c.meaning} | {'yes' if c.reconnect else 'no'} | "
            f"{'yes' if c.resume else 'no'} |"
        )
    return "\n".join(rows)


def limits() -> str:
    """The decoding bounds table."""
    rows = ["| bound | client → server | server → client |", "|---|---|---|"]
    for name in ("max_frame_bytes", "max_str_bytes", "max_array_len", "max_map_len", "max_depth"):
        rows.append(f"| `{name}` | {getattr(COMMAND_LIMITS, name)} | {getattr(SERVER_LIMITS, name)} |")
    return "\n".join(rows)


GENERATORS: dict[str, Callable[[], str]] = {
    "limits": limits,
    "replies": replies,
    "error_codes": error_codes,
    "close_codes": close_codes,
    "reference": reference,
    "events": events,
    "actions": actions,
    "types": types,
}

MARKER = re.compile(r"^<!-- generated: (\w+) -->$", re.MULTILINE)


def render(template: str) -> str:
    """The guide with every ``<!-- generated: NAME -->`` line replaced by its section."""
    header = (
        "<!-- This file is generated by `python -m boneyard.protocol.spec` from guide.md: edit that. -->\n\n"
    )
    return header + MARKER.sub(lambda m: GENERATORS[m.group(1)]().strip(), template)
