"""A game's messages to its table: each event to each listener as that listener may see it, then whose
turn it is: as a ``turn`` message, or (feature ``turn_in_event``) inside the listener's last event.

Hidden information is the engine's to decide (``event.seen_by(viewer)``); here each distinct form of an
event is encoded once and shared, and the legal actions go to the seat to move only.

A listener whose session accepted ``turn_in_event`` (``Recipient.folds``) gets the turn that follows a
batch of events inside the last event of the batch it sees, and the actor its ``ok`` there too
(``reply_to``): one frame where there were three. Everyone else gets exactly the separate messages, in
the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from boneyard.protocol.values import CommandId
from boneyard.server.games.base import Event
from boneyard.server.session import Recipient
from boneyard.server.wire import EventEncoder, reply_field, turn_body, turn_field, turn_head, with_fields

Listeners = Sequence[tuple[Recipient, int | None]]
"""Who hears a table's messages, with the seat each sees the game from (``None``: a spectator)."""


@dataclass(frozen=True, slots=True)
class NextTurn:
    """The turn that follows a batch of events."""

    seat: int
    """The seat to move."""
    time_left_ms: int | None
    """Its whole turn time (its timer has just started); ``None``: no timer (a bot's move, or none set)."""
    legal_actions: Sequence[Any]
    """The engine actions that seat may take (empty while a bot plays it through a hand-over)."""


class FanOut:
    """One table's game messages, encoded once per distinct form (the table id and game once ever)."""

    __slots__ = ("_events", "_turn_head")

    def __init__(self, game: str, table_id: str) -> None:
        self._events = EventEncoder(game, table_id)
        self._turn_head = turn_head(table_id)

    def send(
        self,
        events: Sequence[Event],
        listeners: Listeners,
        *,
        record_id: str | None = None,
        auto: bool = False,
        turn: NextTurn | None = None,
        reply: tuple[Recipient, CommandId] | None = None,
    ) -> bool:
        """``events`` to each listener as it may see them (``auto``: the server took the action for a
        player; ``record_id`` goes in ``game_over``), then ``turn`` if given. ``reply``: the actor and
        its ``act``'s id, folded into its last event if it accepted ``turn_in_event``. Whether it was
        (if not, the caller sends the ``ok``)."""
        if not listeners:
            return False
        encode = partial(self._events.body, auto=auto)
        last: list[bytes | None] = [None] * len(listeners)
        """Each listener's latest event, held back until the next one comes: the last may carry the turn."""
        for event in events:
            public: bytes | None = None
            private: dict[Event, bytes] = {}
            extra: dict[str, Any] = {"record_id": record_id} if event.type == "game_over" else {}
            for i, (session, viewer) in enumerate(listeners):
                seen = event.seen_by(viewer)
                if seen is None:
                    continue
                if seen is event:
                    if public is None:
                        public = encode(event, **extra)
                    body = public
                else:
                    body = private.get(seen) or private.setdefault(seen, encode(seen, **extra))
                held = last[i]
                if held is not None:
                    session.deliver(held)
                last[i] = body
        if turn is None:
            for (session, _), held in zip(listeners, last, strict=True):
                if held is not None:
                    session.deliver(held)
            return False
        return self._then_turn(listeners, last, turn, reply)

    def _then_turn(
        self,
        listeners: Listeners,
        last: list[bytes | None],
        turn: NextTurn,
        reply: tuple[Recipient, CommandId] | None,
    ) -> bool:
        folded_reply = False
        public_body: bytes | None = None
        public_field: bytes | None = None
        for (session, viewer), held in zip(listeners, last, strict=True):
            mover = viewer == turn.seat
            if held is not None and session.folds:
                if mover:
                    field = turn_field(turn.seat, turn.time_left_ms, turn.legal_actions)
                elif public_field is None:
                    field = public_field = turn_field(turn.seat, turn.time_left_ms, ())
                else:
                    field = public_field
                if reply is not None and session is reply[0]:
                    session.deliver(with_fields(held, field + reply_field(reply[1]), 2))
                    folded_reply = True
                else:
                    session.deliver(with_fields(held, field, 1))
                continue
            if held is not None:
                session.deliver(held)
            if mover:
                session.deliver(self.turn_body(turn, viewer))
            else:
                if public_body is None:
                    public_body = self.turn_body(turn, None)
                session.deliver(public_body)
        return folded_reply

    def turn(self, turn: NextTurn, listeners: Listeners) -> None:
        """``turn`` messages alone (no event before them: a timer restarted, a seat changed hands)."""
        if listeners:
            self._then_turn(listeners, [None] * len(listeners), turn, None)

    def turn_body(self, turn: NextTurn, viewer: int | None) -> bytes:
        """``turn`` as ``viewer`` gets it: the legal actions only if it holds the seat to move."""
        legal = turn.legal_actions if viewer == turn.seat else ()
        return turn_body(self._turn_head, turn.seat, turn.time_left_ms, legal)
