"""Who owns which tables, and how many one player, one address and the whole server may hold at once.

A table belongs to the session that created it, and to that session's address, until the table is
removed. ``create_table`` beyond a quota is refused with ``unavailable`` (the message says which
quota), so one cheap client cannot fill the server's ``max_tables`` (issue #15, item 1) or its CPU
with bots-only games (item 3). The counts are kept, not recounted: a check is a few dict lookups.

>>> quota = TableQuota(per_session=2, per_address=3, bots_per_session=1, bots_max=5)
>>> quota.check("p1", "10.0.0.1", bots_only=True)
>>> quota.add("t1", "p1", "10.0.0.1", bots_only=True)
>>> quota.check("p1", "10.0.0.1", bots_only=True)
Traceback (most recent call last):
...
boneyard.server.errors.CommandError: you already run 1 bots-only tables (bot_tables_per_session)
>>> quota.check("p1", "10.0.0.1", bots_only=False)
>>> quota.add("t2", "p1", "10.0.0.1", bots_only=False)
>>> quota.check("p1", "10.0.0.1", bots_only=False)
Traceback (most recent call last):
...
boneyard.server.errors.CommandError: you already own 2 tables (tables_per_session): leave one first
>>> quota.removed("t1"); quota.check("p1", "10.0.0.1", bots_only=True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from boneyard.server.errors import CommandError


@dataclass(frozen=True, slots=True)
class Owner:
    """Who created a table: the session's player id and its connection's address (without the port)."""

    player_id: str
    address: str
    bots_only: bool


class TableQuota:
    """Owned tables per session and per address; bots-only tables per session and per server."""

    def __init__(self, *, per_session: int, per_address: int, bots_per_session: int, bots_max: int) -> None:
        self._limits = (per_session, per_address, bots_per_session, bots_max)
        self._owners: dict[str, Owner] = {}
        self._by_player: Counter[str] = Counter()
        self._by_address: Counter[str] = Counter()
        self._bots_by_player: Counter[str] = Counter()
        self._bots = 0

    def owner(self, table_id: str) -> Owner | None:
        return self._owners.get(table_id)

    def check(self, player_id: str, address: str, *, bots_only: bool) -> None:
        """Raise ``unavailable`` if this player (at this address) may not create another table."""
        per_session, per_address, bots_per_session, bots_max = self._limits
        if self._by_player[player_id] >= per_session:
            raise CommandError(
                "unavailable", f"you already own {per_session} tables (tables_per_session): leave one first"
            )
        if self._by_address[address] >= per_address:
            raise CommandError(
                "unavailable", f"your address already owns {per_address} tables (tables_per_address)"
            )
        if bots_only and self._bots_by_player[player_id] >= bots_per_session:
            raise CommandError(
                "unavailable", f"you already run {bots_per_session} bots-only tables (bot_tables_per_session)"
            )
        if bots_only and self._bots >= bots_max:
            raise CommandError("unavailable", f"the server runs {bots_max} bots-only tables (max_bot_tables)")

    def add(self, table_id: str, player_id: str, address: str, *, bots_only: bool) -> None:
        owner = self._owners[table_id] = Owner(player_id, address, bots_only)
        self._count(owner, 1)

    def removed(self, table_id: str) -> None:
        owner = self._owners.pop(table_id, None)
        if owner is not None:
            self._count(owner, -1)

    def _count(self, owner: Owner, step: int) -> None:
        self._by_player[owner.player_id] += step
        self._by_address[owner.address] += step
        if owner.bots_only:
            self._bots_by_player[owner.player_id] += step
            self._bots += step
