"""Straight Dominoes (docs/RULES.md S1-S14): the engine, its actions, events, views and a basic bot.

>>> from boneyard.server.games.base import RandomDealer
>>> game = StraightGame(StraightOptions(players=2), RandomDealer(0))
>>> [e.type for e in game.opening_events()]
['hand_started', 'hand_dealt', 'hand_dealt']
"""

from boneyard.server.games.straight.actions import Action, Draw, Pass, Play, action_from_record
from boneyard.server.games.straight.bot import BasicBot, Bot, choose
from boneyard.server.games.straight.core import StraightCore
from boneyard.server.games.straight.events import (
    STRAIGHT_FIGURES,
    Blocked,
    Domino,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    Passed,
    StraightEvent,
    TileDrawn,
    TilePlayed,
)
from boneyard.server.games.straight.game import StraightGame
from boneyard.server.games.straight.options import STRAIGHT_KINDS, StraightOptions
from boneyard.server.games.straight.view import LayoutView, PlacedTile, StraightView

__all__ = [
    "STRAIGHT_FIGURES",
    "STRAIGHT_KINDS",
    "Action",
    "BasicBot",
    "Blocked",
    "Bot",
    "Domino",
    "Draw",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "LayoutView",
    "Pass",
    "Passed",
    "PlacedTile",
    "Play",
    "StraightCore",
    "StraightEvent",
    "StraightGame",
    "StraightOptions",
    "StraightView",
    "TileDrawn",
    "TilePlayed",
    "action_from_record",
    "choose",
]
