"""The pause between hands: a table's players look at the hand's result, then say they are ready.

When a hand ends (scored, or thrown in) and the game goes on, a table that pauses deals the next hand
only once every seated human has sent ``ready`` or the pause has run out; meanwhile no turn runs and
no clock. ``hand_pause`` announces the pause and every change of who is ready; ``hand_started``
ends it. A ``snapshot`` taken during the pause carries it (``Snapshot.pause``).

>>> PauseInfo(hand_number=0, time_left_ms=8000, ready=(1,), waiting=(0,)).waiting
(0,)
"""

from __future__ import annotations

from typing import Literal

from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.values import Count, Id, Seat, Seq, WireModel

FEATURE_HAND_PAUSE = "hand_pause"
"""``hello.features`` names it when tables pause between hands (``create_table.hand_pause_ms``,
``ready``, ``hand_pause``)."""


class PauseInfo(WireModel):
    """A pause between hands as it stands."""

    hand_number: Count
    """The hand that just ended (the next one is ``hand_number + 1``)."""
    time_left_ms: Count
    """Milliseconds until the next hand is dealt, at the latest."""
    ready: Seq[Seat]
    """Seats whose players said they are ready."""
    waiting: Seq[Seat]
    """Seats whose ``ready`` the table still waits for: those a human plays, connected or dropped within
    the grace period (a bot is always ready, and so is a seat the server plays for: its player away or
    timed out). Empty at a table of bots only: its pause, asked for by its creator, runs its whole length
    (for its spectators)."""


class HandPause(ServerMessageBase):
    """The table pauses between hands, or someone said they are ready. Sent to everyone at the table when
    the pause starts and each time ``ready`` or ``waiting`` changes; the next hand's ``hand_started``
    ends it."""

    type: Literal["hand_pause"]
    table_id: Id
    pause: PauseInfo


class Ready(CommandBase):
    """A seated player is done looking at the hand's result: when every seat ``waiting`` is ready, the next
    hand starts at once. Reply: ``ok``. Outside a pause it does nothing (it may cross the end of the
    pause on the wire)."""

    type: Literal["ready"]
    table_id: Id
