"""The remote places of a node's players, indexed both ways: by player, and by table.

When a node dies, every survivor hears that each of its hundreds of tables moved
(:meth:`~boneyard.server.cluster.home.HomeSide.table_moved`); looking up who watches a table by
scanning every player's places made that tables x players. The index by table makes it the table's
own watchers.
"""

from __future__ import annotations

from boneyard.server.cluster.relay import RemotePlace


class Places:
    """Each homed player's remote places, by player id and table id, and who has one at each table.

    >>> places = Places()
    >>> place = RemotePlace("t1", "n2", "p1", lambda *_: None)
    >>> places.put("p1", "t1", place)
    >>> places.get("p1", "t1") is place, places.at("t1")
    (True, ['p1'])
    >>> places.pop("p1", "t1") is place, places.at("t1"), places.get("p1", "t1"), len(places)
    (True, [], None, 0)
    """

    def __init__(self) -> None:
        self._by_player: dict[str, dict[str, RemotePlace]] = {}
        self._by_table: dict[str, set[str]] = {}

    def get(self, player_id: str, table_id: str) -> RemotePlace | None:
        places = self._by_player.get(player_id)
        return None if places is None else places.get(table_id)

    def put(self, player_id: str, table_id: str, place: RemotePlace) -> None:
        self._by_player.setdefault(player_id, {})[table_id] = place
        self._by_table.setdefault(table_id, set()).add(player_id)

    def pop(self, player_id: str, table_id: str) -> RemotePlace | None:
        places = self._by_player.get(player_id)
        place = None if places is None else places.pop(table_id, None)
        if place is not None:
            self._unindex(player_id, table_id)
        if places is not None and not places:
            del self._by_player[player_id]
        return place

    def pop_player(self, player_id: str) -> None:
        for table_id in self._by_player.pop(player_id, {}):
            self._unindex(player_id, table_id)

    def of(self, player_id: str) -> dict[str, RemotePlace]:
        """The player's places, by table id (a copy)."""
        return dict(self._by_player.get(player_id, {}))

    def __len__(self) -> int:
        """The players with a place."""
        return len(self._by_player)

    def at(self, table_id: str) -> list[str]:
        """The players with a place at ``table_id``."""
        return sorted(self._by_table.get(table_id, ()))

    def _unindex(self, player_id: str, table_id: str) -> None:
        players = self._by_table.get(table_id)
        if players is not None:
            players.discard(player_id)
            if not players:
                del self._by_table[table_id]
