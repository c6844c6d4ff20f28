"""Where finished games' records live: the :class:`RecordStore` interface and an in-memory store.

A record is stored only once its game is over (a running game's record is secret), after being
validated strictly against the protocol's models. A later store (SQLite) implements the same
two methods.

>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.registry import game_spec
>>> from boneyard.server.simulate import play_bots
>>> import random
>>> spec = game_spec("moon")
>>> engine = play_bots(spec, spec.new_game(spec.options_from_dict({"target": 7}), RandomDealer(1)),
...                    random.Random(1))
>>> store = MemoryRecordStore(limit=2)
>>> store.put("r1", validated(engine.record(["a", "b", "c"])))
>>> store.get("r1").winner == engine.winner, store.get("nope")
(True, None)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Protocol

import msgpack

from boneyard.protocol import RECORD_ADAPTER
from boneyard.protocol.recordbase import BaseRecord

GameRecord = BaseRecord
"""A record of any registered game (its game's model: ``MoonRecord``, ...)."""


def validated(record: dict[str, Any]) -> GameRecord:
    """The engine's record as the protocol model; raises pydantic's ValidationError if it does not fit."""
    return RECORD_ADAPTER.validate_python(record)


class RecordStore(Protocol):
    """Finished games' records by id."""

    def put(self, record_id: str, record: GameRecord) -> None:
        """Store a finished game's (validated) record."""
        ...

    def get(self, record_id: str) -> GameRecord | None:
        """The record, or ``None`` when there is none by that id."""
        ...


class MemoryRecordStore:
    """Keeps the last ``limit`` records as msgpack bytes.

    Bytes, not models: a model is thousands of small objects the garbage collector would walk
    on every full collection, while a bytes object is one untracked block.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self._limit = limit
        self._records: OrderedDict[str, bytes] = OrderedDict()

    def put(self, record_id: str, record: GameRecord) -> None:
        self._records[record_id] = msgpack.packb(record.model_dump())
        while len(self._records) > self._limit:
            self._records.popitem(last=False)

    def get(self, record_id: str) -> GameRecord | None:
        data = self._records.get(record_id)
        return None if data is None else validated(msgpack.unpackb(data))

    def __len__(self) -> int:
        return len(self._records)
