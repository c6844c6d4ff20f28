"""``get_record`` replies, encoded once: a finished game's record never changes.

Reading a record back (JSON or msgpack), validating it and encoding it again cost some 40 ms of CPU for
an 85-hand game, on every fetch: a few clients fetching in a loop froze the server (issue #15, item 2).
So the encoded record (the ``record`` value of the reply) is kept in a small LRU of the most recently
fetched ones, and each reply is a short head plus those bytes. What a reply costs the client in its
rate limit grows with its size (``Settings.reply_bytes_per_command``, see ``connection.py``).

>>> import random
>>> from boneyard.protocol import decode_server_message
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.registry import game_spec
>>> from boneyard.server.record_store import validated
>>> from boneyard.server.simulate import play_bots
>>> from boneyard.server.wire import stamp
>>> spec = game_spec("moon")
>>> engine = play_bots(spec, spec.new_game(spec.options_from_dict({"target": 7}), RandomDealer(1)),
...                    random.Random(1))
>>> record = validated(engine.record(["a", "b", "c"]))
>>> bodies = RecordBodies({"r1": record}.get, size=2)
>>> first, again = bodies.reply("r1", 7), bodies.reply("r1", 8)
>>> message = decode_server_message(stamp(again, 3))
>>> message.reply_to, message.record == record, bodies.encoded, bodies.reply("r2", 9)
(8, True, 1, None)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgpack

from boneyard.protocol import RecordMessage
from boneyard.protocol.values import CommandId
from boneyard.server.wire import body_of_dict


class RecordBodies:
    """The packed ``record`` of the last ``size`` records fetched, by record id."""

    def __init__(
        self, load: Callable[[str], Any | None], size: int = 64, on_encode: Callable[[], None] | None = None
    ) -> None:
        self._load = load
        self._on_encode = on_encode
        self._size = size
        self._packed: OrderedDict[str, bytes] = OrderedDict()
        self.encoded = 0
        """Records encoded so far (each one once while it stays cached)."""

    def get(self, record_id: str) -> bytes | None:
        """The record's value as msgpack, or ``None`` if there is no such record."""
        cached = self._packed.get(record_id)
        if cached is not None:
            self._packed.move_to_end(record_id)
            return cached
        record = self._load(record_id)
        if record is None:
            return None
        # Validated through the reply's model once, as the reply itself would be.
        message = RecordMessage(type="record", seq=1, reply_to=None, record_id=record_id, record=record)
        packed: bytes = msgpack.packb(message.model_dump()["record"])
        self.encoded += 1
        if self._on_encode is not None:
            self._on_encode()
        self._packed[record_id] = packed
        while len(self._packed) > self._size:
            self._packed.popitem(last=False)
        return packed

    def reply(self, record_id: str, reply_to: CommandId | None) -> bytes | None:
        """The ``record`` reply's body, or ``None`` if there is no such record."""
        packed = self.get(record_id)
        if packed is None:
            return None
        head = body_of_dict(
            {"type": "record", "seq": 1, "reply_to": reply_to, "record_id": record_id, "record": None}
        )
        return head[:-1] + packed  # the head ends with the nil of ``record``
