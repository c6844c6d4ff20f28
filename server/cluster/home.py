"""The home side of a remote player: this node's sessions at tables other nodes own.

The home keeps the player's :class:`~boneyard.server.session.Session` (numbering, log, token): it
forwards their commands for another node's table to its owner, delivers the bodies the owner relays
back, holds a :class:`~boneyard.server.cluster.relay.RemotePlace` per remote table (from the owner's
``places``), and resumes a token whose home was another node (from the tokens bucket). ``get_record``
for a record finished elsewhere is answered here too, from the records bucket.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgpack
from nats.aio.msg import Msg
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from boneyard.protocol import Identify, Spectate, encode
from boneyard.protocol.codec import HotAct
from boneyard.protocol.values import CommandId
from boneyard.server.cluster.places import Places
from boneyard.server.cluster.relay import (
    BODY,
    COMMAND,
    CONTROL,
    PLACES,
    REHOME,
    Bus,
    Publish,
    RelaySession,
    RemotePlace,
    inbox,
)
from boneyard.server.cluster.tablelog import JournalLog, token_entry
from boneyard.server.cluster.writes import Writes
from boneyard.server.session import Session
from boneyard.server.storage.stored import StoredSession
from boneyard.server.wire import error_body, plain_bodies

if TYPE_CHECKING:
    from boneyard.server.commands import CommandSeam, Link
    from boneyard.server.lobby import Lobby
    from boneyard.server.metrics import ClusterMetrics
    from boneyard.server.record_store import GameRecord
    from boneyard.server.routes import Command

log = logging.getLogger("boneyard.cluster")


class Listing(Protocol):
    """Another node's table as the directory lists it."""

    @property
    def table_id(self) -> str: ...

    @property
    def owner(self) -> str: ...


class Owners(Protocol):
    """Who owns another node's table (the cluster-wide lobby)."""

    def owner_of(self, table_id: str) -> str | None: ...

    async def look_up(self, table_id: str) -> str | None: ...

    def seats_of(self, player_id: str) -> Sequence[tuple[Listing, int]]: ...

    async def caught_up(self) -> None:
        """Every change the directory held a moment ago is seen (``seats_of`` answers from it)."""
        ...


class Records(Protocol):
    """The cluster's finished records (:class:`~boneyard.server.cluster.record_bucket.ClusterRecords`)."""

    async def fetch(self, record_id: str) -> GameRecord | None: ...


