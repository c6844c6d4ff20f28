"""JSON Schema (2020-12) and AsyncAPI 3.0 documents, generated from the models.

>>> schema = json_schema()
>>> schema["$defs"]["Tile"]["prefixItems"][0]
{'type': 'integer', 'minimum': 0, 'maximum': 6}
"""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema

from boneyard.protocol.messages import (
    COMMAND_ADAPTER,
    COMMAND_MODELS,
    SERVER_MESSAGE_ADAPTER,
    SERVER_MESSAGE_MODELS,
)
from boneyard.protocol.records import RECORD_ADAPTER
from boneyard.protocol.spec.examples import ALL_EXAMPLES, Example
from boneyard.protocol.values import CONTENT_TYPE, PROTOCOL_VERSION, SUBPROTOCOL, TILES

JsonObj = dict[str, Any]

SCHEMA_ID = "https://boneyard.invalid/protocol/v1/schema.json"
"""The schema's ``$id``: a name, not a download location."""

TILE: JsonObj = {
    "type": "array",
    "description": "A tile as [high, low] with 6 >= high >= low >= 0.",
    "prefixItems": [{"type": "integer", "minimum": 0, "maximum": 6}] * 2,
    "minItems": 2,
    "maxItems": 2,
    "enum": [list(tile) for tile in TILES],  # high >= low: the 28 tiles there are
}


class _Generator(GenerateJsonSchema):
    # Property titles would only repeat the field names.
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _raw_defs(ref_template: str) -> tuple[dict[str, JsonObj], JsonObj]:
    """The top-level union schemas by name, and the ``$defs`` of every model."""
    adapters: list[tuple[str, TypeAdapter[Any]]] = [
        ("ClientCommand", COMMAND_ADAPTER),
        ("ServerMessage", SERVER_MESSAGE_ADAPTER),
        ("Record", RECORD_ADAPTER),
    ]
    keys, combined = TypeAdapter.json_schemas(
        [(name, "validation", adapter) for name, adapter in adapters],
        ref_template=ref_template,
        schema_generator=_Generator,
    )
    tops = {name: keys[(name, "validation")] for name, _ in adapters}
    return tops, combined["$defs"]


def _is_tile(node: JsonObj) -> bool:
    items = node.get("prefixItems")
    return (
        isinstance(items, list)
        and len(items) == 2
        and all(i == {"type": "integer", "minimum": 0, "maximum": 6} for i in items)
    )


def _tidy(node: Any, tile_ref: str) -> Any:
    """Name the inline tile schemas, drop discriminator mappings that are not plain references."""
    if isinstance(node, list):
        return [_tidy(item, tile_ref) for item in node]
    if not isinstance(node, dict):
        return node
    if _is_tile(node):
        ref: JsonObj = {"$ref": tile_ref}
        if "description" in node:
            ref["description"] = node["description"]
        return ref
    out = {key: _tidy(value, tile_ref) for key, value in node.items()}
    mapping = out.get("discriminator", {}).get("mapping")
    if mapping is not None and not all(isinstance(v, str) for v in mapping.values()):
        del out["discriminator"]["mapping"]
    return out


