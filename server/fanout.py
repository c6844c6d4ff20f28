"""What a game tells the people at its table: each event as each listener may see it, and whose turn it is.

A :class:`FanOut` belongs to one :class:`~boneyard.server.match.Match`. It holds the two encoders
a game needs (its events and its ``turn`` messages) and nothing of the game's state: the match
hands it the engine and the listeners each time, so the same code makes the live frames and, for a
resume after a crash, the same frames again (:meth:`FanOut.regenerate`).

Hidden information is decided by the engine alone: ``event.seen_by(viewer)`` for events and
``engine.legal_actions(seat)`` only for the seat to move.

A listener whose session accepted feature ``turn_in_event`` (``Recipient.folds``) gets the turn that
follows a batch of events inside the last event of the batch it sees, and the actor its ``ok`` there
too (``reply_to``): one frame where there were three. Everyone else gets exactly the separate
messages, in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from boneyard.protocol.values import CommandId
from boneyard.server.games.base import Engine, Event
from boneyard.server.host import EngineAction, Room
from boneyard.server.session import Recipient
from boneyard.server.wire import EventEncoder, reply_field, turn_body, turn_field, turn_head, with_fields

Listeners = Sequence[tuple[Recipient, int | None]]
"""Who hears a game: each recipient with the seat it sees as (``None``: a spectator)."""

Regenerated = dict[int, tuple[bytes, ...]]
"""One action's messages to each seated viewer, by seat, as a restore makes them again."""

Reply = tuple[Recipient, CommandId]
"""The player whose ``act`` caused the events, and its ``id``: answered ``ok`` (or inside the event)."""


class NextTurn(NamedTuple):
    """The turn that follows a batch of events, as announced (a tuple: one is made per action, and
    a frozen dataclass costs several times as much to make; its fields are :func:`turn_field`'s
    arguments, in order)."""

    seat: int
    """The seat to move."""
    time_left_ms: int | None
    """Its whole turn time (its timer has just started); ``None``: no timer (a bot's move, or none set)."""
    legal_actions: Sequence[EngineAction]
    """The engine actions that seat may take (empty while a bot plays it through a hand-over)."""


