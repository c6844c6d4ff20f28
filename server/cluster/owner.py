"""The owner side of a remote player: relay sessions at this node's tables, for players whose home is
another node; their forwarded commands and controls handled here (:mod:`boneyard.server.cluster.relay`).
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING

import msgpack
from nats.aio.msg import Msg
from nats.js.kv import KeyValue

from boneyard.protocol import ProtocolError
from boneyard.protocol.codec import decode_hot
from boneyard.server.cluster.relay import (
    COMMAND,
    CONTROL,
    PLACES,
    RELAYED,
    Bus,
    Item,
    RelayLink,
    RelaySession,
    outbox,
)

if TYPE_CHECKING:
    from boneyard.server.commands import CommandSeam
    from boneyard.server.lobby import Lobby
    from boneyard.server.table import Table

log = logging.getLogger("boneyard.cluster")


class OwnerSide:
    """Other nodes' players at this node's tables (``attach`` the lobby and commands first)."""

    def __init__(self, name: str, bus: Bus, nodes: KeyValue, ttl: float) -> None:
        self.name = name
        self.bus = bus
        self._nodes = nodes
        self._ttl = ttl
        self._gone: set[str] = set()
        """Homes whose key expired (their players disconnected here) and that have not come back."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.lobby: Lobby | None = None
        self.commands: CommandSeam | None = None
        self.relays: dict[str, RelaySession] = {}
        """Players of other nodes at this node's tables, by player id."""

    def attach(self, lobby: Lobby, commands: CommandSeam) -> None:
        self.lobby, self.commands = lobby, commands

    async def on_inbox(self, msg: Msg) -> None:
        """A batch of forwarded commands and controls (subject ``inbox(name)``)."""
        sender, items = msgpack.unpackb(msg.data)
        if sender in self._gone:
            self.home_back(sender)  # it talks again: its key is back, or soon will be
        for item in items:
            try:
                if item[0] == COMMAND:
                    self._command(item)
                elif item[0] == CONTROL:
                    self._control_in(item)
            except Exception:
                log.exception("a relayed message failed: %r", item[:4])

    def relay(self, player_id: str, name: str, home: str) -> RelaySession:
        """The relay session of a player of ``home`` (made, or re-pointed there)."""
        relay = self.relays.get(player_id)
        if relay is None:
            relay = self.relays[player_id] = RelaySession(player_id, name, home, self.name, self.bus)
            relay.released = self._released
        elif relay.home != home:
            relay.rehome(home)
        return relay

    def _command(self, item: Item) -> None:
        _, player_id, name, home, token, frame, folds, *rest = item
        commands = self.commands
        assert commands is not None and self.lobby is not None
        if self.lobby.stopping:
            return  # handing its tables over: the next owner gives the player their turn again
        relay = self.relay(player_id, name, home)
        relay.folds = folds  # the player's connection's shape, from the command on
        relay.account = rest[0] if rest else None  # signed in on its home: a rated table seats it
        if token is not None:
            relay.token = token
        try:
            command = decode_hot(frame)
        except ProtocolError as error:  # decoded once on the home already: a version mismatch
            log.warning("a forwarded command does not decode: %s", error)
            return
        commands.dispatch(RelayLink(relay), relay, command)
        self.settle(relay)

    def _control_in(self, item: Item) -> None:
        _, player_id, table_id, what, seat, folds = item
        relay = self.relays.get(player_id)
        lobby = self.lobby
        assert lobby is not None
        table: Table | None = lobby.tables.get(table_id)
        if relay is None or table is None:
            return
        relay.folds = folds  # the player's connection's shape (a resume may have changed it)
        if what == "snapshot":
            table.resync(relay, seat)
        elif what == "abandon":
            table.abandon(relay)
        elif seat is not None and table.seats[seat].session is relay:
            relay.stranded = False  # the home says how the player is
            if what == "connected":
                relay.client = RELAYED
                table.seat_connected(seat)
            elif what == "disconnected":
                relay.client = None
                table.seat_disconnected(seat)
            elif what == "away":
                table.seat_away(seat)
        self.settle(relay)

    def settle(self, relay: RelaySession) -> None:
        """Tell the home the relay session's places; forget it once it is at no table here."""
        if not relay.sync_places():
            self._released(relay)

    def _released(self, relay: RelaySession) -> None:
        if self.relays.get(relay.player_id) is relay:
            relay.cancel_timer()
            del self.relays[relay.player_id]

    async def on_rehome(self, msg: Msg) -> None:
        """``[player_id, new home]`` (subject ``REHOME``)."""
        player_id, home = msgpack.unpackb(msg.data)
        self.rehome(player_id, home)

    def rehome(self, player_id: str, home: str) -> None:
        """The player resumed through ``home``: relay there, with a snapshot of each table."""
        relay = self.relays.get(player_id)
        lobby = self.lobby
        if relay is None and lobby is not None and home != self.name:
            # At none of this node's tables: the new home's places from the directory (a moment old)
            # may still name one of them.
            self.bus.send(outbox(home), [PLACES, player_id, self.name, {}])
            return
        if relay is None or lobby is None or (home == relay.home and relay.client is not None):
            return
        relay.cancel_timer()
        relay.client = RELAYED
        relay.rehome(home)
        for table, seat in list(relay.tables.items()):
            table.resync(relay, seat)
            if seat is not None:
                table.seat_connected(seat)

    def home_gone(self, home: str) -> None:
        """``home``'s heartbeat expired: its players are disconnected, as after a dropped connection
        (grace, then the server plays for them), until they resume through another node."""
        lobby = self.lobby
        if lobby is None:
            return
        for relay in self.relays.values():
            if relay.home != home or relay.client is None:
                continue
            relay.client = None
            relay.stranded = True
            for table, seat in relay.seats():
                table.seat_disconnected(seat)
            relay.timer = lobby.clock.call_later(lobby.settings.grace_seconds, partial(self._away, relay))
            log.info("node %s is gone: player %s disconnected", home, relay.player_id)
        if home not in self._gone:
            self._gone.add(home)
            task = asyncio.get_running_loop().create_task(self._until_back(home))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _until_back(self, home: str) -> None:
        """Look for ``home``'s key every ttl/3 until it is back (the node was paused, or cut off from
        NATS for a while, and lives on)."""
        while home in self._gone:
            await asyncio.sleep(self._ttl / 3)
            try:
                await self._nodes.get(home)
            except Exception:  # KeyNotFoundError: still gone; else NATS is out of reach from here
                continue
            self.home_back(home)

    def home_back(self, home: str) -> None:
        """``home`` is back: the players it lost here are connected again, each with a snapshot of
        their tables here (what was relayed to it meanwhile may never have reached it)."""
        self._gone.discard(home)
        for relay in list(self.relays.values()):
            if relay.home != home or not relay.stranded:
                continue
            relay.stranded = False
            relay.cancel_timer()
            relay.client = RELAYED
            for table, seat in list(relay.tables.items()):
                table.resync(relay, seat)
                if seat is not None:
                    table.seat_connected(seat)
            log.info("node %s is back: player %s connected", home, relay.player_id)

    @staticmethod
    def _away(relay: RelaySession) -> None:
        relay.timer = None
        for table, seat in relay.seats():
            table.seat_away(seat)

    def close(self) -> None:
        """Stop looking for homes to come back."""
        self._gone.clear()
        for task in self._tasks:
            task.cancel()

    def homes(self) -> set[str]:
        """The other nodes this node's tables relay to."""
        return {relay.home for relay in self.relays.values() if relay.home != self.name}
