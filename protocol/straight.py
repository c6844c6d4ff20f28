"""Straight Dominoes on the wire: its options, table, ``create_table``, events, view (with the
layout) and record hand, and its :class:`~boneyard.protocol.wiregames.WireGame` (docs/RULES.md, S1-S13).

Straight deals 7 tiles to each of 2-4 seats; the rest is the boneyard, drawn in order.

>>> from boneyard.protocol.wiregames import wire_game
>>> wire_game("straight").options(players=2).players
2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict, model_validator

from boneyard.protocol.fairness import DealRule
from boneyard.protocol.options.straight import StraightOptions as StraightOptions
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
from boneyard.protocol.recordbase import BaseHand, BaseRecord, Entry, Hands, PassEntry
from boneyard.protocol.tables import BaseCreateTable, BaseTable, seats_below
from boneyard.protocol.values import (
    Bool,
    Count,
    End,
    Pip,
    Score,
    Seat,
    Seq,
    Tile,
    WireModel,
)
from boneyard.protocol.wiregames import WireGame, register_wire_game


class StraightTable(BaseTable):
    """A Straight Dominoes table."""

    game: Literal["straight"]
    options: StraightOptions
    """Every option, defaults included; ``partnerships`` is true or false, never ``null``."""

    @model_validator(mode="after")
    def _partnerships_resolved(self) -> StraightTable:
        if self.options.partnerships is None:
            raise ValueError("partnerships must be resolved to true or false")
        return self


def _straight_seats(players: int) -> dict[str, Any]:
    options = {"properties": {"players": {"const": players}}, "required": ["players"]}
    return {"if": {"properties": {"options": options}, "required": ["options"]}, "then": seats_below(players)}


class CreateStraightTable(BaseCreateTable):
    """Create a Straight table. Reply: ``table_created``, then ``seated`` and ``snapshot`` if seated."""

    model_config = ConfigDict(json_schema_extra={"allOf": [_straight_seats(2), _straight_seats(3)]})

    game: Literal["straight"]
    options: StraightOptions = StraightOptions()
    """Omitted options take their defaults."""


class StraightTilePlayed(GameEvent):
    """Straight: a tile was played on the layout."""

    type: Literal["tile_played"]
    seat: Seat
    tile: Tile
    end: End | None
    """Where it went; ``null`` for the opening tile."""
    count: Count
    """The count after the play (docs/RULES.md S7)."""
    points: Count
    """Points it scored (0 if none)."""
    scores: Seq[Score]
    """Cumulative scores, per seat (per team with partnerships)."""


class TileDrawn(GameEvent):
    """Straight: a seat drew from the boneyard. Private."""

    type: Literal["tile_drawn"]
    seat: Seat
    tile: Tile | None
    """The tile drawn; ``null`` for everyone but ``seat``."""
    boneyard: Count
    """Tiles left to draw."""


class Domino(GameEvent):
    """Straight: a seat played its last tile."""

    type: Literal["domino"]
    seat: Seat


class Blocked(GameEvent):
    """Straight: nobody can play and the boneyard is empty."""

    type: Literal["blocked"]


class StraightHandScored(GameEvent):
    """Straight: the end-of-hand award."""

    type: Literal["hand_scored"]
    winner: Seat | None
    """The seat (team with partnerships) awarded points; ``null`` when nobody scores or several share."""
    points: Seq[Count]
    """The award this hand, per seat (per team)."""
    pips: Seq[Count]
    """Pips left in each seat's hand."""
    hands: Seq[Seq[Tile]]
    """The tiles left in each seat's hand, shown for the count."""
    scores: Seq[Score]
    """Cumulative scores, per seat (per team)."""
    winners: Seq[Seat]
    """Every seat (team) that won or shared the award; empty when nobody scores."""


StraightEvent = Annotated[
    HandStarted
    | HandDealt
    | StraightTilePlayed
    | TileDrawn
    | Passed
    | Domino
    | Blocked
    | StraightHandScored
    | GameOver,
    Field(discriminator="type"),
]


class StraightEventMessage(EventMessageBase):
    """Something happened at a Straight table."""

    game: Literal["straight"]
    event: StraightEvent


