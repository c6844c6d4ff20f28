"""The games this client can show, one module each: importing this package registers them.

A game's module builds its :class:`~boneyard.clients.cli.core.games.ClientGame` (how its view follows
the events, how it is drawn, its sheet, replay and rules) and registers it; the rest of the client asks
:func:`~boneyard.clients.cli.core.games.client_game` and names no game.
"""

from boneyard.clients.cli.core.games import CLIENT_GAMES, ClientGame, client_game, register_client_game
from boneyard.clients.cli.games import moon, straight, texas42

__all__ = ["CLIENT_GAMES", "ClientGame", "client_game", "moon", "register_client_game", "straight", "texas42"]
