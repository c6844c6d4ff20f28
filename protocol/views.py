"""``snapshot``: a table and its game exactly as the receiver may see them.

A snapshot replaces everything a client knew about that table. The server sends one
after ``join``/``spectate``, when a game starts, and after a resume it could not replay.
A view never holds a tile its receiver could not see at the table: other seats' hands
are only counts, the widow and discard are hidden from all but the bidder, the boneyard
is a count.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from boneyard.protocol.envelope import ReplyBase
from boneyard.protocol.game import Action
from boneyard.protocol.lobby import ChatLine, TableInfo
from boneyard.protocol.pause import PauseInfo
from boneyard.protocol.texas42 import TexasView
from boneyard.protocol.values import (
    Bid,
    Bool,
    Count,
    End,
    Pip,
    Score,
    Seat,
    Seq,
    Tile,
    TrickPlay,
    Trump,
    WireModel,
)


class MoonView(WireModel):
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


class StraightView(WireModel):
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


View = Annotated[MoonView | StraightView | TexasView, Field(discriminator="game")]


class Snapshot(ReplyBase):
    """A table and its game as the receiver may see them. Replaces all earlier state of that table."""

    type: Literal["snapshot"]
    table: TableInfo
    view: View | None
    """The game; ``null`` while the table is waiting for players."""
    time_left_ms: Count | None
    """Milliseconds left for the seat to move; ``null``: no timer running."""
    pause: PauseInfo | None = None
    """Feature ``hand_pause``: the table is pausing between hands (the ``view`` shows the hand that
    ended); ``null`` otherwise. (A field added within v1: an older server leaves it out.)"""
    chat: Seq[ChatLine] = ()
    """The table's chat history: its latest lines, oldest first, at most ``CHAT_HISTORY_LINES`` (50),
    so that a late joiner or a spectator sees what was said before they came. Chat is public at the
    table. The server keeps the history in memory only: a restart forgets it. (A field added within
    v1: an older server leaves it out.)"""