class FanOut:
    """The events and turns of one game at ``room``, encoded once per distinct form."""

    __slots__ = ("_events", "_turn_head", "room")

    def __init__(self, game: str, room: Room) -> None:
        self.room = room
        self._events = EventEncoder(game, room.table_id)
        self._turn_head = turn_head(room.table_id)

    def next_turn(self, engine: Engine, mover: int, time_left_ms: int | None = None) -> NextTurn:
        """``mover``'s turn: by default with the whole turn time of a timed human seat (its timer has
        just started; the same number when a restore makes the message again), and its legal actions
        unless a bot plays it through a hand-over (or nobody holds it to be told)."""
        seat = self.room.roster.seats[mover]
        if time_left_ms is None:
            limit = None if seat.bot_plays else self.room.turn_limit(seat)
            time_left_ms = None if limit is None else limit * 1000
        told = seat.session is not None and not seat.handing_over
        return NextTurn(mover, time_left_ms, engine.legal_actions(mover) if told else ())

    def send(
        self,
        events: Sequence[Event],
        listeners: Listeners,
        *,
        record_id: str | None = None,
        auto: bool = False,
        turn: NextTurn | None = None,
        reply: Reply | None = None,
    ) -> bool:
        """``events`` to each listener as it may see them (``auto``: the server took the action for a
        player; ``record_id`` goes in ``game_over``), then ``turn`` if given. ``reply``: folded into the
        actor's last event if it accepted ``turn_in_event``; whether it was (if not, the caller sends
        the ``ok``)."""
        # One listener at a time, to its last message: what each session gets, in order, is all that
        # matters (each numbers its own), and so no listener's latest event waits in a list.
        count = len(events)
        public: list[bytes | None] = [None] * count
        """Each event's body as everyone who sees it whole gets it (encoded at its first such viewer)."""
        private: list[dict[Event, bytes]] | None = None
        """Each event's bodies by the form a viewer sees (made at the first private form)."""
        folded_reply = False
        mover_field = public_field = mover_body = public_body = None
        shared_held: bytes | None = None
        shared_folded = b""
        """The last public event with the public turn inside, and the event it was made from: every
        listener but the mover and the actor gets the same one (one copy in every resume log)."""
        for session, viewer in listeners:
            held: bytes | None = None
            """The latest event, held back until the next one comes: the last may carry the turn."""
            for k in range(count):
                event = events[k]
                seen = event.seen_by(viewer)
                if seen is None:
                    continue
                if seen is event:
                    body = public[k]
                    if body is None:
                        body = public[k] = self._encode(event, auto, record_id)
                else:
                    if private is None:
                        private = [{} for _ in events]
                    forms = private[k]
                    body = forms.get(seen)
                    if body is None:
                        body = forms[seen] = self._encode(seen, auto, record_id)
                if held is not None:
                    session.deliver(held)
                held = body
            if turn is None:
                if held is not None:
                    session.deliver(held)
                continue
            mover = viewer == turn.seat
            if held is not None and session.folds:
                if mover:
                    field = mover_field = mover_field or turn_field(*turn)
                else:
                    field = public_field = public_field or turn_field(turn.seat, turn.time_left_ms, ())
                if reply is not None and session is reply[0]:
                    session.deliver(with_fields(held, field + reply_field(reply[1]), 2))
                    folded_reply = True
                elif mover:
                    session.deliver(with_fields(held, field, 1))
                else:
                    if held is not shared_held:
                        shared_held, shared_folded = held, with_fields(held, field, 1)
                    session.deliver(shared_folded)
                continue
            if held is not None:
                session.deliver(held)
            if mover:
                session.deliver(mover_body := mover_body or self.turn_body(turn, viewer))
            else:
                session.deliver(public_body := public_body or self.turn_body(turn, None))
        return folded_reply

    def _encode(self, event: Event, auto: bool, record_id: str | None) -> bytes:
        if event.type == "game_over":
            return self._events.body(event, auto, record_id=record_id)
        return self._events.body(event, auto)

    def turn(self, turn: NextTurn, listeners: Listeners) -> None:
        """``turn`` messages alone (no event before them: a timer restarted, a seat changed hands)."""
        self.send((), listeners, turn=turn)

    def turn_body(self, turn: NextTurn, viewer: int | None) -> bytes:
        """``turn`` as ``viewer`` gets it: the legal actions only if it holds the seat to move."""
        legal = turn.legal_actions if viewer == turn.seat else ()
        return turn_body(self._turn_head, turn.seat, turn.time_left_ms, legal)

    def regenerate(
        self, engine: Engine, events: list[Event], auto: bool, seated: list[int]
    ) -> Regenerated | None:
        """What each seated viewer was sent for one action (its events, then the next turn), or ``None``
        where the live path sent more than the action's own messages: the game's end (its record,
        ``deal_revealed``, ``table_updated``), a hand's end (a pause between hands, or the next deal,
        with a hand-over's ``table_updated``). Made in the plain shape: a session that accepted
        ``turn_in_event`` got fewer messages, so the journal's ends do not fit them, and it resumes by
        snapshot (:mod:`~boneyard.server.storage.crashlog`)."""
        if engine.is_over or engine.between_hands:
            return None
        inboxes = {viewer: _Inbox() for viewer in seated}
        listeners = [(inbox, viewer) for viewer, inbox in inboxes.items()]
        turn = None if engine.to_move is None else self.next_turn(engine, engine.to_move)
        self.send(events, listeners, auto=auto, turn=turn)
        return {viewer: tuple(inbox.bodies) for viewer, inbox in inboxes.items()}


class _Inbox:
    """Stands in for a seated session while a restore makes its messages again: keeps what it is sent."""

    __slots__ = ("bodies",)
    folds = False  # the shape the journal's ends are checked against

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def deliver(self, body: bytes) -> None:
        self.bodies.append(body)
