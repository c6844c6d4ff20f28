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

from boneyard.server.games.moon.actions import Action
from boneyard.server.games.moon.rules import TRUMPS, TrumpName
from boneyard.server.games.moon.state import OVER, PHASE_NAMES, MoonState
from boneyard.server.games.tiles import ALL_TILES, Tile
from boneyard.server.games.trickview import BidWord, Trick, TrickView, view_fields

__all__ = ["BidWord", "MoonView", "make_view"]


@dataclass(frozen=True, slots=True)
class MoonView(TrickView[Action]):
    """One viewer's knowledge of the table (:class:`~boneyard.server.games.trickview.TrickView`), with
    Moon's trump and the bidder's own discard."""

    trump: TrumpName | None
    discard: Tile | None
    """The bidder's own discard, shown only to the bidder."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form: tiles as ``[high, low]`` lists, actions as record entries without seat."""
        return {
            **TrickView.shared_dict(self),
            "trump": self.trump,
            "discard": None if self.discard is None else list(self.discard),
        }


def make_view(
    st: MoonState,
    played: Sequence[Trick],
    viewer: int | None,
    legal: tuple[Action, ...],
) -> MoonView:
    """Build ``viewer``'s view of ``st`` (``played``: the hand's completed tricks, kept by the engine)."""
    own_discard = viewer is not None and viewer == st.bidder and st.discard >= 0
    return MoonView(
        **view_fields(
            st,
            viewer,
            phase=PHASE_NAMES[st.phase],
            over=st.phase == OVER,
            trick=tuple(((st.leader + i) % 3, ALL_TILES[t]) for i, t in enumerate(st.trick)),
            played=played,
            scores=st.scores,
        ),
        legal_actions=legal,
        trump=TRUMPS[st.trump] if st.trump >= 0 else None,
        discard=ALL_TILES[st.discard] if own_discard else None,
    )
