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

from boneyard.server.meter import BucketsByKey


class SpectatorChat(BucketsByKey):
    """One bucket of ``per_minute`` chat lines per table, shared by its spectators, refilled over a minute
    (``take(table_id, now)``; ``forget(table_id)`` when the table is gone)."""

    __slots__ = ()
