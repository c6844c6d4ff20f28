"""Duel on the wire (the test game's ``protocol`` part of the recipe): options, table, ``create_table``,
events, view, record hand and record, and its :class:`WireGame`. Registered by the tests only."""

from __future__ import annotations

from typing import Annotated, Literal

from duel_options import DuelOptions as DuelOptions
from duel_options import Target
from pydantic import Field

from boneyard.protocol.fairness import DealRule
from boneyard.protocol.play import (
    Action,
    BaseView,
    EventMessageBase,
    GameEvent,
    GameOver,
    HandDealt,
    HandStarted,
)
from boneyard.protocol.recordbase import BaseHand, BaseRecord, Entry, Hands
from boneyard.protocol.tables import BaseCreateTable, BaseTable
from boneyard.protocol.values import Count, Score, Seat, Seq, Tile, TrickPlay
from boneyard.protocol.wiregames import WireGame


class DuelTable(BaseTable):
    """A Duel table."""

    game: Literal["duel"]
    options: DuelOptions


class CreateDuelTable(BaseCreateTable):
    """Create a Duel table."""

    game: Literal["duel"]
    options: DuelOptions = DuelOptions()


class DuelTilePlayed(GameEvent):
    type: Literal["tile_played"]
    seat: Seat
    tile: Tile


class DuelTrickWon(GameEvent):
    type: Literal["trick_won"]
    seat: Seat
    tiles: Seq[Tile]
    tricks: Seq[Count]


class DuelHandScored(GameEvent):
    type: Literal["hand_scored"]
    tricks: Seq[Count]
    scores: Seq[Score]


class DuelEventMessage(EventMessageBase):
    """Something happened at a Duel table."""

    game: Literal["duel"]
    event: Annotated[
        HandStarted | HandDealt | DuelTilePlayed | DuelTrickWon | DuelHandScored | GameOver,
        Field(discriminator="type"),
    ]


class DuelView(BaseView):
    """A Duel game as the receiver sees it."""

    game: Literal["duel"]
    hand: Seq[Tile]
    tile_counts: Seq[Count]
    trick: Seq[TrickPlay]
    tricks: Seq[Count]
    scores: Seq[Score]
    target: Target
    to_move: Seat | None
    legal_actions: Seq[Action]
    winner: Seat | None


class DuelPlayEntry(Entry):
    type: Literal["play"]
    tile: Tile


class DuelHand(BaseHand):
    deal: Hands
    first: Seat
    actions: Seq[DuelPlayEntry]
    scores: Seq[Score]


class DuelRecord(BaseRecord):
    game: Literal["duel"]
    options: DuelOptions
    hands: Seq[DuelHand]


DUEL = WireGame(
    name="duel",
    options=DuelOptions,
    table=DuelTable,
    create_table=CreateDuelTable,
    event_message=DuelEventMessage,
    view=DuelView,
    record=DuelRecord,
    hand=DuelHand,
    deal=DealRule(
        tiles=frozenset((high, low) for high in range(1, 5) for low in range(1, high + 1)), hand_size=5
    ),
)
