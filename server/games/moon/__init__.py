"""Three-Player Moon (docs/RULES.md M1-M13): engine, actions, events, views and a basic bot.

>>> from boneyard.server.games.base import RandomDealer
>>> game = MoonGame(MoonOptions(target=7), RandomDealer(0))
>>> game.players, game.phase, len(game.legal_actions(game.to_move))
(3, 'bidding', 6)
"""

from boneyard.server.games.moon.actions import (
    Action,
    Bid,
    Discard,
    NameTrump,
    Pass,
    Play,
    action_from_record,
    action_to_dict,
)
from boneyard.server.games.moon.bot import choose
from boneyard.server.games.moon.events import (
    MOON_EVENTS,
    MOON_FIGURES,
    BidMade,
    Discarded,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    HandThrownIn,
    Passed,
    TilePlayed,
    TrickWon,
    TrumpNamed,
    WidowTaken,
)
from boneyard.server.games.moon.game import MOON_KINDS, MoonGame, MoonOptions
from boneyard.server.games.moon.rules import MOON_TILES, TrumpName
from boneyard.server.games.moon.state import MoonState
from boneyard.server.games.moon.view import MoonView

__all__ = [
    "MOON_EVENTS",
    "MOON_FIGURES",
    "MOON_KINDS",
    "MOON_TILES",
    "Action",
    "Bid",
    "BidMade",
    "Discard",
    "Discarded",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "HandThrownIn",
    "MoonGame",
    "MoonOptions",
    "MoonState",
    "MoonView",
    "NameTrump",
    "Pass",
    "Passed",
    "Play",
    "TilePlayed",
    "TrickWon",
    "TrumpName",
    "TrumpNamed",
    "WidowTaken",
    "action_from_record",
    "action_to_dict",
    "choose",
]
