"""The client's ``View`` is what its shared code reads off any game's view, not a union of the built-in games
(issue #27): a game registered at run time (the tests' Duel) is a ``View`` like the others, and its
snapshots and events keep the mirror's view as the engine has it, with no line of the core naming it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from engine_feed import comparable, feed

from boneyard.clients.cli.core.games import load_games
from boneyard.clients.cli.core.mirror import Mirror
from boneyard.clients.cli.core.table_mirror import View

sys.path.insert(0, str(Path(__file__).parent.parent / "newgame"))

pytest_plugins = ["duel_fixtures"]  # the duel fixture: Duel registered with its terminal drawing

SHARED = sorted(name for name in vars(View) if not name.startswith("_"))
"""The members of ``View``: what the client's core and screens read of every game's view."""


def test_every_games_view_model_has_what_the_shared_code_reads(duel: str) -> None:
    games = load_games()
    assert {"moon", "straight", "texas42", duel} <= set(games)
    assert {"hand", "legal_actions", "to_move", "model_copy"} <= set(SHARED)
    for name, game in games.items():
        fields = game.view.model_fields
        missing = [member for member in SHARED if member not in fields and not hasattr(game.view, member)]
        assert missing == [], name


def test_a_duel_table_is_mirrored_as_its_engine_sees_it(duel: str) -> None:
    mirror, checked = Mirror(), 0
    for message, expected in feed(duel, {}, 0, seed=1):
        if message is not None:
            mirror.apply(message)
        if expected is not None:
            shown = mirror.tables["t1"].view
            assert shown is not None and type(shown) is type(expected)
            assert comparable(shown) == comparable(expected), message
            checked += 1
    assert checked > 5 and mirror.tables["t1"].game_over is not None


@pytest.mark.parametrize(("game", "options"), [("duel", {}), ("texas42", {"nello": True}), ("moon", {})])
def test_a_won_trick_stays_on_show_as_its_game_built_it(
    duel: str, game: str, options: dict[str, Any]
) -> None:
    """The last trick keeps each play's seat as the view held it (the game's ``trick``), not as counted
    from a leader: Duel's ``trick_won`` names none, a nello hand's partner sits out."""
    mirror, tricks, sat_out = Mirror(), 0, 0
    for message, _ in feed(game, options, 0, seed=2, wanted="nello" if options else None):
        event = getattr(message, "event", None)
        table = mirror.tables.get("t1")
        built = getattr(table.view, "trick", ()) if table is not None else ()
        if message is not None:
            mirror.apply(message)
        if event is not None and event.type == "trick_won" and table is not None:
            assert table.last_trick == tuple(built) and len(built) == len(event.tiles)
            tricks += 1
            sat_out += len(built) < len(table.view.tile_counts if table.view is not None else ())
    assert tricks >= 3
    assert (sat_out > 0) == (game == "texas42")
