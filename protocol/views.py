"""``snapshot``: a table and its game exactly as the receiver may see them.

A snapshot replaces everything a client knew about that table. The server sends one
after ``join``/``spectate``, when a game starts, and after a resume it could not replay.
A view never holds a tile its receiver could not see at the table: other seats' hands
are only counts, the widow and discard are hidden from all but the bidder, the boneyard
is a count.
"""

from __future__ import annotations

from typing import Literal

from boneyard.protocol.envelope import ReplyBase
from boneyard.protocol.lobby import ChatLine
from boneyard.protocol.moon import MoonView
from boneyard.protocol.pause import PauseInfo
from boneyard.protocol.straight import Layout, PlacedTile, StraightView
from boneyard.protocol.texas42 import TexasView
from boneyard.protocol.values import Count, Seq
from boneyard.protocol.wiregames import TableInfo, View

__all__ = ["Layout", "MoonView", "PlacedTile", "Snapshot", "StraightView", "TexasView", "View"]


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
