"""Straight Dominoes' table options (docs/RULES.md S1, S13).

>>> StraightOptions(players=3).as_dict(), StraightOptions(players=3).partnerships
({'players': 3, 'partnerships': False, 'target': 250}, None)
>>> StraightOptions.fixed_players() is None
True
"""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, Strict, model_validator
from pydantic_core import PydanticCustomError

from boneyard.protocol.values import PARTNERSHIP_PLAYERS, Bool, GameOptions, check_partnerships, in_words


class StraightOptions(GameOptions):
    """Straight Dominoes table options (docs/RULES.md S1, S13)."""

    players: Annotated[int, Strict(), Field(ge=2, le=4), in_words("players must be 2, 3 or 4")] = 4
    """Number of seats, 2..4."""
    partnerships: Annotated[Bool | None, in_words("partnerships must be true, false or null")] = None
    """Seats 0+2 against 1+3; only with 4 players. ``null`` means the default: on for 4 players."""
    target: Annotated[
        int, Strict(), Field(ge=1, le=10_000), in_words("target must be a whole number from 1 to 10000")
    ] = 250
    """The score that wins the game."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"partnerships": {"const": True}}, "required": ["partnerships"]},
            "then": {"properties": {"players": {"const": PARTNERSHIP_PLAYERS}}},
        }
    )

    @model_validator(mode="after")
    def _partnerships_need_four(self) -> StraightOptions:
        try:
            check_partnerships(self.players, self.partnerships)
        except ValueError as error:
            raise PydanticCustomError("invalid_options", str(error)) from None
        return self

    @property
    def teams(self) -> bool:
        """Whether this table plays in partnerships: ``partnerships``, or its default (on for 4 players)."""
        return self.players == PARTNERSHIP_PLAYERS if self.partnerships is None else self.partnerships

    def resolved(self) -> dict[str, object]:
        return {"partnerships": self.teams}