def json_schema() -> JsonObj:
    """The JSON Schema of every message (``protocol/spec/schema.json``)."""
    tops, defs = _raw_defs("#/$defs/{model}")
    defs = {name: _tidy(value, "#/$defs/Tile") for name, value in defs.items()}
    defs.update({name: _tidy(value, "#/$defs/Tile") for name, value in tops.items()})
    defs["Tile"] = TILE
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Boneyard wire protocol v{PROTOCOL_VERSION}",
        "description": (
            "Every message of the Boneyard wire protocol, as the data inside one msgpack map per "
            "binary websocket frame. ClientCommand: client to server; ServerMessage: server to client; "
            "Record: a finished game's boneyard-record/1. See PROTOCOL.md."
        ),
        "anyOf": [{"$ref": "#/$defs/ClientCommand"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": dict(sorted(defs.items())),
    }


def _draft07(node: Any) -> Any:
    """Rewrite 2020-12 keywords as draft-07 (the base of the AsyncAPI 3.0 Schema Object)."""
    if isinstance(node, list):
        return [_draft07(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _draft07(value) for key, value in node.items()}
    if "prefixItems" in out:
        out["items"] = out.pop("prefixItems")
        out["additionalItems"] = False
    if isinstance(out.get("discriminator"), dict):
        # AsyncAPI's discriminator is the property name alone.
        out["discriminator"] = out["discriminator"]["propertyName"]
    return out


def _doc(model: type[BaseModel]) -> tuple[str, str]:
    text = inspect.cleandoc(model.__doc__ or model.__name__)
    summary, _, rest = text.partition("\n\n")
    return summary.replace("\n", " "), rest


def _message_type(model: type[BaseModel]) -> str:
    return str(model.model_fields["type"].annotation.__args__[0])  # type: ignore[union-attr]


def _asyncapi_message(model: type[BaseModel], examples: list[Example]) -> JsonObj:
    summary, description = _doc(model)
    message: JsonObj = {
        "name": _message_type(model),
        "title": model.__name__,
        "summary": summary,
        "contentType": CONTENT_TYPE,
        "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
    }
    if description:
        message["description"] = description
    if examples:
        message["examples"] = [
            {"name": f"{model.__name__}-{i}", "summary": ex.title.replace("`", ""), "payload": ex.data}
            for i, ex in enumerate(examples, 1)
        ]
    return message


def asyncapi() -> JsonObj:
    """The AsyncAPI 3.0 document (``protocol/spec/asyncapi.yaml``), from the server's point of view."""
    tops, defs = _raw_defs("#/components/schemas/{model}")
    schemas = {name: _draft07(_tidy(value, "#/components/schemas/Tile")) for name, value in defs.items()}
    schemas.update(
        {name: _draft07(_tidy(value, "#/components/schemas/Tile")) for name, value in tops.items()}
    )
    schemas["Tile"] = _draft07(TILE)
    models = [*COMMAND_MODELS, *SERVER_MESSAGE_MODELS]
    messages = {
        m.__name__: _asyncapi_message(m, [ex for ex in ALL_EXAMPLES if type(ex.model) is m]) for m in models
    }

    def refs(group: tuple[type[BaseModel], ...]) -> list[JsonObj]:
        return [{"$ref": f"#/channels/boneyard/messages/{m.__name__}"} for m in group]

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Boneyard",
            "version": f"{PROTOCOL_VERSION}.0.0",
            "description": (
                "The Boneyard domino game server's wire protocol: one msgpack map per binary websocket "
                f"frame, websocket subprotocol `{SUBPROTOCOL}`. The guide (connection lifecycle, ordering, "
                "resume, errors, close codes, versioning) is PROTOCOL.md beside this file."
            ),
            "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"},
        },
        "defaultContentType": CONTENT_TYPE,
        "channels": {
            "boneyard": {
                "address": "/",
                "title": "A Boneyard connection",
                "description": (
                    f"One websocket connection. The client must offer the subprotocol `{SUBPROTOCOL}`; "
                    "text frames are refused."
                ),
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "headers": {
                            "type": "object",
                            "properties": {
                                "Sec-WebSocket-Protocol": {"type": "string", "const": SUBPROTOCOL}
                            },
                            "required": ["Sec-WebSocket-Protocol"],
                        },
                        "bindingVersion": "0.1.0",
                    }
                },
            }
        },
        "operations": {
            "receiveCommand": {
                "action": "receive",
                "channel": {"$ref": "#/channels/boneyard"},
                "summary": "The server receives client commands.",
                "messages": refs(COMMAND_MODELS),
            },
            "sendServerMessage": {
                "action": "send",
                "channel": {"$ref": "#/channels/boneyard"},
                "summary": "The server sends replies, pushes and game events.",
                "messages": refs(SERVER_MESSAGE_MODELS),
            },
        },
        "components": {"schemas": dict(sorted(schemas.items())), "messages": messages},
    }
