"""Texas 42's table options (docs/RULES.md T5, T11, T12).

>>> TexasOptions().as_dict(), TexasOptions.fixed_players()
({'all_pass': 'force_last', 'nello': False, 'target': 7}, 4)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from boneyard.protocol.values import Bool, GameOptions, in_words


class TexasOptions(GameOptions):
    """Texas 42 table options (docs/RULES.md T5, T11, T12)."""

    all_pass: Annotated[
        Literal["force_last", "redeal"], in_words("all_pass must be 'force_last' or 'redeal'")
    ] = "force_last"
    """When the first three pass: the fourth must bid, or (``redeal``) four passes throw the hand in."""
    nello: Annotated[Bool, in_words("nello must be true or false")] = False
    """A bidder who won with a mark bid may name ``nello`` (to lose every trick, the partner sitting out)."""
    target: Annotated[
        int, Strict(), Field(ge=1, le=21), in_words("target must be a number of marks from 1 to 21")
    ] = 7
    """The marks that win the game."""

    @property
    def players(self) -> int:
        """Texas 42 is always four players, in two partnerships."""
        return 4
