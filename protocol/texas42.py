"""Texas 42 on the wire: its options, table and ``create_table``, its game events (inside ``event``
messages with ``game: "texas42"``), its view (in ``snapshot``), its record hand and record, and its
:class:`~boneyard.protocol.wiregames.WireGame` (every tile dealt: 4 x 7). Its actions are the common
ones (``bid`` in points, ``pass``, ``trump`` with ``"nello"``, ``play``).

Scores are marks per partnership (team 0: seats 0+2; team 1: seats 1+3); a hand's points (a point a
trick and the count) are per partnership too (docs/RULES.md T8-T12).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from boneyard.protocol.fairness import DealRule
from boneyard.protocol.moon import HandThrownIn, MoonPlayEntry, MoonTilePlayed
from boneyard.protocol.options.texas42 import TexasOptions as TexasOptions
from boneyard.protocol.play import (
    Action,
    BaseView,
    EventMessageBase,
    GameEvent,
    GameOver,
    HandDealt,
    HandStarted,
    Passed,
)
from boneyard.protocol.recordbase import BaseHand, BaseRecord, BidEntry, Hands, PassEntry, TrumpEntry
from boneyard.protocol.tables import BaseCreateTable, BaseTable
from boneyard.protocol.values import (
    Bool,
    Contract,
    Count,
    Score,
    Seat,
    Seq,
    TexasBid,
    Tile,
    TrickPlay,
    WireModel,
)
from boneyard.protocol.wiregames import WireGame, register_wire_game


class Texas42Table(BaseTable):
    """A Texas 42 table."""

    game: Literal["texas42"]
    options: TexasOptions
    """Every option, defaults included."""


class CreateTexas42Table(BaseCreateTable):
    """Create a Texas 42 table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    game: Literal["texas42"]
    options: TexasOptions = TexasOptions()
    """Omitted options take their defaults."""


Teams = Annotated[Seq[Count], Field(min_length=2, max_length=2)]
"""One number per partnership: team 0 (seats 0+2), team 1 (seats 1+3)."""


class TexasBidMade(GameEvent):
    """A seat bid, in points (42, 84, ... are one, two, ... marks)."""

    type: Literal["bid_made"]
    seat: Seat
    bid: TexasBid


class TexasTrumpNamed(GameEvent):
    """The bidder named trump, or ``nello``."""

    type: Literal["trump_named"]
    seat: Seat
    trump: Contract
    out: Seat | None = None
    """Nello: the bidder's partner, who sits the hand out; ``null`` otherwise."""


class TexasTrickWon(GameEvent):
    """A trick is complete."""

    type: Literal["trick_won"]
    seat: Seat
    """The winner, who leads next."""
    tiles: Seq[Tile]
    """The trick's tiles in play order (three in a nello hand)."""
    leader: Seat
    points: Teams
    """Points each partnership has taken so far this hand (T8)."""
    tricks: Seq[Count]
    """Tricks taken so far this hand, per seat."""


class TexasHandScored(GameEvent):
    """The hand is decided (it stops at the trick that decides it, T10)."""

    type: Literal["hand_scored"]
    bidder: Seat
    bid: TexasBid
    trump: Contract
    made: Bool
    points: Teams
    """Points each partnership took this hand."""
    marks: Teams
    """Marks this hand scored, per partnership (one of them 0)."""
    scores: Teams
    """Cumulative marks, per partnership."""


Texas42Event = Annotated[
    HandStarted
    | HandDealt
    | TexasBidMade
    | Passed
    | HandThrownIn
    | TexasTrumpNamed
    | MoonTilePlayed
    | TexasTrickWon
    | TexasHandScored
    | GameOver,
    Field(discriminator="type"),
]


class Texas42EventMessage(EventMessageBase):
    """Something happened at a Texas 42 table."""

    game: Literal["texas42"]
    event: Texas42Event


class TexasView(BaseView):
    """A Texas 42 game as the receiver sees it (the engine's view, field for field)."""

    game: Literal["texas42"]
    viewer: Seat | None
    """The receiver's seat; ``null`` for a spectator."""
    hand_number: Count
    phase: Literal["bidding", "naming_trump", "playing", "scored", "thrown_in", "over"]
    hand: Seq[Tile]
    """The receiver's own tiles only (never the partner's); empty for a spectator."""
    tile_counts: Seq[Count]
    first: Seat
    """This hand's first bidder."""
    bids: Seq[TexasBid | Literal["pass"] | None]
    high_bidder: Seat | None
    high_bid: TexasBid | None
    trump: Contract | None
    out: Seat | None
    """Nello: the partner who sits this hand out."""
    trick: Seq[TrickPlay]
    leader: Seat | None
    played: Seq[Seq[TrickPlay]]
    tricks: Seq[Count]
    """Tricks taken this hand, per seat."""
    points: Teams
    """Points this hand, per partnership."""
    scores: Seq[Score]
    """Marks, per partnership."""
    target: Annotated[int, Strict(), Field(ge=1, le=21)]
    """The marks that win."""
    to_move: Seat | None
    legal_actions: Seq[Action]
    winner: Seat | None
    """The winning partnership once the game is over."""


Texas42Entry = Annotated[BidEntry | PassEntry | TrumpEntry | MoonPlayEntry, Field(discriminator="type")]


class Texas42Result(WireModel):
    """How a Texas 42 hand ended (T9-T11)."""

    bidder: Seat
    bid: TexasBid
    """In points: 30-41, or 42 per mark."""
    trump: Contract
    made: Bool
    points: Seq[Count]
    """Points each partnership took (team 0: seats 0+2, team 1: seats 1+3): the tricks played only (T10)."""
    marks: Seq[Count]
    """Marks the hand scored, per partnership."""


class Texas42Hand(BaseHand):
    """One Texas 42 hand: every tile is dealt; it stops at the trick that decides it (T10)."""

    deal: Hands
    """Each seat's 7 dealt tiles."""
    first: Seat
    """The first bidder."""
    actions: Seq[Texas42Entry]
    result: Texas42Result | None = Field(default=None, exclude_if=lambda result: result is None)
    """The contract and its outcome; absent for a hand thrown in (option ``all_pass: redeal``)."""
    scores: Seq[Score]
    """Cumulative marks after this hand, per partnership."""


class Texas42Record(BaseRecord):
    """A Texas 42 game: ``final_scores`` are marks and ``winner`` a partnership."""

    game: Literal["texas42"]
    players: Annotated[int, Strict(), Field(ge=4, le=4)]
    options: TexasOptions
    """Every option in force, defaults included."""
    hands: Seq[Texas42Hand]


register_wire_game(
    WireGame(
        name="texas42",
        options=TexasOptions,
        table=Texas42Table,
        create_table=CreateTexas42Table,
        event_message=Texas42EventMessage,
        view=TexasView,
        record=Texas42Record,
        hand=Texas42Hand,
        deal=DealRule(),
    )
)
