"""What a game tells the people at its table: each event as each listener may see it, and whose turn it is.

A :class:`FanOut` belongs to one :class:`~boneyard.server.match.Match`. It holds the two encoders
a game needs (its events and its ``turn`` messages) and nothing of the game's state: the match
hands it the engine and the listeners each time, so the same code makes the live frames and, for a
resume after a crash, the same frames again (:meth:`FanOut.regenerate`).

Hidden information is decided by the engine alone: ``event.seen_by(viewer)`` for events and
``engine.legal_actions(seat)`` only for the seat to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from boneyard.server.games.base import Engine, Event
from boneyard.server.host import Room
from boneyard.server.session import Recipient
from boneyard.server.wire import EventEncoder, turn_body, turn_head

Listeners = Sequence[tuple[Recipient, int | None]]
"""Who hears a game: each recipient with the seat it sees as (``None``: a spectator)."""

Regenerated = dict[int, tuple[bytes, ...]]
"""One action's messages to each seated viewer, by seat, as a restore makes them again."""


class FanOut:
    """The events and turns of one game at ``room``, encoded once per distinct form."""

    __slots__ = ("_events", "_turn_head", "room")

    def __init__(self, game: str, room: Room) -> None:
        self.room = room
        self._events = EventEncoder(game, room.table_id)
        self._turn_head = turn_head(room.table_id)

    def events(
        self, events: list[Event], listeners: Listeners, record_id: str | None = None, auto: bool = False
    ) -> None:
        """Each event to each listener as that listener may see it; each distinct form encoded once
        (``auto``: the events of an action the server took for a player)."""
        if not listeners:
            return
        encode = partial(self._events.body, auto=auto)
        for event in events:
            public: bytes | None = None
            private: dict[Event, bytes] = {}
            extra: dict[str, Any] = {"record_id": record_id} if event.type == "game_over" else {}
            for session, viewer in listeners:
                seen = event.seen_by(viewer)
                if seen is None:
                    continue
                if seen is event:
                    if public is None:
                        public = encode(event, **extra)
                    body = public
                else:
                    body = private.get(seen) or private.setdefault(seen, encode(seen, **extra))
                session.deliver(body)

    def turn(self, engine: Engine, mover: int, listeners: Listeners) -> None:
        """``turn`` to each listener, with the whole turn time of a timed human seat (its timer has just
        started; the same number when a restore makes the message again)."""
        if not listeners:
            return
        seat = self.room.roster.seats[mover]
        limit = None if seat.bot_plays else self.room.turn_limit(seat)
        time_left = None if limit is None else limit * 1000
        public = self.turn_body(engine, mover, None, time_left)
        for session, viewer in listeners:
            session.deliver(self.turn_body(engine, mover, viewer, time_left) if viewer == mover else public)

    def turn_body(self, engine: Engine, mover: int, viewer: int | None, time_left_ms: int | None) -> bytes:
        """``turn`` as ``viewer`` gets it: with the legal actions if it is the seat to move (and no bot
        plays it through a hand-over)."""
        legal: list[Any] = []
        if viewer == mover and not self.room.roster.seats[mover].handing_over:
            legal = engine.legal_actions(mover)
        return turn_body(self._turn_head, mover, time_left_ms, legal)

    def regenerate(
        self, engine: Engine, events: list[Event], auto: bool, seated: list[int]
    ) -> Regenerated | None:
        """What each seated viewer was sent for one action (its events, then the next turn), or ``None``
        where the live path sent more than the action's own messages: the game's end (its record,
        ``deal_revealed``, ``table_updated``), a hand's end (a pause between hands, or the next deal,
        with a hand-over's ``table_updated``)."""
        if engine.is_over or engine.between_hands:
            return None
        inboxes = {viewer: _Inbox() for viewer in seated}
        listeners = [(inbox, viewer) for viewer, inbox in inboxes.items()]
        self.events(events, listeners, None, auto)
        if engine.to_move is not None:
            self.turn(engine, engine.to_move, listeners)
        return {viewer: tuple(inbox.bodies) for viewer, inbox in inboxes.items()}


class _Inbox:
    """Stands in for a seated session while a restore makes its messages again: keeps what it is sent."""

    __slots__ = ("bodies",)

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def deliver(self, body: bytes) -> None:
        self.bodies.append(body)
