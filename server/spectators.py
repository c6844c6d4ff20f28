"""What a table's spectators may cost everyone (issue #15, item 6): their chat, metered per table.

Each chat line goes to everyone at the table, so N spectators each within their own limit cost N x N
frames; a bucket shared by all of a table's spectators keeps it at N. (Their number is capped by
``Settings.max_spectators``, and their comings and goings are pushed as counts, coalesced: see
``Lobby.spectators_changed``.)

>>> chat = SpectatorChat(per_minute=2)
>>> [chat.take("t1", now=0.0) for _ in range(3)], chat.take("t2", now=0.0), chat.take("t1", now=30.0)
([True, True, False], True, True)
>>> chat.forget("t1")
"""

from __future__ import annotations

from boneyard.server.meter import TokenBucket


class SpectatorChat:
    """One bucket of ``per_minute`` chat lines per table, shared by its spectators, refilled over a minute."""

    __slots__ = ("_buckets", "_per_minute")

    def __init__(self, per_minute: int) -> None:
        self._per_minute = per_minute
        self._buckets: dict[str, TokenBucket] = {}
        """Each table's bucket, made at its spectators' first line."""

    def take(self, table_id: str, now: float) -> bool:
        """Whether a spectator at ``table_id`` may send a chat line now (and count it)."""
        bucket = self._buckets.get(table_id)
        if bucket is None:
            bucket = self._buckets[table_id] = TokenBucket(self._per_minute, self._per_minute / 60, now)
        return bucket.take(now)

    def forget(self, table_id: str) -> None:
        """The table is gone."""
        self._buckets.pop(table_id, None)
