"""A table's seats and members: who holds each seat, whether a bot plays it, who watches.

Membership is stored where each side reads it fast (a seat's ``session``, a session's ``tables``,
the table's ``spectators``) and written in one place only: :class:`Roster`.

>>> seat = Seat(1)
>>> seat.held, seat.info()
(False, {'seat': 1, 'name': None, 'bot': False, 'connected': False, 'auto': False, 'level': None})
>>> seat.make_bot("strong"); seat.held, seat.bot_plays, seat.info()["name"], seat.info()["level"]
(True, True, 'bot-1', 'strong')
"""

from __future__ import annotations

from collections.abc import Iterator

from boneyard.server.session import Place, Session

Listener = tuple[Session, int | None]
"""A session at a table and what it may see: its seat, or ``None`` for a spectator."""


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
        """The hand-over rule: a player took this bot's seat mid-hand and the bot plays on until the
        hand ends (the player gets no legal actions and may not act until then)."""
        return self.bot and self.session is not None

    @property
    def token(self) -> str | None:
        """The resume token of the player holding the seat (what is stored)."""
        return self.session.token if self.session is not None else None

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

    def info(self) -> dict[str, object]:
        """The seat as listed in ``TableInfo.seats``."""
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.connected,
            "auto": self.auto,
            "level": self.level if self.bot else None,
        }


class Roster:
    """One table's members: its seats' holders and its spectators; the one writer of membership.

    >>> class At:  # a stand-in for the table
    ...     table_id = "t1"
    >>> roster, ana, bo = Roster(At(), 3), Session("p1", "ana", 8), Session("p2", "bo", 8)
    >>> roster.sit(ana, 0); _ = roster.watch(bo)
    >>> roster.seats[0].name, ana.tables[roster.place], bo.tables[roster.place], len(roster.spectators)
    ('ana', 0, None, 1)
    >>> roster.leave(ana, bot_level="good"), roster.seats[0].name, roster.seats[0].level
    (0, 'bot-0', 'good')
    >>> roster.place in ana.tables
    False
    >>> roster.leave(bo, bot_level=None), len(roster.spectators), roster.empty()
    (None, 0, True)
    """

    __slots__ = ("place", "seats", "spectators")

    def __init__(self, place: Place, players: int) -> None:
        self.place = place
        self.seats = [Seat(i) for i in range(players)]
        self.spectators: set[Session] = set()

    def seat_of(self, session: Session) -> int | None:
        return session.tables.get(self.place)

    def is_member(self, session: Session) -> bool:
        return self.place in session.tables

    def sit(self, session: Session, seat: int, *, hand_over: bool = False) -> None:
        """``session`` holds ``seat`` (it stops watching, if it was); ``hand_over``: a bot plays on."""
        self.spectators.discard(session)
        self.seats[seat].seat_human(session, hand_over=hand_over)
        session.tables[self.place] = seat

    def watch(self, session: Session) -> bool:
        """``session`` watches; ``True`` if it was not watching already."""
        fresh = session not in self.spectators
        self.spectators.add(session)
        session.tables[self.place] = None
        return fresh

    def seat_bot(self, seat: int, level: str | None = None) -> None:
        self.seats[seat].make_bot(level)

    def leave(self, session: Session, *, bot_level: str | None) -> int | None:
        """``session`` is no longer a member; the seat it held (a bot of ``bot_level`` takes it over, or
        with ``None`` it is empty now), or ``None`` if it watched."""
        seat = session.tables.pop(self.place, None)
        self.spectators.discard(session)
        if seat is not None:
            holder = self.seats[seat]
            holder.make_bot(bot_level) if bot_level is not None else holder.empty()
        return seat

    def clear(self) -> list[Session]:
        """Everyone leaves (the table is removed); who was there."""
        members = [session for session, _ in self.listeners()]
        for session in members:
            session.tables.pop(self.place, None)
        self.spectators.clear()
        return members

    def listeners(self) -> list[Listener]:
        out: list[Listener] = [(s.session, s.index) for s in self.seats if s.session is not None]
        if self.spectators:  # most tables have none: no generator to make for every action
            out.extend((spectator, None) for spectator in self.spectators)
        return out

    def broadcast(self, body: bytes) -> None:
        """``body`` to everyone at the table, seated or watching (each numbers it as its own)."""
        for session, _ in self.listeners():
            session.deliver(body)

    def humans(self) -> Iterator[Seat]:
        """The seats a player holds."""
        return (seat for seat in self.seats if seat.session is not None)

    def bots_only(self) -> bool:
        return all(seat.session is None for seat in self.seats)

    def empty(self) -> bool:
        """Nobody sits or watches."""
        return not self.spectators and self.bots_only()
