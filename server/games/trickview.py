"""What one viewer may know of a trick-taking game, as far as Moon and Texas 42 share it.

:class:`TrickView` holds the table as every trick game shows it (the viewer's own tiles only, the auction,
the trick, the tricks taken, the scores, the legal actions of the seat to move); each game's view adds its
own fields (Moon's trump and the bidder's discard, Texas 42's contract, the nello partner sitting out and
the hand's points). :func:`view_fields` reads those shared fields from a lean state.

>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.texas42.game import Texas42Game
>>> game = Texas42Game(dealer=RandomDealer(5))
>>> fields = view_fields(game._st, None, phase="bidding", over=False, trick=(), played=(), scores=(0, 0))
>>> fields["hand"], fields["tile_counts"], fields["to_move"] == game.to_move
((), (7, 7, 7, 7), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from boneyard.server.games.tiles import ALL_TILES, Tile
from boneyard.server.games.trickgame import TrickState
from boneyard.server.games.tricks import display_key, ids_of


class Recorded(Protocol):
    """An action with its record form (every trick game's actions)."""

    def as_dict(self) -> dict[str, Any]: ...


A = TypeVar("A", bound=Recorded)

BidWord = int | str | None
"""A seat's word in the auction: ``None`` (not yet spoken), ``"pass"``, or the bid."""

Trick = tuple[tuple[int, Tile], ...]
"""A trick as ``(seat, tile)`` in play order."""


@dataclass(frozen=True, slots=True)
class TrickView(Generic[A]):
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
    trick: Trick
    """The current trick."""
    leader: int | None
    played: tuple[Trick, ...]
    """The completed tricks of this hand."""
    tricks: tuple[int, ...]
    """Tricks taken per seat this hand."""
    scores: tuple[int, ...]
    target: int
    to_move: int | None
    legal_actions: tuple[A, ...]
    winner: int | None

    def shared_dict(self) -> dict[str, Any]:
        """The shared fields' JSON-friendly form: tiles as ``[high, low]`` lists, actions as record entries
        without seat (each game's ``as_dict`` adds its own fields)."""
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
            "trick": [[s, list(t)] for s, t in self.trick],
            "leader": self.leader,
            "played": [[[s, list(t)] for s, t in trick] for trick in self.played],
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "target": self.target,
            "to_move": self.to_move,
            "legal_actions": [a.as_dict() for a in self.legal_actions],
            "winner": self.winner,
        }


class ViewFields(TypedDict):
    """:class:`TrickView`'s fields but the legal actions, as :func:`view_fields` reads them."""

    viewer: int | None
    hand_number: int
    phase: str
    hand: tuple[Tile, ...]
    tile_counts: tuple[int, ...]
    first: int
    bids: tuple[BidWord, ...]
    high_bidder: int | None
    high_bid: int | None
    trick: Trick
    leader: int | None
    played: tuple[Trick, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    to_move: int | None
    winner: int | None


def view_fields(
    st: TrickState,
    viewer: int | None,
    *,
    phase: str,
    over: bool,
    trick: Trick,
    played: Sequence[Trick],
    scores: Sequence[int],
) -> ViewFields:
    """The shared fields of ``viewer``'s view of ``st``: ``phase`` named and ``over`` said by the game,
    the ``trick`` with its seats, the hand's ``played`` tricks (kept by the engine), the ``scores`` shown."""
    hand: tuple[Tile, ...] = ()
    if viewer is not None:
        trump = st.trump if st.trump >= 0 else None
        hand = tuple(
            ALL_TILES[i] for i in sorted(ids_of(st.hands[viewer]), key=lambda i: display_key(i, trump))
        )
    return ViewFields(
        viewer=viewer,
        hand_number=st.hand_number,
        phase=phase,
        hand=hand,
        tile_counts=tuple(h.bit_count() for h in st.hands),
        first=st.first,
        bids=tuple(None if b < 0 else "pass" if b == 0 else b for b in st.bids),
        high_bidder=st.bidder if st.bidder >= 0 else None,
        high_bid=st.high_bid or None,
        trick=trick,
        leader=st.leader if st.leader >= 0 else None,
        played=tuple(played),
        tricks=tuple(st.taken),
        scores=tuple(scores),
        target=st.target,
        to_move=None if over or st.to_move < 0 else st.to_move,
        winner=st.winner if over else None,
    )
