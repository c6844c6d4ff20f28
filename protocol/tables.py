"""What every game's table has: its seats, its public description (:class:`BaseTable`) and its
``create_table`` command (:class:`BaseCreateTable`). Each game's wire module narrows ``game`` and
``options``; :data:`boneyard.protocol.wiregames.TableInfo` and ``CreateTable`` choose the model by ``game``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator
from pydantic_core import PydanticCustomError

from boneyard.protocol.envelope import CommandBase
from boneyard.protocol.values import (
    Bool,
    BotDelayMs,
    BotLevel,
    Count,
    GameOptions,
    HandPauseMs,
    Id,
    Name,
    Seat,
    Seq,
    Str,
    TurnSeconds,
    WireModel,
    check_all_fields_set,
)


class SeatInfo(WireModel):
    """One seat of a table as everyone sees it."""

    seat: Seat
    name: Name | None
    """Who sits there; ``null`` for an empty seat."""
    bot: Bool
    """A bot plays this seat (a human may ``take_seat`` it between hands)."""
    connected: Bool
    """The seat's player is connected (always true for a bot)."""
    auto: Bool
    """The server is playing for this seat (its player is away or ran out of time)."""
    level: BotLevel | None = None
    """The level of the bot playing this seat; ``null`` when no bot holds it. (Added within v1.)"""


class BaseTable(WireModel):
    """Base of a table's public description."""

    table_id: Id
    game: Str
    seats: Seq[SeatInfo]
    """One entry per seat, in seat order."""
    status: Literal["waiting", "playing", "finished"]
    """``waiting`` for players, ``playing``, or ``finished`` (a rematch may restart it)."""
    turn_seconds: TurnSeconds | None
    """Time per turn; ``null``: no turn timer."""
    spectators: Count
    """How many connections are watching."""
    rematch: Seq[Seat]
    """Seats that asked for a rematch of the finished game."""
    bot_delay_ms: BotDelayMs | None = None
    """The pause before each bot move, in milliseconds, as the creator set it (``create_table``'s
    ``bot_delay_ms``); ``null``: the server's default pace."""
    record_id: Id | None = None
    """The record of the last game finished at this table, the one its ``game_over`` named
    (``get_record`` fetches it while the server keeps it): so that whoever comes to the table later,
    or resumes, learns it too. ``null`` until a game has finished here (or when its record could not
    be stored)."""
    private: Bool = False
    """Since 1.1 (``private_tables``): seats are taken with the table's invite code only (anyone may
    watch)."""
    open_bot_seats: Bool = False
    """Feature ``bot_seats``: anyone may take a bot's seat at this untimed table (``create_table``'s
    ``open_bot_seats``)."""
    rated: Bool = False
    """Feature ``ratings``: the table's games are rated (``create_table.rated``)."""
    hand_pause_ms: HandPauseMs | None = None
    """Feature ``hand_pause``: the pause between hands as the creator set it (``create_table``'s
    ``hand_pause_ms``); ``null``: the server's default (``hello.limits.hand_pause_ms`` where a human
    sits, none at a table of bots only)."""
    options: GameOptions
    """Every option, defaults included (each game narrows the type)."""

    @property
    def players(self) -> int:
        """The number of seats the options call for."""
        return self.options.players

    @model_validator(mode="after")
    def _one_entry_per_seat(self) -> BaseTable:
        if [s.seat for s in self.seats] != list(range(self.players)):
            raise ValueError(f"seats must list seats 0..{self.players - 1} in order")
        check_all_fields_set(self.options)
        return self


class BaseCreateTable(CommandBase):
    """Base of ``create_table``."""

    type: Literal["create_table"]
    game: Str
    bots: Seq[Seat] = ()
    """Seats a bot plays from the start."""
    bot_levels: Seq[BotLevel] = ()
    """The level of each bot in ``bots``, in the same order; omitted: every bot is ``basic``. Feature
    ``bot_levels`` (a server that does not list it in ``hello.features`` rejects the field)."""
    turn_seconds: TurnSeconds | None = 30
    """Time per turn; ``null`` asks for no turn timer (a server may refuse: ``invalid_options``)."""
    seat: Seat | None = 0
    """The creator's seat; ``null`` to create the table without sitting."""
    bot_delay_ms: BotDelayMs | None = None
    """How long each bot waits before it moves, in milliseconds, 0..10000 (only when ``hello.features``
    lists ``bot_delay``). At this pace a table of bots only, created to be watched (``seat: null``, then
    ``spectate``), can be followed. ``null`` or omitted: the server's default, a short pause where a
    human sits and none at all at a table of bots only."""
    hand_pause_ms: HandPauseMs | None = None
    """Feature ``hand_pause``: how long the table pauses between hands, in milliseconds, 0..60000 (0: no
    pause), so that its players can look at the hand's result; ``ready`` ends it early. ``null`` or
    omitted: the server's default (``hello.limits.hand_pause_ms``) where a human sits, and none at a table
    of bots only (set it to give a watched bots-only table its pause)."""
    private: Bool = False
    """Feature ``private_tables``: only those given the invite code (in ``table_created``) may sit; others
    get ``not_invited``. An open table seats anyone; at an open untimed table, a seat held by anyone but
    its creator plays on the server's default turn timer, so that no stranger can stall it."""
    open_bot_seats: Bool = False
    """Feature ``bot_seats``: at an untimed table, a bot's seat goes only to those the creator admits:
    the creator, and at a private table those with its invite code; others' ``take_seat`` gets
    ``not_invited``. True opens the bots' seats of an open untimed table to anyone (who then plays on
    the server's turn timer, as above). Timed tables are not concerned."""
    rated: Bool = False
    """Feature ``ratings``: rate this table's games (section 5, "Rated games"). A rated table is timed
    (``turn_seconds`` null: ``invalid_options``) and seats signed-in players and bots only: its creator, and
    whoever joins or takes a seat, must be signed in (``not_signed_in``)."""
    options: GameOptions
    """The game's options (each game narrows the type and gives the defaults)."""

    @property
    def players(self) -> int:
        """The number of seats the options call for."""
        return self.options.players

    @model_validator(mode="after")
    def _seats_fit(self) -> BaseCreateTable:
        taken = [*self.bots, *([] if self.seat is None else [self.seat])]
        # Error types the codec turns into these error codes (a well-formed command the server refuses).
        if len(set(taken)) != len(taken):
            raise PydanticCustomError("invalid_options", "bots and seat must name different seats")
        if any(s >= self.players for s in taken):
            raise PydanticCustomError("no_such_seat", "seats are 0..{last}", {"last": self.players - 1})
        if self.bot_levels and len(self.bot_levels) != len(self.bots):
            raise ValueError("bot_levels must give one level per seat in bots")
        return self


def seats_below(players: int) -> dict[str, Any]:
    """A JSON Schema saying ``create_table``'s seats are below ``players`` (the model checks it too).

    >>> seats_below(3)["properties"]["bots"]
    {'items': {'maximum': 2}}
    """
    return {"properties": {"seat": {"maximum": players - 1}, "bots": {"items": {"maximum": players - 1}}}}
