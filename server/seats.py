"""A table's seats: who holds each, whether a bot plays it, and what everyone may see of it.

>>> seat = Seat(1)
>>> seat.held, seat.info()
(False, {'seat': 1, 'name': None, 'bot': False, 'connected': False, 'auto': False, 'level': None})
>>> seat.make_bot("strong"); seat.held, seat.bot_plays, seat.info()["name"], seat.info()["level"]
(True, True, 'bot-1', 'strong')
"""

from __future__ import annotations

from typing import Any

from boneyard.server.session import Session


class Seat:
    """One seat. A human holds it through ``session``; ``bot`` means a bot plays it.

    Both at once is a hand-over: a human took a bot's seat mid-hand and the bot plays on until the
    hand ends. ``auto`` means the server plays for the human (timeouts, or away past the grace period).
    """

    __slots__ = ("auto", "bot", "index", "level", "name", "session", "timeouts")

    def __init__(self, index: int) -> None:
        self.index = index
        self.session: Session | None = None
        self.name: str | None = None
        self.bot = False
        self.level = "basic"
        """The level of the bot playing this seat (``basic``, ``good``, ``strong``)."""
        self.auto = False
        self.timeouts = 0

    @property
    def held(self) -> bool:
        """Someone (a player or a bot) holds the seat."""
        return self.bot or self.session is not None

    @property
    def connected(self) -> bool:
        """The seat's player is connected (always true for a bot)."""
        if self.session is None:
            return self.bot
        return self.session.client is not None

    @property
    def bot_plays(self) -> bool:
        """The server chooses this seat's actions (a bot seat, a hand-over, or auto-play)."""
        return self.bot or self.auto or self.session is None

    @property
    def handing_over(self) -> bool:
        return self.bot and self.session is not None

    def make_bot(self, level: str | None = None) -> None:
        self.session = None
        self.bot = True
        if level is not None:
            self.level = level
        self.auto = False
        self.timeouts = 0
        self.name = f"bot-{self.index}"

    def seat_human(self, session: Session, *, hand_over: bool = False) -> None:
        """``session`` sits here; with ``hand_over`` the bot keeps playing until the hand ends."""
        self.session = session
        self.name = session.name
        self.bot = hand_over
        self.auto = False
        self.timeouts = 0

    def empty(self) -> None:
        self.session = None
        self.name = None
        self.bot = False
        self.auto = False
        self.timeouts = 0

    def info(self) -> dict[str, Any]:
        """The seat as listed in ``TableInfo.seats``."""
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.connected,
            "auto": self.auto,
            "level": self.level if self.bot else None,
        }
