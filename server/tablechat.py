"""A table's chat: its latest lines (for snapshots, in memory only) and the limits on sending one.

A line is at most ``chat_max_chars`` long; each session sends at most ``chat_per_minute`` lines,
and a table's spectators share one bucket of ``spectator_chat_per_minute`` (the lobby's
:class:`~boneyard.server.spectators.SpectatorChat`): every line goes to everyone at the table.
"""

from __future__ import annotations

from collections import deque

from boneyard.protocol import CHAT_HISTORY_LINES, ChatLine
from boneyard.server.errors import CommandError
from boneyard.server.host import Services
from boneyard.server.session import Session
from boneyard.server.wire import body_of_dict


class TableChat:
    """The chat of table ``table_id``: :meth:`say` checks a line against the limits and keeps it."""

    __slots__ = ("lines", "server", "table_id")

    def __init__(self, server: Services, table_id: str) -> None:
        self.server = server
        self.table_id = table_id
        self.lines: deque[ChatLine] = deque(maxlen=CHAT_HISTORY_LINES)
        """The latest chat lines, for snapshots (in memory only: a restart forgets them)."""

    def say(self, session: Session, seat: int | None, text: str) -> bytes:
        """A line from ``session`` (the player of ``seat``, or a spectator: ``None``): the ``chat`` body
        to send everyone at the table, or a :class:`CommandError` if it is too long or too many."""
        settings = self.server.settings
        if len(text) > settings.chat_max_chars:
            limit = settings.chat_max_chars
            raise CommandError("chat_too_long", f"chat lines are at most {limit} characters")
        now = self.server.clock.time()
        if not session.take_chat_token(now, settings.chat_per_minute):
            raise CommandError("rate_limited", f"at most {settings.chat_per_minute} chat lines a minute")
        if seat is None and not self.server.spectator_chat.take(self.table_id, now):
            limit = settings.spectator_chat_per_minute
            raise CommandError(
                "rate_limited", f"this table's spectators may chat {limit} lines a minute in all"
            )
        line = ChatLine(seat=seat, name=session.name, text=text)
        self.lines.append(line)
        return body_of_dict({"type": "chat", "seq": 1, "table_id": self.table_id, **line.model_dump()})
