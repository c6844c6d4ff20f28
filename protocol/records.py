"""The public game record, ``boneyard-record/1`` (RECORD-FORMAT.md), and fetching it.

The models are strict: the server validates every record it writes with
:data:`RECORD_ADAPTER` before storing it. Third-party readers should ignore fields they
do not know (fields may be added within version 1).

>>> record = RECORD_ADAPTER.validate_json(
...     '{"format": "boneyard-record/1", "game": "straight", "players": 2,'
...     ' "options": {"players": 2, "partnerships": false, "target": 10},'
...     ' "hands": [{"deal": [[[6, 1]], [[5, 2]]], "boneyard": [], "first": 0,'
...     ' "actions": [{"seat": 0, "type": "play", "tile": [5, 5], "end": null}], "scores": [10, 0]}],'
...     ' "final_scores": [10, 0], "winner": 0}')
>>> record.hands[0].actions[0]
StraightPlayEntry(seat=0, auto=False, type='play', tile=(5, 5), end=None)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict, TypeAdapter, model_validator

from boneyard.protocol.deals import DealProof
from boneyard.protocol.envelope import CommandBase, ReplyBase
from boneyard.protocol.game import BidAction, DiscardAction, PassAction, TrumpAction
from boneyard.protocol.values import (
    Bool,
    Contract,
    Count,
    End,
    Id,
    MoonOptions,
    Name,
    Score,
    Seat,
    Seq,
    Str,
    StraightOptions,
    TexasBid,
    TexasOptions,
    Tile,
    WireModel,
    check_all_fields_set,
)

RECORD_FORMAT = "boneyard-record/1"


class Entry(WireModel):
    """Base of a record's action entries: who acted, and whether the server acted for them.

    An entry is an action (``type`` and its fields) plus ``seat`` and ``auto``.
    """

    seat: Seat
    # Written only when true, as RECORD-FORMAT.md says.
    auto: Bool = Field(default=False, exclude_if=lambda auto: not auto)
    """True when the server acted for the player (timeout, disconnection)."""


class BidEntry(BidAction, Entry):
    """Moon: a bid."""


class PassEntry(PassAction, Entry):
    """A pass (both games)."""


class DiscardEntry(DiscardAction, Entry):
    """Moon: the bidder's discard."""


class TrumpEntry(TrumpAction, Entry):
    """Moon: trump named."""


class MoonPlayEntry(Entry):
    """Moon: a tile played to a trick."""

    type: Literal["play"]
    tile: Tile


class StraightPlayEntry(Entry):
    """Straight: a tile played on an end."""

    type: Literal["play"]
    tile: Tile
    end: End | None
    """``null`` for the opening tile."""


class DrawEntry(Entry):
    """Straight: a draw from the boneyard."""

    type: Literal["draw"]
    tile: Tile
    """The tile drawn: always the next tile of the hand's ``boneyard``."""


MoonEntry = Annotated[
    BidEntry | PassEntry | DiscardEntry | TrumpEntry | MoonPlayEntry, Field(discriminator="type")
]
StraightEntry = Annotated[StraightPlayEntry | DrawEntry | PassEntry, Field(discriminator="type")]
Texas42Entry = Annotated[BidEntry | PassEntry | TrumpEntry | MoonPlayEntry, Field(discriminator="type")]

Hands = Seq[Seq[Tile]]


def _check_deals(players: int, deals: list[tuple[tuple[Tile, ...], ...]], proof: DealProof | None) -> None:
    if any(len(deal) != players for deal in deals):
        raise ValueError(f"every hand's deal must have {players} entries, one per seat")
    if proof is not None and len(proof.player_seeds) != players:
        raise ValueError(f"fairness.player_seeds must have {players} entries, one per seat")


class MoonHand(WireModel):
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


class StraightHand(WireModel):
    """One Straight hand."""

    deal: Hands
    """Each seat's 7 dealt tiles."""
    boneyard: Seq[Tile]
    """The undealt tiles in the order they are drawn."""
    first: Seat
    """The player who leads."""
    actions: Seq[StraightEntry]
    scores: Seq[Score]
    """Cumulative scores after this hand, per seat (per team with partnerships)."""


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


class Texas42Hand(WireModel):
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


class BaseRecord(WireModel):
    """Base of a finished game's record."""

    format: Literal["boneyard-record/1"]
    game: Str
    players: Annotated[int, Strict(), Field(ge=2, le=4)]
    """The number of seats."""
    # Redeclared by each game; declared here to keep the documented key order.
    options: MoonOptions | StraightOptions | TexasOptions
    seat_names: Seq[Name] | None = Field(default=None, exclude_if=lambda names: names is None)
    """Optional: the players' display names, per seat."""
    hands: Seq[MoonHand] | Seq[StraightHand] | Seq[Texas42Hand]
    final_scores: Seq[Score]
    winner: Seat
    """The winning seat, or team (0 = seats 0+2, 1 = seats 1+3) with partnerships."""
    fairness: DealProof | None = Field(default=None, exclude_if=lambda proof: proof is None)
    """Optional: the seeds that fixed every deal (``boneyard-deal/1``), so anyone can recompute them."""


class MoonRecord(BaseRecord):
    """A Three-Player Moon game."""

    game: Literal["moon"]
    players: Annotated[int, Strict(), Field(ge=3, le=3)]
    options: MoonOptions
    """Every option in force, defaults included."""
    hands: Seq[MoonHand]

    @model_validator(mode="after")
    def _all_options(self) -> MoonRecord:
        check_all_fields_set(self.options)
        _check_deals(self.players, [h.deal for h in self.hands], self.fairness)
        return self


class StraightRecord(BaseRecord):
    """A Straight Dominoes game."""

    game: Literal["straight"]
    options: StraightOptions
    """Every option in force, defaults included (``partnerships`` true or false)."""
    hands: Seq[StraightHand]

    @model_validator(mode="after")
    def _options_fit(self) -> StraightRecord:
        check_all_fields_set(self.options)
        if self.options.players != self.players or self.options.partnerships is None:
            raise ValueError("options.players must equal players and partnerships be true or false")
        _check_deals(self.players, [h.deal for h in self.hands], self.fairness)
        return self


class Texas42Record(BaseRecord):
    """A Texas 42 game: ``final_scores`` are marks and ``winner`` a partnership."""

    game: Literal["texas42"]
    players: Annotated[int, Strict(), Field(ge=4, le=4)]
    options: TexasOptions
    """Every option in force, defaults included."""
    hands: Seq[Texas42Hand]

    @model_validator(mode="after")
    def _all_options(self) -> Texas42Record:
        check_all_fields_set(self.options)
        _check_deals(self.players, [h.deal for h in self.hands], self.fairness)
        return self


Record = Annotated[MoonRecord | StraightRecord | Texas42Record, Field(discriminator="game")]
"""A ``boneyard-record/1`` object."""

RECORD_ADAPTER: TypeAdapter[MoonRecord | StraightRecord | Texas42Record] = TypeAdapter(Record)
"""Validates a record (``validate_python`` for dicts, ``validate_json`` for JSON text)."""


class GetRecord(CommandBase):
    """Fetch a finished game's record. Reply: ``record``."""

    type: Literal["get_record"]
    record_id: Id
    """From ``game_over``."""


class RecordMessage(ReplyBase):
    """A finished game's record."""

    type: Literal["record"]
    record_id: Id
    record: Record
