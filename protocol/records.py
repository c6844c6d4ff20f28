"""The public game record, ``boneyard-record/1`` (RECORD-FORMAT.md), and fetching it.

The models are strict: the server validates every record it writes with
:data:`RECORD_ADAPTER` before storing it. Third-party readers should ignore fields they
do not know (fields may be added within version 1). What every record has is in
:mod:`boneyard.protocol.recordbase`, each game's hand and record in its wire module;
:data:`Record` chooses the game's model by ``game`` through the registry of games.

>>> record = RECORD_ADAPTER.validate_json(
...     '{"format": "boneyard-record/1", "game": "straight", "players": 2,'
...     ' "options": {"players": 2, "partnerships": false, "target": 10},'
...     ' "hands": [{"deal": [[[6, 1]], [[5, 2]]], "boneyard": [], "first": 0,'
...     ' "actions": [{"seat": 0, "type": "play", "tile": [5, 5], "end": null}], "scores": [10, 0]}],'
...     ' "final_scores": [10, 0], "winner": 0}')
>>> record.hands[0].actions[0]
StraightPlayEntry(seat=0, auto=False, type='play', tile=(5, 5), end=None)
"""

from __future__ import annotations

from typing import Literal

from pydantic import TypeAdapter

from boneyard.protocol.envelope import CommandBase, ReplyBase
from boneyard.protocol.moon import DiscardEntry, MoonHand, MoonPlayEntry, MoonRecord
from boneyard.protocol.recordbase import RECORD_FORMAT, BaseRecord, BidEntry, Entry, PassEntry, TrumpEntry
from boneyard.protocol.straight import DrawEntry, StraightHand, StraightPlayEntry, StraightRecord
from boneyard.protocol.texas42 import Texas42Hand, Texas42Record, Texas42Result
from boneyard.protocol.values import Id
from boneyard.protocol.wiregames import Record

__all__ = [
    "RECORD_ADAPTER",
    "RECORD_FORMAT",
    "BaseRecord",
    "BidEntry",
    "DiscardEntry",
    "DrawEntry",
    "Entry",
    "GetRecord",
    "MoonHand",
    "MoonPlayEntry",
    "MoonRecord",
    "PassEntry",
    "Record",
    "RecordMessage",
    "StraightHand",
    "StraightPlayEntry",
    "StraightRecord",
    "Texas42Hand",
    "Texas42Record",
    "Texas42Result",
    "TrumpEntry",
]

RECORD_ADAPTER: TypeAdapter[BaseRecord] = TypeAdapter(Record)
"""Validates a record of any registered game (``validate_python`` for dicts, ``validate_json`` for JSON
text: read as JSON first, then validated as msgpack's values are)."""


class GetRecord(CommandBase):
    """Fetch a finished game's record. Reply: ``record``."""

    type: Literal["get_record"]
    record_id: Id
    """From ``game_over``."""


class RecordMessage(ReplyBase):
    """A finished game's record."""

    type: Literal["record"]
    record_id: Id
    record: Record
