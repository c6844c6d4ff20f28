"""Duel's ``GameSpec`` (the test game's ``server/games/registry.py`` part of the recipe)."""

from __future__ import annotations

from duel import ALL_ACTIONS, DuelGame, DuelOptions, action_from_record, choose

from boneyard.server.games.registry import GameSpec

DUEL_SPEC = GameSpec("duel", DuelOptions, DuelGame, action_from_record, choose, ALL_ACTIONS)
