"""What one viewer may know of a Texas 42 game: :class:`TexasView`.

A view copies out only the viewer's own tiles and the public table: partners see nothing of
each other's hands, and a nello bidder's partner's tiles stay hidden all hand.

>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.texas42.game import Texas42Game
>>> game = Texas42Game(dealer=RandomDealer(5))
>>> mine, theirs = game.view(game.to_move), game.view(None)
>>> len(mine.hand), theirs.hand, theirs.legal_actions, mine.tile_counts
(7, (), (), (7, 7, 7, 7))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.server.games.texas42.actions import Action
from boneyard.server.games.texas42.rules import CONTRACTS, TexasTrump
from boneyard.server.games.texas42.state import OVER, PHASE_NAMES, TexasState
from boneyard.server.games.tiles import ALL_TILES, Tile
from boneyard.server.games.tricks import display_key, ids_of

BidWord = int | str | None
"""A seat's word in the auction: ``None`` (not yet spoken), ``"pass"``, or the bid in points."""


@dataclass(frozen=True, slots=True)
class TexasView:
    """One viewer's knowledge of the table. Seats not to move and spectators get no legal actions."""

    viewer: int | None
    hand_number: int
    phase: str
    hand: tuple[Tile, ...]
    """The viewer's tiles: trumps first by rank once trump is named, then highest suit first."""
    tile_counts: tuple[int, ...]
    first: int
    bids: tuple[BidWord, ...]
    high_bidder: int | None
    high_bid: int | None
    trump: TexasTrump | None
    out: int | None
    """Nello: the bidder's partner, who sits the hand out (T11)."""
    trick: tuple[tuple[int, Tile], ...]
    """The current trick as ``(seat, tile)`` in play order."""
    leader: int | None
    played: tuple[tuple[tuple[int, Tile], ...], ...]
    """The completed tricks of this hand, each as ``(seat, tile)`` in play order."""
    tricks: tuple[int, ...]
    """Tricks taken per seat this hand."""
    points: tuple[int, ...]
    """Points per team this hand: a point a trick plus the count in it (T8)."""
    scores: tuple[int, ...]
    """Marks per team (team 0: seats 0+2)."""
    target: int
    to_move: int | None
    legal_actions: tuple[Action, ...]
    winner: int | None

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form: tiles as ``[high, low]`` lists, actions as record entries without seat."""
        return {
            "viewer": self.viewer,
            "hand_number": self.hand_number,
            "phase": self.phase,
            "hand": [list(t) for t in self.hand],
            "tile_counts": list(self.tile_counts),
            "first": self.first,
            "bids": list(self.bids),
            "high_bidder": self.high_bidder,
            "high_bid": self.high_bid,
            "trump": self.trump,
            "out": self.out,
            "trick": [[s, list(t)] for s, t in self.trick],
            "leader": self.leader,
            "played": [[[s, list(t)] for s, t in trick] for trick in self.played],
            "tricks": list(self.tricks),
            "points": list(self.points),
            "scores": list(self.scores),
            "target": self.target,
            "to_move": self.to_move,
            "legal_actions": [a.as_dict() for a in self.legal_actions],
            "winner": self.winner,
        }


def make_view(
    st: TexasState,
    played: Sequence[tuple[tuple[int, Tile], ...]],
    viewer: int | None,
    legal: tuple[Action, ...],
) -> TexasView:
    """Build ``viewer``'s view of ``st`` (``played``: the hand's completed tricks, kept by the engine)."""
    trump = st.trump if st.trump >= 0 else None
    hand: tuple[Tile, ...] = ()
    if viewer is not None:
        own = sorted(ids_of(st.hands[viewer]), key=lambda i: display_key(i, trump))
        hand = tuple(ALL_TILES[i] for i in own)
    over = st.phase == OVER
    return TexasView(
        viewer=viewer,
        hand_number=st.hand_number,
        phase=PHASE_NAMES[st.phase],
        hand=hand,
        tile_counts=tuple(h.bit_count() for h in st.hands),
        first=st.first,
        bids=tuple(None if b < 0 else "pass" if b == 0 else b for b in st.bids),
        high_bidder=st.bidder if st.bidder >= 0 else None,
        high_bid=st.high_bid or None,
        trump=None if trump is None else CONTRACTS[trump],
        out=st.out if st.out >= 0 else None,
        trick=tuple(zip(st.by, (ALL_TILES[t] for t in st.trick), strict=True)),
        leader=st.leader if st.leader >= 0 else None,
        played=tuple(played),
        tricks=tuple(st.taken),
        points=tuple(st.points),
        scores=tuple(st.marks),
        target=st.target,
        to_move=None if over or st.to_move < 0 else st.to_move,
        legal_actions=legal,
        winner=st.winner if over else None,
    )
