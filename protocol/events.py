"""Every game's ``event`` messages, and the wire model of each engine event (:data:`ENGINE_EVENTS`).

Event names collide between the games (``tile_played`` and ``hand_scored`` differ in shape), so an
event travels in a message naming its game, whose union then names the event by ``type``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class EngineBidMade:  # the shape of an engine event
...     seat: int
...     bid: int
...     type = "bid_made"
>>> event_from_engine("moon", EngineBidMade(seat=1, bid=5))
BidMade(type='bid_made', seat=1, bid=5)
>>> event_from_engine("texas42", EngineBidMade(seat=1, bid=84))
TexasBidMade(type='bid_made', seat=1, bid=84)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from boneyard.protocol.play import GameEvent
from boneyard.protocol.wiregames import EngineEvents, EventMessage

__all__ = ["ENGINE_EVENTS", "EventMessage", "event_from_engine"]

ENGINE_EVENTS: Mapping[str, Mapping[str, type[GameEvent]]] = EngineEvents()
"""The wire model of each engine event: ``ENGINE_EVENTS[game][event.type]``, for every registered game."""


def event_from_engine(game: str, event: object, **overrides: object) -> GameEvent:
    """The wire model of an engine event (already filtered with ``seen_by``), by field name.

    Fields the engine event lacks (``game_over.record_id``) come from ``overrides``.
    Raises ``KeyError`` for an event type the protocol does not know, ``ValueError`` for a
    dataclass event with a field the wire model lacks (the two have drifted apart), and
    pydantic's ``ValidationError`` when a field does not fit.
    """
    model = ENGINE_EVENTS[game][getattr(event, "type")]  # noqa: B009 - ``type`` is a ClassVar
    if dataclasses.is_dataclass(event):
        unknown = {f.name for f in dataclasses.fields(event)} - set(model.model_fields)
        if unknown:
            raise ValueError(f"{game} {model.__name__} has no field {', '.join(sorted(unknown))}")
    data: dict[str, object] = {
        name: getattr(event, name) for name in model.model_fields if hasattr(event, name)
    }
    data.update(overrides)
    return model.model_validate(data)
