"""The registry of games on the wire (``boneyard.protocol.wiregames``): the fields that choose a game's
model by ``game`` refuse an unknown game with the discriminator's words, carry a lenient decode's
``extra`` into the game's model, serialize the game's model whole, and a game is registered once."""

from __future__ import annotations

import dataclasses

import msgpack
import pytest

from boneyard.protocol import ProtocolError, decode_command, decode_server_message, encode
from boneyard.protocol.lobby import TableList
from boneyard.protocol.moon import MoonTable
from boneyard.protocol.wiregames import WireGame, register_wire_game, wire_game

SEATS = [{"seat": s, "name": None, "bot": False, "connected": False, "auto": False} for s in range(3)]
TABLE = {
    "table_id": "t1",
    "game": "moon",
    "seats": SEATS,
    "status": "waiting",
    "turn_seconds": 30,
    "spectators": 0,
    "rematch": [],
    "options": {"all_pass": "redeal", "target": 21},
}


def table_list(table: dict[str, object]) -> bytes:
    return msgpack.packb({"type": "table_list", "seq": 1, "reply_to": None, "tables": [table]})


def test_an_unknown_game_is_refused_as_an_invalid_message_naming_the_games() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_command(msgpack.packb({"type": "create_table", "id": 4, "game": "chess"}))
    assert refused.value.code == "invalid_message" and refused.value.reply_to == 4
    assert "'chess'" in refused.value.message and "'moon', 'straight', 'texas42'" in refused.value.message
    with pytest.raises(ProtocolError, match=r"tables\.0: Input tag 'chess'"):
        decode_server_message(table_list({**TABLE, "game": "chess"}))


def test_a_lenient_decode_drops_unknown_fields_inside_a_games_model_too() -> None:
    newer = {**TABLE, "added": 1, "options": {"all_pass": "redeal", "target": 21, "added": 2}}
    with pytest.raises(ProtocolError, match="added: Extra inputs are not permitted"):
        decode_server_message(table_list(newer))
    message = decode_server_message(table_list(newer), lenient=True)
    assert isinstance(message, TableList) and message.tables[0] == MoonTable.model_validate(TABLE)


def test_a_games_model_is_serialized_whole_in_a_field_typed_by_its_base() -> None:
    table = MoonTable.model_validate(TABLE)
    frame = encode(TableList(type="table_list", seq=1, tables=(table,)))
    assert msgpack.unpackb(frame)["tables"][0]["options"] == {"all_pass": "redeal", "target": 21}


def test_a_game_is_registered_once_and_its_models_name_it() -> None:
    moon = wire_game("moon")
    register_wire_game(moon)  # the same game again: nothing changes
    with pytest.raises(ValueError, match="another game is registered as 'moon'"):
        register_wire_game(dataclasses.replace(moon, types=(MoonTable,)))
    with pytest.raises(ValueError, match="must be Literal\\['straight'\\]"):
        WireGame(
            **{
                **{f.name: getattr(moon, f.name) for f in dataclasses.fields(moon) if f.init},
                "name": "straight",
            }
        )
