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
from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.games.trickview import BidWord, Trick, TrickView, view_fields

__all__ = ["BidWord", "TexasView", "make_view"]


@dataclass(frozen=True, slots=True)
class TexasView(TrickView[Action]):
    """One viewer's knowledge of the table (:class:`~boneyard.server.games.trickview.TrickView`: bids in
    points, ``scores`` in marks per team, team 0 seats 0+2), with Texas 42's contract, the nello partner
    sitting out and the hand's points."""

    trump: TexasTrump | None
    out: int | None
    """Nello: the bidder's partner, who sits the hand out (T11)."""
    points: tuple[int, ...]
    """Points per team this hand: a point a trick plus the count in it (T8)."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form: tiles as ``[high, low]`` lists, actions as record entries without seat."""
        return {
            **TrickView.shared_dict(self),
            "trump": self.trump,
            "out": self.out,
            "points": list(self.points),
        }


def make_view(
    st: TexasState,
    played: Sequence[Trick],
    viewer: int | None,
    legal: tuple[Action, ...],
) -> TexasView:
    """Build ``viewer``'s view of ``st`` (``played``: the hand's completed tricks, kept by the engine)."""
    return TexasView(
        **view_fields(
            st,
            viewer,
            phase=PHASE_NAMES[st.phase],
            over=st.phase == OVER,
            trick=tuple(zip(st.by, (ALL_TILES[t] for t in st.trick), strict=True)),
            played=played,
            scores=st.marks,
        ),
        legal_actions=legal,
        trump=CONTRACTS[st.trump] if st.trump >= 0 else None,
        out=st.out if st.out >= 0 else None,
        points=tuple(st.points),
    )
