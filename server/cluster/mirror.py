"""The cluster-wide lobby on one node: the table directory followed, other nodes' tables listed, this
node's own tables published.

Every node mirrors the directory (:class:`~boneyard.server.cluster.directory.Directory`, bucket
``boneyard-tables``: each table's public description, the bytes ``table_info`` encodes, its status and
its owner), lists the other nodes' tables and pushes their changes to its own lobby like a local
table's (:class:`~boneyard.server.pushes.RemoteTables`). The changes of this node's tables go to the
directory coalesced (:data:`DIRECTORY_SECONDS`), except a table's first entry on this node (a new
table, or one taken over): that one is written ahead, through the node's
:class:`~boneyard.server.cluster.writes.Writes`, so the directory names the table's owner before
anyone hears of the table (``table_created``, the new owner's snapshot), and a node whose mirror has
not caught up yet can ask the bucket (:meth:`LobbyMirror.look_up`) and be sure of the answer.

Each entry is ``[owner, status, table_info bytes, [player id or None per seat]]``: the player ids let
a node that resumes a player whose home was another node name their seats in ``welcome``. So a change
of who sits is written ahead too (the ``seated`` reply waits for it): coalesced, a player whose node
died within moments of sitting down resumed elsewhere to a ``welcome`` without the seat.

Each table's writes are in order, different tables' at once: a table's first entry is written in its
own line of the node's :class:`~boneyard.server.cluster.writes.Writes` (key ``entry <table id>``, not
one line for all the node's new tables: at 1,000 tables on two nodes the ramp's entries queued behind
one another and the other node answered ``no_such_table``); its later changes and its removal are
compare-and-set on the revision this node wrote last, each table's at most one at a time, all the
dirty tables' together. The compare-and-set is what keeps a table's order when its owner changes: a
node that lost the table (cut off, frozen past its lease, stopping while its last change was on its
way) can never write its stale entry over the new owner's; its write is refused and it lets the
table go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgpack

from boneyard.server.cluster.directory import Changes, Directory
from boneyard.server.cluster.writes import Writes
from boneyard.server.pushes import Listed
from boneyard.server.seats import Listener

if TYPE_CHECKING:
    from boneyard.server.lobby import Lobby
    from boneyard.server.table import Table

log = logging.getLogger("boneyard.cluster")

DIRECTORY_SECONDS = 0.05
"""A table's changes reach the directory within this (several changes in between: one write)."""

CATCH_UP_SECONDS = 2.0
"""How long a resume waits for this node's mirror to catch up with the directory before it goes on."""


@dataclass(frozen=True, slots=True)
class RemoteTable:
    """Another node's table as the directory lists it (a :class:`~boneyard.server.pushes.Listed`)."""

    table_id: str
    owner: str
    status: str
    packed: bytes
    players: tuple[str | None, ...] = ()
    """The player id holding each seat (``None``: empty, or a bot's)."""

    def info_packed(self) -> bytes:
        return self.packed

    def listeners(self) -> list[Listener]:
        return []  # its members are the owner's to tell


