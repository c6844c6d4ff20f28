"""Texas 42 (docs/RULES.md T1-T12): engine, actions, events, views and bots.

>>> from boneyard.server.games.base import RandomDealer
>>> game = Texas42Game(TexasOptions(target=1), RandomDealer(0))
>>> game.players, game.phase, Pass() in game.legal_actions(game.to_move)
(4, 'bidding', True)
"""

from boneyard.server.games.texas42.actions import (
    ALL_ACTIONS,
    Action,
    Bid,
    NameTrump,
    Pass,
    Play,
    action_from_record,
)
from boneyard.server.games.texas42.bot import choose
from boneyard.server.games.texas42.events import (
    TEXAS42_EVENTS,
    TEXAS42_FIGURES,
    BidMade,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    HandThrownIn,
    Passed,
    TilePlayed,
    TrickWon,
    TrumpNamed,
)
from boneyard.server.games.texas42.game import TEXAS42_KINDS, Texas42Game, TexasOptions
from boneyard.server.games.texas42.rules import CONTRACTS, TexasTrump
from boneyard.server.games.texas42.state import TexasState
from boneyard.server.games.texas42.view import TexasView

__all__ = [
    "ALL_ACTIONS",
    "CONTRACTS",
    "TEXAS42_EVENTS",
    "TEXAS42_FIGURES",
    "TEXAS42_KINDS",
    "Action",
    "Bid",
    "BidMade",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "HandThrownIn",
    "NameTrump",
    "Pass",
    "Passed",
    "Play",
    "Texas42Game",
    "TexasOptions",
    "TexasState",
    "TexasTrump",
    "TexasView",
    "TilePlayed",
    "TrickWon",
    "TrumpNamed",
    "action_from_record",
    "choose",
]
