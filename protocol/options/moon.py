"""Three-Player Moon's table options (docs/RULES.md M5, M13).

>>> MoonOptions(target=7).as_dict(), MoonOptions.fixed_players()
({'all_pass': 'redeal', 'target': 7}, 3)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from boneyard.protocol.values import GameOptions, in_words


class MoonOptions(GameOptions):
    """Three-Player Moon table options (docs/RULES.md M5, M13)."""

    all_pass: Annotated[
        Literal["redeal", "force_last"], in_words("all_pass must be 'redeal' or 'force_last'")
    ] = "redeal"
    """What happens when all three pass: redeal, or the last to speak must bid."""
    target: Annotated[
        int, Strict(), Field(ge=1, le=1000), in_words("target must be a whole number from 1 to 1000")
    ] = 21
    """The score that wins the game."""

    @property
    def players(self) -> int:
        """Moon is always three players."""
        return 3
