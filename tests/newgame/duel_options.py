"""Duel's table options (the test game's ``protocol/options/<game>.py`` part of the recipe): the one
definition of each, which the wire module re-exports and the engine plays by."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from boneyard.protocol.values import Bool, GameOptions, in_words

Target = Annotated[int, Strict(), Field(ge=1, le=10), in_words("target must be a whole number from 1 to 10")]


class DuelOptions(GameOptions):
    """Duel's options."""

    target: Target = 3
    """The points that win."""
    double_points: Bool = False
    """Each trick scores two points instead of one."""

    @property
    def players(self) -> int:
        return 2
