"""Matchmaking (feature ``seeks``): ``seek`` a kind of game, the server finds opponents of close rating
and seats everyone at a new table; ``cancel_seek``; the lobby hears how many seek what (``seeks``).

A seeker's rating window starts at ``SEEK_WINDOW`` rating points either side and widens by
``SEEK_WIDENING`` a second while they wait (as chess servers' pools do): a group is formed once every
member's window holds the whole group's ratings.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.ratings import RatingKind
from boneyard.protocol.values import Bool, BotLevel, Count, Int, Seq, WireModel

FEATURE_SEEKS = "seeks"
"""``hello.features`` names it when ``seek``, ``cancel_seek`` and ``seeks`` are in use (section 5,
"Matchmaking")."""

SEEK_WINDOW = 100
"""Rating points either side of a seeker's rating at first."""
SEEK_WIDENING = 25
"""Rating points the window widens by each second a seeker waits."""

BotAfterMs = Annotated[Int, Field(ge=0, le=600_000)]


class Seek(CommandBase):
    """Look for a game of ``kind``. Reply: ``ok``; later, when a group is found (or bots fill it), a
    ``seated`` (``reply_to`` null) and the table's ``snapshot``, as after ``join``. A new ``seek`` replaces
    the session's last one. ``rated`` needs a signed-in player (``not_signed_in``)."""

    type: Literal["seek"]
    kind: RatingKind
    rated: Bool = False
    """A rated game (section 5, "Rated games"): only rated seekers are grouped together."""
    bots_after_ms: BotAfterMs | None = None
    """Fill the seats nobody took with bots after this long (0: at once); ``null``: never, wait for people."""
    bot_level: BotLevel = "basic"
    """The bots that fill the seats, if any."""


class CancelSeek(CommandBase):
    """Stop looking (nothing happens if the session was not seeking). Reply: ``ok``."""

    type: Literal["cancel_seek"]


class SeekCount(WireModel):
    kind: RatingKind
    rated: Bool
    players: Count
    """How many are seeking it now."""


class Seeks(ServerMessageBase):
    """To the lobby (sessions at no table) whenever the number of seekers changes, and to a session that
    enters the lobby while anyone seeks: how many seek what."""

    type: Literal["seeks"]
    seeking: Seq[SeekCount]
    """Every kind someone seeks (an empty list: nobody)."""