class LobbyMirror:
    """The directory as this node's lobby sees it (``attach`` the lobby, then ``close`` at the end)."""

    def __init__(self, name: str, directory: Directory, writes: Writes) -> None:
        self.name = name
        self.directory = directory
        self._writes = writes
        self.lobby: Lobby | None = None
        self._listed: dict[str, RemoteTable] = {}
        """Other nodes' tables, by table id."""
        self._seated: dict[str, dict[str, int]] = {}
        """Where the listed tables seat each player: player id, then table id and seat (a resume's
        look-up, once per player who resumes through this node: no scan over every table)."""
        self._dirty: set[str] = set()
        self._entered: set[str] = set()
        """This node's tables whose entry it wrote (or is writing) since it got them."""
        self._revisions: dict[str, int] = {}
        """This node's tables whose entry is written: the entry's revision, as this node wrote it last."""
        self._behind: set[str] = set()
        """Tables changed while their first entry was still on its way: written once it is."""
        self._holders: dict[str, tuple[str | None, ...]] = {}
        """Who sits at each of this node's tables, as last queued for the directory."""
        self.on_moved: Callable[[str, str], None] | None = None
        """Told ``(table_id, new owner)`` when another node's table gets a new owner."""
        self._publishing: asyncio.Task[None] | None = None
        self._feed: asyncio.Task[None] | None = None
        self._changes: Changes | None = None

    def attach(self, lobby: Lobby) -> None:
        """List the directory's tables in ``lobby`` and follow its changes; publish the lobby's own."""
        self.lobby = lobby
        lobby.pushes.remote = self
        lobby.pushes.on_note = self.noted
        changes = self._changes = self.directory.changes()
        for key, value in self.directory.entries.items():
            self._listing(key, value)
        self._feed = asyncio.get_running_loop().create_task(self._follow(changes))

    async def caught_up(self) -> None:
        """List every change the directory held a moment ago (a resume's seat look-up: a seat taken on
        another node a moment ago was written ahead of its ``seated``, so it is found)."""
        try:
            caught_up = await self.directory.caught_up(CATCH_UP_SECONDS)
        except Exception as error:  # NATS out of reach a moment: the resume goes on with the mirror
            log.warning("cannot ask the directory how far it is: %s", error)
        else:
            if not caught_up:
                log.warning("the directory did not catch up within %g s: going on without", CATCH_UP_SECONDS)
        if self._changes is not None:
            for key, value in self._changes.taken():  # those the follower has not taken yet
                self._listing(key, value)

    async def flush(self) -> None:
        """Wait for the directory write under way (if any)."""
        if self._publishing is not None:
            await self._publishing

    async def close(self) -> None:
        """Stop following the directory."""
        if self._feed is not None:
            self._feed.cancel()
        await self.directory.close()

    def get(self, table_id: str) -> RemoteTable | None:
        """Another node's table, as the directory lists it (``None``: no such table elsewhere)."""
        return self._listed.get(table_id)

    def listed(self) -> list[Listed]:
        """Every other node's table."""
        return list(self._listed.values())

    def owner_of(self, table_id: str) -> str | None:
        listed = self._listed.get(table_id)
        return None if listed is None else listed.owner

    async def look_up(self, table_id: str) -> str | None:
        """The table's owner as the bucket says now (``None``: no such table), for a table this node's
        mirror does not list yet: an owner writes a table's entry before anyone hears of the table, so
        a client told of it on another node a moment ago finds it here. The answer is listed too."""
        value = await self.directory.lookup(table_id)
        if value is None:
            return None
        self._listing(table_id, value)
        owner: str = msgpack.unpackb(value)[0]
        return owner

    async def _follow(self, changes: Any) -> None:
        async for key, value in changes:
            self._listing(key, value)

    def _listing(self, table_id: str, value: bytes | None) -> None:
        lobby = self.lobby
        assert lobby is not None
        if value is None:
            if self._unlist(table_id) is not None:
                lobby.pushes.note_remote(table_id, "removed")
            return
        owner, status, packed, *rest = msgpack.unpackb(value)  # rest: [players] (older entries: none)
        before = self._listed.get(table_id)
        if before is not None and before.owner != owner and self.on_moved is not None:
            self.on_moved(table_id, owner)  # taken over (or handed over)
        if owner == self.name:
            self._unlist(table_id)  # this node's own table (taken over?): the lobby knows it
            return
        self._unlist(table_id)
        listed = self._listed[table_id] = RemoteTable(
            table_id, owner, status, packed, tuple(rest[0]) if rest else ()
        )
        for seat, holder in enumerate(listed.players):
            if holder is not None:
                self._seated.setdefault(holder, {})[table_id] = seat
        lobby.pushes.note_remote(table_id, "updated")

    def _unlist(self, table_id: str) -> RemoteTable | None:
        listed = self._listed.pop(table_id, None)
        holders = {h for h in listed.players if h is not None} if listed is not None else set()
        for holder in holders:
            seats = self._seated.get(holder, {})
            seats.pop(table_id, None)
            if not seats:
                self._seated.pop(holder, None)
        return listed

    def others(self) -> list[tuple[str, str]]:
        """Every other node's table, and its owner as the directory says."""
        return [(table_id, listed.owner) for table_id, listed in self._listed.items()]

    def seats_of(self, player_id: str) -> list[tuple[RemoteTable, int]]:
        """The other nodes' tables where the directory says ``player_id`` sits, and the seat."""
        seats = self._seated.get(player_id, {})
        return [(self._listed[table_id], seat) for table_id, seat in seats.items()]

    def noted(self, table_id: str) -> None:
        """A table of this node changed (or went): into the directory soon; a table new here, ahead of
        the frames that tell of it."""
        lobby = self.lobby
        table = lobby.tables.get(table_id) if lobby is not None else None
        if table is not None:
            holders = _holders(table)
            if table_id not in self._entered:
                self._entered.add(table_id)
                self._holders[table_id] = holders
                self._writes.write(lambda: self._enter(table_id), f"entry {table_id}")
                return
            if holders != self._holders.get(table_id):  # after the first entry, in its line
                self._holders[table_id] = holders
                self._writes.write(lambda: self._update(table_id), f"entry {table_id}")
                return
        self._dirty.add(table_id)
        if self._publishing is None:
            self._publishing = asyncio.get_running_loop().create_task(self._publish_soon())

    async def _publish_soon(self) -> None:
        try:
            await asyncio.sleep(DIRECTORY_SECONDS)
            await self._publish_directory()
        finally:
            self._publishing = None

    def forget(self, table_id: str) -> None:
        """The table is another node's now (this one lost it): its entry is the new owner's to write."""
        self._dirty.discard(table_id)
        self._entered.discard(table_id)
        self._revisions.pop(table_id, None)
        self._behind.discard(table_id)
        self._holders.pop(table_id, None)

    async def _enter(self, table_id: str) -> None:
        lobby = self.lobby
        table = lobby.tables.get(table_id) if lobby is not None else None
        if table is None:  # gone already: nothing of it was written, nothing to remove
            self.forget(table_id)
            return
        try:
            revision = await self.directory.put(table_id, self._entry(table))
        except Exception as error:
            log.warning("table %s: cannot enter it in the directory: %s", table_id, error)
            self._entered.discard(table_id)  # its next change tries again
            return
        if table_id not in self._entered:
            return  # lost meanwhile
        self._revisions[table_id] = revision
        if table_id in self._behind:
            self._behind.discard(table_id)
            self.noted(table_id)

    def _entry(self, table: Table) -> bytes:
        value: bytes = msgpack.packb([self.name, table.status, table.info_packed(), _holders(table)])
        return value

    async def _publish_directory(self) -> None:
        while self._dirty:
            dirty, self._dirty = self._dirty, set()
            await asyncio.gather(*(self._update(table_id) for table_id in dirty))

    async def _update(self, table_id: str) -> None:
        """The table's entry as it is now (or its removal), if no other node wrote it since."""
        lobby = self.lobby
        assert lobby is not None
        if table_id not in self._entered:
            return  # lost meanwhile: not this node's to write
        last = self._revisions.get(table_id)
        if last is None:
            self._behind.add(table_id)  # its first entry is on its way: this change follows it
            return
        table = lobby.tables.get(table_id)
        try:
            if table is None:
                self.forget(table_id)
                if not await self.directory.remove(table_id, last):
                    log.info("table %s: another node wrote its directory entry since", table_id)
                return
            revision = await self.directory.update(table_id, self._entry(table), last)
            if revision is None:  # refused: another node's now, or this node's last answer was lost
                revision = await self._rewrite(table_id, table)
        except Exception as error:
            log.warning("table %s: cannot update the directory: %s", table_id, error)
            return
        if revision is None:
            self.forget(table_id)
            log.warning("table %s: another node wrote its directory entry: it is that node's now", table_id)
        elif table_id in self._revisions:
            self._revisions[table_id] = revision

    async def _rewrite(self, table_id: str, table: Table) -> int | None:
        """After a refused update: write again if the entry still names this node (a write of this
        node's whose answer never came); ``None`` if it names another."""
        found = await self.directory.revision(table_id)
        if found is None or msgpack.unpackb(found[0])[0] != self.name:
            return None
        return await self.directory.update(table_id, self._entry(table), found[1])


def _holders(table: Table) -> tuple[str | None, ...]:
    """The player id holding each seat (``None``: empty, or a bot's)."""
    return tuple(None if s.session is None else s.session.player_id for s in table.seats)
