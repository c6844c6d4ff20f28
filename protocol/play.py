"""Playing, whatever the game: actions (``act``), whose turn it is (``turn``), the events every game
shares, and the base of each game's ``event`` message and view.

Actions use the record vocabulary (RECORD-FORMAT.md): ``bid``, ``pass``, ``discard``,
``trump``, ``play`` (with ``end`` in Straight after the opening tile), ``draw``.

Game events mirror the engines' events (docs/ENGINE-API.md) field for field. Their
names collide between the games (``tile_played`` and ``hand_scored`` differ in shape),
so every event travels wrapped: ``{"type": "event", "seq", "table_id", "game", "event": {...}}``.
``game`` selects the game's event union and ``event.type`` the event within it, so every
event model is strictly typed and keeps the engine's name. Each game's own events, its event
message and its view are in its wire module (``boneyard.protocol.moon``, ``straight``, ``texas42``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.values import (
    Bid,
    Bool,
    CommandId,
    Contract,
    Count,
    End,
    GameName,
    Id,
    Score,
    Seat,
    Seq,
    Str,
    TexasBid,
    Tile,
    WireModel,
)

# --- actions -------------------------------------------------------------------------------


class BaseAction(WireModel):
    """Base of the actions a seat can take."""

    type: Str


class BidAction(BaseAction):
    """Moon: bid 4, 5, 6, 7 or 21 (higher than the high bid so far). Texas 42: bid 30-41 points, or
    42, 84, ... for one, two, ... marks."""

    type: Literal["bid"]
    bid: Bid | TexasBid


class PassAction(BaseAction):
    """Moon: pass in the auction. Straight: pass (no playable tile, boneyard empty)."""

    type: Literal["pass"]


class DiscardAction(BaseAction):
    """Moon: the high bidder discards one tile after taking the widow."""

    type: Literal["discard"]
    tile: Tile


class TrumpAction(BaseAction):
    """Moon and Texas 42: the high bidder names trump (Texas 42 with option ``nello``: or ``"nello"``)."""

    type: Literal["trump"]
    trump: Contract


class PlayAction(BaseAction):
    """Play a tile. Straight: on the open ``end`` it goes to (``null`` only for the opening tile)."""

    type: Literal["play"]
    tile: Tile
    end: End | None = None
    """Straight only: ``left``, ``right``, ``up`` or ``down``; ``null`` in Moon and for the opening."""


class DrawAction(BaseAction):
    """Straight: draw from the boneyard (no playable tile in hand)."""

    type: Literal["draw"]


Action = Annotated[
    BidAction | PassAction | DiscardAction | TrumpAction | PlayAction | DrawAction,
    Field(discriminator="type"),
]
"""Any action of either game."""


class Act(CommandBase):
    """Take an action for your seat. Replies: ``ok`` (after the events it caused) or ``error``."""

    type: Literal["act"]
    table_id: Id
    action: Action


class Turn(ServerMessageBase):
    """Whose turn it is, how long they have, and (to that seat only) what they may do.

    Sent to everyone at the table whenever the seat to move changes or its legal actions
    change (e.g. after a Straight draw).
    """

    type: Literal["turn"]
    table_id: Id
    seat: Seat
    """The seat to move."""
    time_left_ms: Count | None
    """Milliseconds left for that seat, counted from when this was sent; ``null``: no turn timer."""
    legal_actions: Seq[Action]
    """The receiver's legal actions: empty unless the receiver holds ``seat``."""


class TurnInfo(WireModel):
    """Feature ``turn_in_event``: the ``turn`` message that would have followed an event, inside it
    (``event.turn``): the same fields, for the same receiver (its ``table_id`` is the event's)."""

    seat: Seat
    """The seat to move."""
    time_left_ms: Count | None
    """Milliseconds left for that seat, counted from when this was sent; ``null``: no turn timer."""
    legal_actions: Seq[Action]
    """The receiver's legal actions: empty unless the receiver holds ``seat``."""


# --- events --------------------------------------------------------------------------------


class GameEvent(WireModel):
    """Base of game events."""

    type: Str


class HandStarted(GameEvent):
    """A hand begins (before the deal). Both games."""

    type: Literal["hand_started"]
    hand: Count
    """The hand number, from 0."""
    first: Seat
    """Moon: the first bidder. Straight: the player who leads."""
    tile_counts: Seq[Count]
    """Tiles in each seat's hand after the deal."""
    boneyard: Count
    """Straight: tiles left to draw. Moon: 0."""


class HandDealt(GameEvent):
    """A seat's tiles for the new hand. Both games; private."""

    type: Literal["hand_dealt"]
    seat: Seat
    tiles: Seq[Tile] | None
    """The dealt tiles; ``null`` for everyone but ``seat``."""


class GameOver(GameEvent):
    """The game is over. Both games."""

    type: Literal["game_over"]
    winner: Seat
    """The winning seat; with partnerships the winning team (0 = seats 0+2, 1 = seats 1+3)."""
    scores: Seq[Score]
    """Final scores, per seat (per team with partnerships)."""
    record_id: Id | None = None
    """Fetch the game's record with ``get_record``; ``null`` if it was not stored."""


class Passed(GameEvent):
    """A seat passed. Moon: in the auction. Straight: no play and nothing left to draw."""

    type: Literal["passed"]
    seat: Seat


class EventMessageBase(ServerMessageBase):
    """The fields every game's ``event`` message has, in wire order (each game narrows ``game`` and
    ``event``)."""

    type: Literal["event"]
    table_id: Id
    game: GameName
    auto: Bool = False
    """True for the events of an action the server took for a player (their turn timed out, or they
    were away): the record marks that action ``auto`` too. False for a player's or a bot's own."""
    event: GameEvent
    turn: TurnInfo | None = None
    """Feature ``turn_in_event`` (only on a connection that accepted it, and only then present): the
    turn that follows this event, which is the last of an action's (or a deal's) events."""
    reply_to: CommandId | None = None
    """Feature ``turn_in_event`` (present only with ``turn``): this receiver's ``act`` with this ``id``
    caused the event, and succeeded; no ``ok`` follows."""

    @model_serializer(mode="wrap")
    def _absent_unless_folded(self, handler: SerializerFunctionWrapHandler) -> Any:
        # The feature fields are left out, not null, where the feature is not in force: a connection
        # that did not accept it gets exactly the messages of a server without it.
        data = handler(self)
        if isinstance(data, dict):
            for name in ("turn", "reply_to"):
                if name in data and data[name] is None:
                    del data[name]
        return data


class BaseView(WireModel):
    """Base of a game's view (in ``snapshot``): the game as the receiver sees it. Every game's view
    starts with these fields (each game may say more of them)."""

    game: Str
    viewer: Seat | None
    """The receiver's seat; ``null`` for a spectator."""
    hand_number: Count
    """The hand being played, from 0."""
