"""The building blocks of the examples: the :class:`Example` type and the data they share.

The shared data follows one Moon game at table ``t7k2``: ana (seat 0) bids 21 and
takes every trick, with bot-1 (seat 1) and li (seat 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel

from boneyard.protocol.messages import COMMAND_ADAPTER, SERVER_MESSAGE_ADAPTER

Direction = Literal["command", "server"]
Data = dict[str, Any]


def tiles(spec: str) -> list[list[int]]:
    """Tiles written compactly: ``"64 10"`` is ``[[6, 4], [1, 0]]``."""
    return [[int(t[0]), int(t[1])] for t in spec.split()]


TOKEN = "r3s9Qm2xVb8LkP0aZt4N"
SIXES = tiles("66 65 64 63 62 61 55")
BOT_HAND = tiles("54 53 52 51 44 43 42")
LI_HAND = tiles("41 33 32 31 22 21 11")


@dataclass(frozen=True)
class Example:
    """A message as a client or server would send it."""

    title: str
    direction: Direction
    data: dict[str, Any]

    @cached_property
    def model(self) -> BaseModel:
        """The validated model (raises if the example is wrong)."""
        adapter = COMMAND_ADAPTER if self.direction == "command" else SERVER_MESSAGE_ADAPTER
        model: BaseModel = adapter.validate_python(self.data)
        return model


def command(title: str, **data: Any) -> Example:
    """A client-to-server example."""
    return Example(title, "command", data)


def server(title: str, **data: Any) -> Example:
    """A server-to-client example."""
    return Example(title, "server", data)


def seat_info(
    seat: int, name: str | None, bot: bool = False, auto: bool = False, level: str = "good"
) -> dict[str, Any]:
    """A ``SeatInfo``; a named seat is connected; a bot seat has a ``level``."""
    return {
        "seat": seat,
        "name": name,
        "bot": bot,
        "connected": name is not None,
        "auto": auto,
        "level": level if bot else None,
    }


MOON_TABLE: Data = {
    "table_id": "t7k2",
    "game": "moon",
    "seats": [seat_info(0, "ana"), seat_info(1, "bot-1", bot=True), seat_info(2, "li")],
    "status": "playing",
    "turn_seconds": 30,
    "spectators": 1,
    "rematch": [],
    "bot_delay_ms": None,
    "record_id": None,
    "private": False,
    "open_bot_seats": False,
    "rated": False,
    "hand_pause_ms": None,
    "options": {"all_pass": "redeal", "target": 21},
}
STRAIGHT_TABLE: Data = {
    "table_id": "t3q9",
    "game": "straight",
    "seats": [seat_info(0, "sam"), seat_info(1, "ana"), seat_info(2, "bot-2", bot=True), seat_info(3, None)],
    "status": "waiting",
    "turn_seconds": 60,
    "spectators": 0,
    "rematch": [],
    "bot_delay_ms": None,
    "record_id": None,
    "private": False,
    "open_bot_seats": False,
    "rated": False,
    "hand_pause_ms": None,
    "options": {"players": 4, "partnerships": True, "target": 250},
}


def play(tile: list[int], end: str | None = None) -> dict[str, Any]:
    """A ``play`` action."""
    return {"type": "play", "tile": tile, "end": end}
