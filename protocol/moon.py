"""Three-Player Moon on the wire: its options, table, ``create_table``, events, view and record hand,
and its :class:`~boneyard.protocol.wiregames.WireGame` (docs/RULES.md, M1-M13).

Moon plays 22 tiles (no ``1-0`` to ``6-0``): 7 to each of 3 seats and a widow.

>>> from boneyard.protocol.wiregames import wire_game
>>> wire_game("moon").options().players, sorted(wire_game("moon").events)[:3]
(3, ['bid_made', 'discarded', 'game_over'])
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, Strict

from boneyard.protocol.fairness import TILES, DealRule
from boneyard.protocol.options.moon import MoonOptions as MoonOptions
from boneyard.protocol.play import (
    Action,
    BaseView,
    DiscardAction,
    EventMessageBase,
    GameEvent,
    GameOver,
    HandDealt,
    HandStarted,
    Passed,
)
from boneyard.protocol.recordbase import BaseHand, BaseRecord, BidEntry, Entry, Hands, PassEntry, TrumpEntry
from boneyard.protocol.tables import BaseCreateTable, BaseTable, seats_below
from boneyard.protocol.values import (
    Bid,
    Count,
    Score,
    Seat,
    Seq,
    Tile,
    TrickPlay,
    Trump,
)
from boneyard.protocol.wiregames import WireGame, register_wire_game


class MoonTable(BaseTable):
    """A Three-Player Moon table."""

    game: Literal["moon"]
    options: MoonOptions
    """Every option, defaults included."""


class CreateMoonTable(BaseCreateTable):
    """Create a Moon table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    model_config = ConfigDict(json_schema_extra={"allOf": [seats_below(3)]})

    game: Literal["moon"]
    options: MoonOptions = MoonOptions()
    """Omitted options take their defaults."""


class BidMade(GameEvent):
    """Moon: a seat bid."""

    type: Literal["bid_made"]
    seat: Seat
    bid: Bid


class HandThrownIn(GameEvent):
    """Moon: all passed; a new ``hand_started`` follows with a redeal."""

    type: Literal["hand_thrown_in"]
    hand: Count


class WidowTaken(GameEvent):
    """Moon: the high bidder took the widow into their hand. Private."""

    type: Literal["widow_taken"]
    seat: Seat
    tile: Tile | None
    """The widow; ``null`` for everyone but ``seat``."""


class Discarded(GameEvent):
    """Moon: the high bidder discarded a tile face down. Private."""

    type: Literal["discarded"]
    seat: Seat
    tile: Tile | None
    """The discard; ``null`` for everyone but ``seat``."""


class TrumpNamed(GameEvent):
    """Moon: the high bidder named trump."""

    type: Literal["trump_named"]
    seat: Seat
    trump: Trump


class MoonTilePlayed(GameEvent):
    """Moon: a tile was played to the trick."""

    type: Literal["tile_played"]
    seat: Seat
    tile: Tile


class TrickWon(GameEvent):
    """Moon: a trick is complete."""

    type: Literal["trick_won"]
    seat: Seat
    """The winner, who leads next."""
    tiles: Seq[Tile]
    """The trick's tiles in play order."""
    leader: Seat
    """Who led the trick."""
    tricks: Seq[Count]
    """Tricks taken so far this hand, per seat."""


class MoonHandScored(GameEvent):
    """Moon: the hand is scored."""

    type: Literal["hand_scored"]
    bidder: Seat
    bid: Bid
    tricks: Seq[Count]
    """Tricks taken per seat."""
    points: Seq[Score]
    """Points this hand, per seat."""
    scores: Seq[Score]
    """Cumulative scores, per seat."""


MoonEvent = Annotated[
    HandStarted
    | HandDealt
    | BidMade
    | Passed
    | HandThrownIn
    | WidowTaken
    | Discarded
    | TrumpNamed
    | MoonTilePlayed
    | TrickWon
    | MoonHandScored
    | GameOver,
    Field(discriminator="type"),
]


class MoonEventMessage(EventMessageBase):
    """Something happened at a Moon table."""

    game: Literal["moon"]
    event: MoonEvent


class MoonView(BaseView):
    """A Moon game as the receiver sees it (the engine's view, field for field)."""

    game: Literal["moon"]
    viewer: Seat | None
    """The receiver's seat; ``null`` for a spectator."""
    hand_number: Count
    """The hand being played, from 0 (thrown-in hands count)."""
    phase: Literal["bidding", "discarding", "naming_trump", "playing", "scored", "thrown_in", "over"]
    """Where the hand is; ``scored`` and ``thrown_in`` last only until the next deal."""
    hand: Seq[Tile]
    """The receiver's tiles (trumps first once trump is named); empty for a spectator."""
    tile_counts: Seq[Count]
    """Tiles in each seat's hand."""
    first: Seat
    """This hand's first bidder."""
    bids: Seq[Bid | Literal["pass"] | None]
    """Per seat: the bid, ``"pass"``, or ``null`` if the seat has not spoken yet this hand."""
    high_bidder: Seat | None
    high_bid: Bid | None
    trump: Trump | None
    """``null`` until named."""
    trick: Seq[TrickPlay]
    """The current trick as ``[seat, tile]`` pairs in play order."""
    leader: Seat | None
    """Who leads (led) the current trick."""
    played: Seq[Seq[TrickPlay]]
    """The hand's completed tricks, each as ``[seat, tile]`` pairs in play order."""
    tricks: Seq[Count]
    """Tricks taken this hand, per seat."""
    scores: Seq[Score]
    """Cumulative scores, per seat."""
    target: Annotated[int, Strict(), Field(ge=1, le=1000)]
    """The score that wins."""
    to_move: Seat | None
    """``null`` once the game is over."""
    legal_actions: Seq[Action]
    """The receiver's legal actions (empty unless the receiver is ``to_move``)."""
    discard: Tile | None
    """The bidder's own discard, shown only to the bidder; ``null`` otherwise."""
    winner: Seat | None
    """The winning seat once the game is over."""


class DiscardEntry(DiscardAction, Entry):
    """Moon: the bidder's discard."""


class MoonPlayEntry(Entry):
    """Moon: a tile played to a trick."""

    type: Literal["play"]
    tile: Tile


MoonEntry = Annotated[
    BidEntry | PassEntry | DiscardEntry | TrumpEntry | MoonPlayEntry, Field(discriminator="type")
]


class MoonHand(BaseHand):
    """One Moon hand (a thrown-in hand too)."""

    deal: Hands
    """Each seat's 7 dealt tiles."""
    widow: Tile
    """The face-down centre tile."""
    first: Seat
    """The first bidder."""
    actions: Seq[MoonEntry]
    scores: Seq[Score]
    """Cumulative scores after this hand, per seat."""


class MoonRecord(BaseRecord):
    """A Three-Player Moon game."""

    game: Literal["moon"]
    players: Annotated[int, Strict(), Field(ge=3, le=3)]
    options: MoonOptions
    """Every option in force, defaults included."""
    hands: Seq[MoonHand]


MOON_DEAL = DealRule(
    tiles=frozenset(t for t in TILES if t[1] > 0 or t == (0, 0)), rest="widow", rest_is_tile=True
)
"""22 tiles (no ``1-0`` to ``6-0``): 7 to each seat, the widow last."""

register_wire_game(
    WireGame(
        name="moon",
        options=MoonOptions,
        table=MoonTable,
        create_table=CreateMoonTable,
        event_message=MoonEventMessage,
        view=MoonView,
        record=MoonRecord,
        hand=MoonHand,
        deal=MOON_DEAL,
    )
)
