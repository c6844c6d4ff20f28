"""The test game registered for a test only (on the wire and in the server, then forgotten), and the
kits of the server and table tests on the path (a server on loopback, a protocol client, the
hidden-information oracle; a table on a manual clock). Imported before them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from duel_spec import DUEL_SPEC
from duel_wire import DUEL

from boneyard.protocol.wiregames import forget_wire_game, register_wire_game
from boneyard.server.games.registry import forget_game, register_game

for kit in ("server", "tables"):
    sys.path.insert(0, str(Path(__file__).parent.parent / kit))


@contextmanager
def registered() -> Iterator[str]:
    """Duel known everywhere meanwhile; its name."""
    register_wire_game(DUEL)
    register_game(DUEL_SPEC)
    try:
        yield DUEL.name
    finally:
        forget_game(DUEL.name)
        forget_wire_game(DUEL.name)
