"""What one viewer may know of a Moon game: :class:`MoonView`.

A view is built from the engine's state but copies out only the viewer's own
tiles, public table state and, for the bidder, their own discard.

>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.moon.game import MoonGame
>>> game = MoonGame(dealer=RandomDealer(5))
>>> mine, theirs = game.view(game.to_move), game.view(None)
>>> len(mine.hand), theirs.hand, theirs.legal_actions, mine.tile_counts
(7, (), (), (7, 7, 7))
>>> sorted(mine.as_dict())[:4]
['bids', 'discard', 'first', 'hand']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.server.games.moon.actions import Action, action_to_dict
from boneyard.server.games.moon.rules import TRUMPS, TrumpName, display_key, ids_of
from boneyard.server.games.moon.state import OVER, PHASE_NAMES, MoonState
from boneyard.server.games.tiles import ALL_TILES, Tile

BidWord = int | str | None
"""A seat's word in the auction: ``None`` (not yet spoken), ``"pass"``, or the bid."""


@dataclass(frozen=True, slots=True)
class MoonView:
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
    trump: TrumpName | None
    trick: tuple[tuple[int, Tile], ...]
    """The current trick as ``(seat, tile)`` in play order."""
    leader: int | None
    played: tuple[tuple[tuple[int, Tile], ...], ...]
    """The completed tricks of this hand, each as ``(seat, tile)`` in play order."""
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    to_move: int | None
    legal_actions: tuple[Action, ...]
    discard: Tile | None
    """The bidder's own discard, shown only to the bidder."""
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
            "trick": [[s, list(t)] for s, t in self.trick],
            "leader": self.leader,
            "played": [[[s, list(t)] for s, t in trick] for trick in self.played],
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "target": self.target,
            "to_move": self.to_move,
            "legal_actions": [action_to_dict(a) for a in self.legal_actions],
            "discard": None if self.discard is None else list(self.discard),
            "winner": self.winner,
        }


def make_view(
    st: MoonState,
    played: Sequence[tuple[tuple[int, Tile], ...]],
    viewer: int | None,
    legal: tuple[Action, ...],
) -> MoonView:
    """Build ``viewer``'s view of ``st`` (``played``: the hand's completed tricks, kept by the engine)."""
    trump = st.trump if st.trump >= 0 else None
    hand: tuple[Tile, ...] = ()
    if viewer is not None:
        own = sorted(ids_of(st.hands[viewer]), key=lambda i: display_key(i, trump))
        hand = tuple(ALL_TILES[i] for i in own)
    bidder = st.bidder if st.bidder >= 0 else None
    over = st.phase == OVER
    return MoonView(
        viewer=viewer,
        hand_number=st.hand_number,
        phase=PHASE_NAMES[st.phase],
        hand=hand,
        tile_counts=tuple(h.bit_count() for h in st.hands),
        first=st.first,
        bids=tuple(None if b < 0 else "pass" if b == 0 else b for b in st.bids),
        high_bidder=bidder,
        high_bid=st.high_bid or None,
        trump=None if trump is None else TRUMPS[trump],
        trick=tuple(((st.leader + i) % 3, ALL_TILES[t]) for i, t in enumerate(st.trick)),
        leader=st.leader if st.leader >= 0 else None,
        played=tuple(played),
        tricks=tuple(st.taken),
        scores=tuple(st.scores),
        target=st.target,
        to_move=None if over or st.to_move < 0 else st.to_move,
        legal_actions=legal,
        discard=ALL_TILES[st.discard]
        if viewer is not None and viewer == bidder and st.discard >= 0
        else None,
        winner=st.winner if over else None,
    )
