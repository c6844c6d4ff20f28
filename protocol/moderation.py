"""Moderation (feature ``moderation``): muting a player's chat for yourself, and reporting a player to the
server's operator.

A mute hides a player's chat lines from the muting session only, from then on (a table's chat history in a
``snapshot`` is not filtered); it changes nothing else: it is not a block, so nobody can dodge opponents
with it. A guest's mutes last as long as the session; a signed-in player's are the account's, kept for its
next sign-ins. A report is kept for the operator
(``boneyard-server players reports``); the reported player is not told.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boneyard.protocol.envelope import CommandBase
from boneyard.protocol.values import Name

FEATURE_MODERATION = "moderation"
"""``hello.features`` names it when ``mute``, ``unmute`` and ``report`` are accepted."""

REPORTS_PER_MINUTE = 5
"""Reports a session may send a minute; beyond: ``rate_limited``."""

ReportText = Annotated[str, Field(min_length=1, max_length=300)]


class Mute(CommandBase):
    """Hide ``player``'s chat lines from this session (by display name, in any case). Reply: ``ok``."""

    type: Literal["mute"]
    player: Name


class Unmute(CommandBase):
    """Show ``player``'s chat lines again. Reply: ``ok``."""

    type: Literal["unmute"]
    player: Name


class Report(CommandBase):
    """Report ``player`` (a display name) to the operator, saying why. Reply: ``ok``; more than
    ``REPORTS_PER_MINUTE`` (5) a minute: ``rate_limited``."""

    type: Literal["report"]
    player: Name
    reason: ReportText