class HomeSide:
    """This node's players at other nodes' tables, and what only the cluster can answer them: a
    :class:`~boneyard.server.commands.Router` (``attach`` the lobby, commands and metrics first)."""

    def __init__(
        self,
        name: str,
        bus: Bus,
        publish: Publish,
        owners: Owners,
        tokens: KeyValue,
        tablelog: JournalLog,
        writes: Writes,
        records: Records,
        relays: Mapping[str, RelaySession],
    ) -> None:
        self.name = name
        self.bus = bus
        self._publish = publish
        self._owners = owners
        self.tokens = tokens
        self.tablelog = tablelog
        self.writes = writes
        self.records = records
        self._relays = relays
        """The owner side's relay sessions (players of other nodes at this node's tables)."""
        self.lobby: Lobby | None = None
        self.commands: CommandSeam | None = None
        self.metrics: ClusterMetrics | None = None
        self.homed: dict[str, Session] = {}
        """This node's sessions at other nodes' tables, by player id."""
        self._places = Places()
        """Each homed player's remote places, by player id and table id (and by table)."""
        self._former: dict[str, set[str]] = {}
        """The nodes that owned one of a player's tables before it moved, by player id."""
        self._held: dict[str, list[tuple[Link, Command]]] = {}
        """A player's commands waiting behind a look-up of a table this node does not list yet, in
        the order they came, by player id."""
        self._tasks: set[asyncio.Task[Any]] = set()

    def attach(self, lobby: Lobby, commands: CommandSeam, metrics: ClusterMetrics) -> None:
        self.lobby, self.commands, self.metrics = lobby, commands, metrics

    def forwards(self, link: Link, session: Session, command: Command) -> bool:
        """Forward ``command`` to the owner if it names a table another node owns; whether it did (or
        holds it: behind a look-up of the table, or behind the player's earlier command that waits for
        one, so that a player's commands are handled in the order they were sent)."""
        held = self._held.get(session.player_id)
        if held is not None:
            held.append((link, command))
            return True
        table_id = getattr(command, "table_id", None)
        if table_id is None or self.lobby is None:
            return False
        owner = self._owner(session, table_id)
        if owner is None and table_id not in self.lobby.tables:
            # Not in this node's mirror (yet): a table created on another node a moment ago is in the
            # bucket already (its owner enters it before telling anyone of it), so ask the bucket.
            self._held[session.player_id] = [(link, command)]
            self._spawn(self._look_up(session, table_id))
            return True
        if owner is None:
            return False
        self._forward(session, command, owner)
        return True

    def _owner(self, session: Session, table_id: str) -> str | None:
        place = self._place(session.player_id, table_id)
        # The player's place knows a takeover first (the new owner's places come before its snapshot);
        # a place at a table this node took over while the player was relayed stays relayed.
        owner = place.owner if place is not None else None
        if owner is None and self.lobby is not None and table_id not in self.lobby.tables:
            owner = self._owners.owner_of(table_id)
        return owner

    def _command_item(self, session: Session, token: str | None, frame: bytes) -> list[object]:
        """A command of ``session`` to a table's owner, as :mod:`~boneyard.server.cluster.relay` says
        (its account too: the owner's relay session is signed in as the player is here)."""
        player = (session.player_id, session.name, self.name)
        return [COMMAND, *player, token, frame, session.folds, session.account]

    def _forward(self, session: Session, command: Command, owner: str) -> None:
        assert self.lobby is not None
        token = session.token
        if command.type in ("join", "take_seat"):
            token = self.lobby.token_for(session)  # the home holds the token: the player resumes here
        self.homed[session.player_id] = session
        self.bus.send(inbox(owner), self._command_item(session, token, _frame(command)))
        if self.metrics is not None:
            self.metrics.routed.inc()

    async def _look_up(self, session: Session, table_id: str) -> None:
        """The owner of a table this node's mirror does not list, from the bucket; then the commands
        the player sent meanwhile, in order (a table nobody lists: ``no_such_table``, from here)."""
        try:
            await self._owners.look_up(table_id)  # listed in the mirror if it exists
        except Exception as error:
            log.warning("table %s: cannot read the directory: %s", table_id, error)
        commands = self.commands
        assert commands is not None
        held = self._held.pop(session.player_id, [])
        for n, (link, command) in enumerate(held):
            if n == 0:
                owner = self._owner(session, table_id)
                if owner is not None:
                    self._forward(session, command, owner)
                    continue
            elif self.forwards(link, session, command):
                continue  # forwarded, or held again behind a look-up of its own
            commands.dispatch(link, session, command)

    def _control(self, player_id: str, table_id: str, what: str, seat: int | None) -> None:
        place = self._place(player_id, table_id)
        if place is not None:
            session = self.homed.get(player_id)
            folds = session is not None and session.folds
            self.bus.send(inbox(place.owner), [CONTROL, player_id, table_id, what, seat, folds])
            if what == "abandon":  # the session leaves the table (its owner's places may never come)
                self._places.pop(player_id, table_id)
                session = self.homed.get(player_id)
                if session is not None:
                    session.tables.pop(place, None)
                    self._release(session)

    def _place(self, player_id: str, table_id: str) -> RemotePlace | None:
        return self._places.get(player_id, table_id)

    def dropped(self, session: Session) -> None:
        """The session's connection closed (its seats, if any, wait for a resume)."""
        self._release(session)

    def _release(self, session: Session) -> None:
        """Forget a player who is neither connected nor at a remote table: nothing more is for them here
        (what an owner still sends them, its places at a table they left, has nobody to go to)."""
        if session.client is not None or any(isinstance(p, RemotePlace) for p in session.tables):
            return
        player_id = session.player_id
        if self.homed.get(player_id) is session:
            del self.homed[player_id]
            self._places.pop_player(player_id)
            self._former.pop(player_id, None)
            self._held.pop(player_id, None)

    async def on_outbox(self, msg: Msg) -> None:
        """A batch of bodies and places relayed back (subject ``outbox(name)``)."""
        sender, items = msgpack.unpackb(msg.data)
        for item in items:
            session = self.homed.get(item[1])
            if session is None:
                continue  # the session is gone here: nobody to deliver to
            if self._stale(session, sender):
                continue  # from a node the table moved away from (it was cut off): not the game any more
            if item[0] == BODY:
                if item[3] and not session.folds:  # folded on its way to a connection since replaced
                    for body in plain_bodies(item[2]):
                        session.deliver(body)
                else:
                    session.deliver(item[2])
            elif item[0] == PLACES:
                self._set_places(session, item[2], item[3])
            self._release(session)

    def _stale(self, session: Session, sender: str) -> bool:
        """Whether ``sender`` is a node one of the player's tables moved away from, and no longer the
        owner of any: what it still sends (it was cut off or paused) is not the game any more."""
        former = self._former.get(session.player_id)
        if former is None or sender not in former:
            return False
        return not any(isinstance(p, RemotePlace) and p.owner == sender for p in session.tables)

    def _moved(self, player_id: str, former: str, owner: str) -> None:
        if former != owner:
            self._former.setdefault(player_id, set()).add(former)

    def _set_places(self, session: Session, owner: str, places: dict[str, int | None]) -> None:
        """The tables ``owner`` says the player is at there now: the home session's remote places."""
        lobby = self.lobby
        assert lobby is not None
        player_id = session.player_id
        for old in [p for p in session.tables if isinstance(p, RemotePlace) and p.owner == owner]:
            if old.table_id not in places:
                del session.tables[old]
                self._places.pop(player_id, old.table_id)
        for table_id, seat in places.items():
            known = self._place(player_id, table_id)
            place = known or RemotePlace(table_id, owner, player_id, self._control)
            self._moved(player_id, place.owner, owner)
            place.owner = owner  # another node took the table over
            place.rehoming = False
            self._places.put(player_id, table_id, place)
            session.tables[place] = seat
        if session.tables:
            lobby.at_table(session)
        else:
            lobby.enter_lobby(session)

    def table_moved(self, table_id: str, owner: str) -> None:
        """Another node owns the table now (its owner died, or stopped): the players of this node who
        watch it watch on there (a takeover restores the seats from the journal, never the spectators)."""
        spectate = _frame(Spectate(type="spectate", table_id=table_id))  # no id: the snapshot replies to none
        for player_id in self._places.at(table_id):
            place = self._places.get(player_id, table_id)
            session = self.homed.get(player_id)
            if (
                place is None
                or place.owner == owner
                or session is None
                or session.tables.get(place, 0) is not None
            ):
                continue  # not watching it here (a seat's holder comes back with the seat)
            self._moved(player_id, place.owner, owner)
            place.owner = owner
            self.bus.send(inbox(owner), self._command_item(session, session.token, spectate))

    def forget_place(self, session: Session, table_id: str) -> None:
        """The session's remote place at ``table_id`` is gone (this node owns the table now)."""
        place = self._places.pop(session.player_id, table_id)
        if place is not None:
            session.tables.pop(place, None)
            self._moved(session.player_id, place.owner, self.name)

    def resume(self, link: Link, command: Identify) -> None:
        """A token this node does not know: its player's home was another node (which died, or closed
        the connection at a stop). The session is made from the tokens bucket, and every owner of the
        player's tables told to relay here now; they send snapshots (``replayed: 0``, as after a crash)."""
        self._spawn(self._resume(link, command))

    async def _resume(self, link: Link, command: Identify) -> None:
        lobby, commands = self.lobby, self.commands
        assert lobby is not None and commands is not None and command.resume is not None
        token = command.resume.token
        try:
            entry = await self.tokens.get(token)
        except KeyNotFoundError:
            entry = None
        except Exception as error:
            log.warning("cannot read the tokens bucket: %s", error)
            entry = None
        if entry is None or entry.value is None:
            link.close_with(4002, "unknown or expired resume token")
            return
        player_id, name, _, account = token_entry(entry.value)
        await self._owners.caught_up()  # a seat taken a moment ago, on its way to this node's mirror
        session = lobby.by_token.get(token) or lobby.restore_session(
            StoredSession(token, player_id, name, account=account)
        )
        self.homed[player_id] = session
        self._seat(session)
        self.tablelog.session(session)  # its home is this node now (a takeover relays here)
        await self.writes.committed()
        commands.resumed(link, session, command)
        await self._publish(REHOME, msgpack.packb([player_id, self.name]))

    def _seat(self, session: Session) -> None:
        """A resumed session's seats before its ``welcome`` names them, as a single node's resume does:
        where the directory says the player sits, and the seats of this node's own tables their relay
        session holds (their home was another node). The owners' places confirm them."""
        lobby = self.lobby
        assert lobby is not None
        player_id = session.player_id
        seats = [(listed.table_id, listed.owner, seat) for listed, seat in self._owners.seats_of(player_id)]
        relay = self._relays.get(player_id)
        if relay is not None:
            seats += [(table.table_id, self.name, seat) for table, seat in relay.seats()]
        for table_id, owner, seat in seats:
            if self._place(player_id, table_id) is not None:
                continue
            place = RemotePlace(table_id, owner, player_id, self._control, rehoming=True)
            self._places.put(player_id, table_id, place)
            session.tables[place] = seat
        if session.tables:
            lobby.at_table(session)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def fetch_record(self, session: Session, record_id: str, reply_to: CommandId | None) -> None:
        """``get_record`` for a record this node does not hold: from the bucket, replied when it comes."""
        self._spawn(self._fetch_record(session, record_id, reply_to))

    async def _fetch_record(self, session: Session, record_id: str, reply_to: CommandId | None) -> None:
        lobby = self.lobby
        assert lobby is not None
        try:
            found = await self.records.fetch(record_id)
        except Exception as error:
            log.warning("record %s: cannot read the records bucket: %s", record_id, error)
            found = None
        body = lobby.record_bodies.reply(record_id, reply_to) if found is not None else None
        if body is None:
            lobby.metrics.error("no_such_record")
            body = error_body("no_such_record", f"no finished game has the record {record_id}", reply_to)
        session.deliver(body)


def _frame(command: Command) -> bytes:
    """The command as its client sent it, encoded again (an ``act`` off the hot path has no model)."""
    if isinstance(command, HotAct):
        act = {
            "type": "act",
            "id": command.id,
            "table_id": command.table_id,
            "action": command.action.model_dump(),
        }
        packed: bytes = msgpack.packb(act)
        return packed
    return encode(command)
