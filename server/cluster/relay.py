"""Players at a table another node owns: relay sessions on the owner, stand-in places on the home node.

The node a client is connected to (its home) keeps its :class:`~boneyard.server.session.Session`:
``seq``, the resume log and the token stay there, so numbering, resume and replay work exactly as on
a single node. A command for a table owned elsewhere is forwarded to the owner (:class:`Bus`), and
the home replies nothing itself.

On the owner the remote player is a :class:`RelaySession`: a session like any other to the table
(it sits, watches, is dealt to), whose :meth:`RelaySession.deliver` sends the unstamped body back
to the home node instead of writing a socket; the home then delivers it to the player's own session,
which numbers and logs it. Per-table order is NATS's per-publisher order (one bus per node, one
publishing task). Whenever the tables a relay session is at change, the owner tells the home first
(``places``), so the home's session knows its seats (``welcome.seats``, grace and auto-play on a
drop) through a :class:`RemotePlace` per remote table.

Messages are msgpack lists, batched per destination node and loop step (``[sender node, items]``):

- to the owner, subject ``boneyard.node.<owner>.in``: ``[COMMAND, player_id, name, home, token, frame,
  folds, account]`` (``frame``: the command as the client sent it, re-encoded; ``account``: the key of the
  account the player signed in to, ``None`` for a guest, absent from an older node's) or ``[CONTROL,
  player_id, table_id, what, seat, folds]`` (``what``: ``connected``, ``disconnected``, ``away``,
  ``abandon``, ``snapshot``);
- to the home, subject ``boneyard.node.<home>.out``: ``[BODY, player_id, body, folds]`` or
  ``[PLACES, player_id, owner, {table_id: seat or None}]``.

``folds``: whether the player's connection accepted feature ``turn_in_event``. Every command and
control carries the home session's flag, and the relay session takes it (its table folds turns into
events for it, or not); each body says whether it was made folded, so a home whose player has since
resumed on a plain connection unfolds what was already on its way
(:func:`~boneyard.server.wire.plain_bodies`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

from boneyard.server.session import Session

log = logging.getLogger("boneyard.cluster")

COMMAND, CONTROL = 0, 1
BODY, PLACES = 0, 1

Item = list[Any]
Publish = Callable[[str, bytes], Awaitable[None]]


REHOME = "boneyard.rehome"
"""A player resumed through another node: ``[player_id, new home]`` to every node."""


def inbox(node: str) -> str:
    """Where a node receives forwarded commands and controls (as a table's owner)."""
    return f"boneyard.node.{node}.in"


def outbox(node: str) -> str:
    """Where a node receives bodies and places for its own sessions (as a home)."""
    return f"boneyard.node.{node}.out"


class Bus:
    """A node's messages to other nodes: batched per subject and loop step, published in order by one
    task, each batch only once every write made before it was sealed is acknowledged (write-ahead;
    ``ready`` is called at the seal)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        publish: Publish,
        ready: Callable[[], Awaitable[bool]],
        sender: str,
    ):
        self._loop = loop
        self._from = sender
        self._publish = publish
        self._ready = ready
        self._batches: dict[str, list[Item]] = {}
        self._queue: asyncio.Queue[tuple[dict[str, list[Item]], Awaitable[bool]]] = asyncio.Queue()
        self._scheduled = False
        self._sender = loop.create_task(self._send())

    def send(self, subject: str, item: Item) -> None:
        batch = self._batches.get(subject)
        if batch is None:
            self._batches[subject] = [item]
            if not self._scheduled:
                self._scheduled = True
                self._loop.call_soon(self._seal)
        else:
            batch.append(item)

    def _seal(self) -> None:
        self._scheduled = False
        batches, self._batches = self._batches, {}
        self._queue.put_nowait((batches, self._ready()))  # the writes made before the batch was sealed

    async def _send(self) -> None:
        while True:
            batches, ready = await self._queue.get()
            if not await ready:  # what these bodies tell of is written first
                log.warning("%d relayed batches dropped: a write before them was refused", len(batches))
                continue
            for subject, items in batches.items():
                try:
                    await self._publish(subject, msgpack.packb([self._from, items]))
                except Exception as error:  # the connection is down: the home resumes by snapshot
                    log.warning("cannot relay %d messages to %s: %s", len(items), subject, error)

    async def close(self) -> None:
        self._seal()
        while not self._queue.empty():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0)
        self._sender.cancel()


class _RelayPeer:
    """The relay session's stand-in connection: present while the home node says the player is."""

    def write(self, frame: bytes) -> None:  # pragma: no cover - relay sessions never write frames
        raise AssertionError("a relay session's bodies go to its home node")


RELAYED = _RelayPeer()


class RelaySession(Session):
    """A remote player as the owner's tables see them: bodies go to the home node, unstamped."""

    __slots__ = ("_bus", "_sent_places", "home", "owner", "released", "stranded")

    relayed = True

    def __init__(self, player_id: str, name: str, home: str, owner: str, bus: Bus) -> None:
        super().__init__(player_id, name, log_frames=0)
        self.home = home
        self.owner = owner
        self._bus = bus
        self._sent_places: dict[str, int | None] = {}
        self.client = RELAYED
        self.released: Callable[[RelaySession], None] | None = None
        """Called when the session is at no table any more (its owner forgets it)."""
        self.stranded = False
        """Disconnected because its home's key expired, not because the home said so: connected
        again when the home is back."""

    def deliver(self, body: bytes) -> None:
        self.seq += 1
        self.sync_places()
        self._bus.send(outbox(self.home), [BODY, self.player_id, body, self.folds])

    def sync_places(self) -> bool:
        """Tell the home node the tables this player is at, if they changed; whether any is left."""
        places = {place.table_id: seat for place, seat in self.tables.items()}
        if places != self._sent_places:
            self._sent_places = places
            self._bus.send(outbox(self.home), [PLACES, self.player_id, self.owner, places])
            if not places and self.released is not None:
                self.released(self)  # e.g. its last table was removed
        return bool(places)

    def rehome(self, home: str) -> None:
        """The player resumed through another node: relay there from now on (its places first)."""
        self.home = home
        self.stranded = False
        self._sent_places = {}
        self.sync_places()


class RelayLink:
    """The :class:`~boneyard.server.commands.Link` a forwarded command is handled with on the owner:
    every reply goes through the relay session (see ``commands.send``)."""

    __slots__ = ("seq", "session")

    def __init__(self, session: RelaySession) -> None:
        self.session: Session | None = session
        self.seq = 0

    def write(self, frame: bytes) -> None:  # pragma: no cover - the link always has its session
        raise AssertionError("replies to a forwarded command go through its relay session")

    def close_with(self, code: int, reason: str) -> None:
        log.warning("a forwarded command asked to close its connection (%d %s)", code, reason)

    def peer(self) -> str | None:
        session = self.session
        return None if not isinstance(session, RelaySession) else f"{session.home}/{session.player_id}"

    def client_address(self) -> str:
        return ""  # a relayed command's client is counted on its home node, which holds its address

    def charge(self, reply_bytes: int) -> None:
        pass  # metered on the home node, which holds the connection


Control = Callable[[str, str, str, int | None], None]
"""How a remote place reaches its owner: ``(player_id, table_id, what, seat)``."""


class RemotePlace:
    """A table owned by another node, as one of the home node's sessions at it knows it (one per session
    and table: every control names the player)."""

    __slots__ = ("_control", "owner", "player_id", "rehoming", "table_id")

    def __init__(
        self, table_id: str, owner: str, player_id: str, control: Control, *, rehoming: bool = False
    ) -> None:
        self.table_id = table_id
        self.owner = owner
        """The node that owns the table now (re-pointed when another node takes it over)."""
        self.player_id = player_id
        self._control = control
        self.rehoming = rehoming
        """Made from the directory for a resume through this node: until the owner's places come, the
        owner is re-pointing the player here (``REHOME``) and sends the snapshot and reconnects the
        seat by itself, so the resume asks for neither."""

    def resync(self, session: Session, viewer: int | None) -> None:
        """Ask the owner to resync its player (it alone knows the table, and sends the snapshot after
        whatever it sent before)."""
        if not self.rehoming:
            self._control(self.player_id, self.table_id, "snapshot", viewer)

    def seat_connected(self, seat: int) -> None:
        if not self.rehoming:
            self._control(self.player_id, self.table_id, "connected", seat)

    def seat_disconnected(self, seat: int) -> None:
        self._control(self.player_id, self.table_id, "disconnected", seat)

    def seat_away(self, seat: int) -> None:
        self._control(self.player_id, self.table_id, "away", seat)

    def abandon(self, session: Session) -> None:
        session.tables.pop(self, None)  # the owner's places may never come: this session is going
        self._control(self.player_id, self.table_id, "abandon", None)

    def __repr__(self) -> str:
        return f"RemotePlace({self.table_id!r} on {self.owner!r} for {self.player_id!r})"
