"""A player's session: who they are, the seats and tables they are at, and what they were sent.

A session outlives its connection: when a seated player drops, the session keeps numbering and
logging the messages meant for them, so a resume can replay exactly what was missed. The log is a
bounded list of message bodies (see :mod:`boneyard.server.wire`): public bodies are shared by everyone at
the table, so a session's log is mostly references. Only sessions holding a token (seated once)
keep a log at all.

>>> s = Session("p1", "ana", log_frames=4)
>>> s.start_log()
>>> for body in (b"a", b"b", b"c"):
...     s.deliver(body)
>>> s.seq, s.missed_since(1), s.missed_since(3), s.missed_since(-5)
(3, [b'b', b'c'], [], None)
>>> for body in (b"d", b"e"):
...     s.deliver(body)
>>> s.log, s.missed_since(0), s.missed_since(2)
([b'b', b'c', b'd', b'e'], None, [b'c', b'd', b'e'])
>>> t = Session("p2", "bo", log_frames=2)
>>> t.start_log([b"x", b"y", b"z"])  # a log kept over a restart: its last frames
>>> t.log
[b'y', b'z']
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterable
from typing import ClassVar, Protocol

from boneyard.server.meter import TokenBucket
from boneyard.server.wire import stamp


def new_epoch() -> int:
    """A fresh :attr:`Session.epoch` (31 random bits: a collision between two numberings of one seat is
    one in two billion, and would also need their seqs to line up with the journal's)."""
    return secrets.randbits(31)


class Recipient(Protocol):
    """Whoever a table's messages are delivered to (a :class:`Session`)."""

    @property
    def folds(self) -> bool:
        """Feature ``turn_in_event`` is in force: a turn after events goes inside the last of them."""
        ...

    def deliver(self, body: bytes) -> None: ...


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Peer(Protocol):
    """The live connection of a session (``boneyard.server.connection.SocketLink``)."""

    def write(self, frame: bytes) -> None: ...


class Place(Protocol):
    """A table as the sessions at it know it (``boneyard.server.table.Table``, not imported here)."""

    @property
    def table_id(self) -> str: ...

    def resync(self, session: Session, viewer: int | None) -> None:
        """Send ``session`` the table afresh: a ``snapshot`` as ``viewer`` sees it, and what a client needs
        with it (a table on another node: its owner sends them, after whatever it sent before)."""
        ...

    def seat_connected(self, seat: int) -> None: ...

    def seat_disconnected(self, seat: int) -> None: ...

    def seat_away(self, seat: int) -> None: ...

    def abandon(self, session: Session) -> None: ...


class Session:
    """One identified player. ``tables`` maps each table they are at to their seat (``None``: watching);
    only a table's :class:`~boneyard.server.seats.Roster` writes it."""

    __slots__ = (
        "_log_frames",
        "account",
        "chat",
        "client",
        "epoch",
        "folds",
        "log",
        "muted",
        "name",
        "player_id",
        "seq",
        "tables",
        "timer",
        "token",
    )

    relayed: ClassVar[bool] = False
    """A remote player's stand-in on a cluster node that owns their table (their home node has their
    lobby: this one never pushes it to them)."""

    def __init__(self, player_id: str, name: str, log_frames: int) -> None:
        self.player_id = player_id
        self.name = name
        self.client: Peer | None = None
        self.seq = 0
        """The ``seq`` of the last message delivered (to the live connection, or logged while away)."""
        self.epoch = 0
        """Which numbering ``seq`` counts in: a random number drawn at each connection (each restarts
        the count) and stored with the token, so the journal's seqs name the connection they count on."""
        self.token: str | None = None
        self.log: list[bytes] | None = None
        """The last ``log_frames`` bodies delivered, oldest first (a list trimmed at each delivery: a third of
        a ``deque``'s memory, which allocates 64 slots whatever its ``maxlen``)."""
        self._log_frames = log_frames
        self.tables: dict[Place, int | None] = {}
        self.folds = False
        """Its connection accepted feature ``turn_in_event`` (set at each ``identify``: the log holds
        what was sent in that shape)."""
        self.timer: Cancellable | None = None
        """The grace or expiry timer of a dropped session."""
        self.chat: TokenBucket | None = None
        """Meters chat lines (made at the first one)."""
        self.muted: frozenset[str] = frozenset()
        """Feature ``moderation``: the display names (case-folded) whose chat lines this session hides."""
        self.account: str | None = None
        """Feature ``accounts``: the key of the account signed in to (``None``: a guest)."""

    def renumber(self) -> None:
        """A new numbering: ``seq`` counts from 0 again, in a new :attr:`epoch`."""
        self.seq = 0
        self.epoch = new_epoch()

    def start_log(self, bodies: Iterable[bytes] = ()) -> None:
        """Keep what is sent from now on, for resume (once the session holds a token), after ``bodies``
        (a log kept over a restart, or made again after a crash: its last ``log_frames``)."""
        if self.log is None:
            self.log = []
        self.log.extend(bodies)
        del self.log[: -self._log_frames]

    def deliver(self, body: bytes) -> None:
        """Send a message body to this player: numbered, logged for resume, written if connected."""
        self.seq += 1
        log = self.log
        if log is not None:
            log.append(body)
            if len(log) > self._log_frames:
                del log[0]
        client = self.client
        if client is not None:
            client.write(stamp(body, self.seq))

    def missed_since(self, last_seq: int) -> list[bytes] | None:
        """The bodies delivered after ``last_seq``, or ``None`` when the log no longer holds them all."""
        log = self.log
        missed = self.seq - last_seq
        if log is None or missed < 0 or missed > len(log):
            return None
        return list(itertools.islice(log, len(log) - missed, None))

    def seats(self) -> list[tuple[Place, int]]:
        """The seats this session holds, as ``(table, seat)``."""
        return [(t, s) for t, s in self.tables.items() if s is not None]

    def take_chat_token(self, now: float, per_minute: int) -> bool:
        """Meter chat lines: a bucket of ``per_minute`` lines refilled over a minute."""
        if self.chat is None:
            self.chat = TokenBucket(per_minute, per_minute / 60, now)
        return self.chat.take(now)

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
