"""The client core: a small Python SDK for Boneyard servers, with no UI code.

- :class:`Client` (``session.py``; the handshake in ``handshake.py``, its notices in ``notices.py``):
  connection, commands with ids matched to replies, automatic reconnect with resume;
- :class:`Mirror` / :class:`TableMirror` (``mirror.py``, ``table_mirror.py``): the table state, built
  only from the messages the server sends, each game's view folded by its own module (``games.py``:
  the registry of the client's games);
- ``transport.py``: the swappable frame pipe (websockets by default);
- ``rules.py`` and ``layout.py``: the little rule knowledge needed to show a game.

See docs/CLIENT.md for a guide and ``clients/cli/examples/random_bot.py`` for a bot.
"""

from boneyard.clients.cli.core.commands import CommandError, ConnectionLost, NotConnected
from boneyard.clients.cli.core.mirror import Mirror, MirrorError, TableMirror
from boneyard.clients.cli.core.pacing import Backoff
from boneyard.clients.cli.core.session import Client, Notice
from boneyard.clients.cli.core.transport import Connector, Transport, TransportClosed, websocket_connector

__all__ = [
    "Backoff",
    "Client",
    "CommandError",
    "ConnectionLost",
    "Connector",
    "Mirror",
    "MirrorError",
    "NotConnected",
    "Notice",
    "TableMirror",
    "Transport",
    "TransportClosed",
    "websocket_connector",
]