class PlacedTile(WireModel):
    """A tile in an arm of a Straight layout, oriented as it lies."""

    tile: Tile
    inner: Pip
    """The number touching the tile nearer the centre."""
    outer: Pip
    """The number facing outward (the same as ``inner`` for a double)."""
    crosswise: Bool
    """A double, lying across the line."""


class Layout(WireModel):
    """The tiles on the table in Straight (see docs/RULES.md, "Naming the ends").

    The opening tile is the centre, its high number facing ``left``. ``left`` and ``right``
    hold the line's arms outward from it; ``up`` and ``down`` the spinner's crosswise arms
    outward from the spinner. The spinner is the opening tile (``spinner_arm`` ``centre``)
    or the tile at ``spinner_index`` in the ``left`` or ``right`` arm.
    """

    opening: Tile | None
    """``null`` until the hand's first tile is played."""
    spinner: Tile | None
    """The first double played; ``null`` until one is played."""
    spinner_arm: Literal["centre", "left", "right"] | None
    spinner_index: Count | None
    """The spinner's position in ``spinner_arm`` (``null`` when it is the opening tile)."""
    arms: dict[End, Seq[PlacedTile]]
    """Per end name, the tiles of that arm in order outward."""
    open_ends: dict[End, Pip]
    """The open ends and the number each exposes; ``up``/``down`` appear once they are open."""
    count: Count
    """The count of the layout (docs/RULES.md S7)."""


class StraightView(BaseView):
    """A Straight game as the receiver sees it (the engine's view, field for field)."""

    game: Literal["straight"]
    viewer: Seat | None
    """The receiver's seat; ``null`` for a spectator."""
    hand_number: Count
    """The hand being played, from 0."""
    players: Annotated[int, Strict(), Field(ge=2, le=4)]
    partnerships: Bool
    target: Annotated[int, Strict(), Field(ge=1, le=10_000)]
    """The score that wins."""
    hand: Seq[Tile]
    """The receiver's tiles; empty for a spectator."""
    tile_counts: Seq[Count]
    """Tiles in each seat's hand."""
    boneyard: Count
    """Tiles left to draw."""
    layout: Layout
    count: Count
    """The count of the layout (as in ``layout.count``)."""
    scores: Seq[Score]
    """Cumulative scores, per seat (per team with partnerships)."""
    leader: Seat
    """Who led this hand."""
    to_move: Seat | None
    """``null`` once the game is over."""
    legal_actions: Seq[Action]
    """The receiver's legal actions (empty unless the receiver is ``to_move``)."""
    is_over: Bool
    winner: Seat | None
    """The winning seat (team with partnerships) once the game is over."""


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


StraightEntry = Annotated[StraightPlayEntry | DrawEntry | PassEntry, Field(discriminator="type")]


class StraightHand(BaseHand):
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


class StraightRecord(BaseRecord):
    """A Straight Dominoes game."""

    game: Literal["straight"]
    options: StraightOptions
    """Every option in force, defaults included (``partnerships`` true or false)."""
    hands: Seq[StraightHand]

    @model_validator(mode="after")
    def _partnerships_resolved(self) -> StraightRecord:
        if self.options.partnerships is None:
            raise ValueError("options.partnerships must be true or false")
        return self


def straight_blocked(hand: Mapping[str, Any], seats: int) -> bool:
    """A record's hand ended blocked (so chance picks the next hand's leader, S3): after its
    actions every seat still holds a tile (7 dealt, plus its draws, minus its plays); otherwise a seat
    played its last tile (domino). Meaningful for every hand but a game's last (which may end mid-hand)."""
    left = [len(tiles) for tiles in hand.get("deal", [])]
    for entry in hand.get("actions", []):
        seat = entry.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(left):
            left[seat] += {"draw": 1, "play": -1}.get(entry.get("type"), 0)
    return len(left) == seats and all(n > 0 for n in left)


register_wire_game(
    WireGame(
        name="straight",
        options=StraightOptions,
        table=StraightTable,
        create_table=CreateStraightTable,
        event_message=StraightEventMessage,
        view=StraightView,
        record=StraightRecord,
        hand=StraightHand,
        deal=DealRule(rest="boneyard", chance_after=straight_blocked),
        types=(Layout,),
    )
)
