"""What every game's record (``boneyard-record/1``, RECORD-FORMAT.md) has: the action entries the
games share, the base of a hand and :class:`BaseRecord` with the checks every record passes. Each
game's hand and record are in its wire module; :data:`boneyard.protocol.records.Record` chooses
the model by ``game``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict, model_validator

from boneyard.protocol.deals import DealProof
from boneyard.protocol.play import BidAction, PassAction, TrumpAction
from boneyard.protocol.values import (
    Bool,
    GameOptions,
    Name,
    Score,
    Seat,
    Seq,
    Str,
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


class TrumpEntry(TrumpAction, Entry):
    """Moon: trump named."""


Hands = Seq[Seq[Tile]]


class BaseHand(WireModel):
    """Base of a record's hand: the deal comes first in every game."""

    deal: Hands
    """Each seat's 7 dealt tiles."""


class BaseRecord(WireModel):
    """Base of a finished game's record."""

    format: Literal["boneyard-record/1"]
    game: Str
    players: Annotated[int, Strict(), Field(ge=2, le=4)]
    """The number of seats."""
    # Redeclared by each game; declared here to keep the documented key order.
    options: GameOptions
    seat_names: Seq[Name] | None = Field(default=None, exclude_if=lambda names: names is None)
    """Optional: the players' display names, per seat."""
    hands: Seq[BaseHand]
    final_scores: Seq[Score]
    winner: Seat
    """The winning seat, or team (0 = seats 0+2, 1 = seats 1+3) with partnerships."""
    fairness: DealProof | None = Field(default=None, exclude_if=lambda proof: proof is None)
    """Optional: the seeds that fixed every deal (``boneyard-deal/1``), so anyone can recompute them."""

    @model_validator(mode="after")
    def _fits(self) -> BaseRecord:
        check_all_fields_set(self.options)
        if self.options.players != self.players:
            raise ValueError(f"options.players must equal players ({self.players})")
        if any(len(hand.deal) != self.players for hand in self.hands):
            raise ValueError(f"every hand's deal must have {self.players} entries, one per seat")
        if self.fairness is not None and len(self.fairness.player_seeds) != self.players:
            raise ValueError(f"fairness.player_seeds must have {self.players} entries, one per seat")
        return self
