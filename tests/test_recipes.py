"""docs/ARCHITECTURE.md's recipes "A new game" and "A new game option", checked against the code where
a test can: the files a recipe names exist (``<game>`` for each game that has them), the test game's
files are exactly those the recipe names, both registries list the same games, each game's one options
model is its engine's, and no new per-game branch appears outside the games' own modules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boneyard.protocol.wiregames import wire_game, wire_games
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
LAST_ADDED = "texas42"
"""The game added through the recipe: every ``<game>`` file it names is one of Texas 42's."""


def recipe(title: str) -> str:
    """The text of the bullet ``- **{title}**`` of "Where to change things"."""
    found = re.search(rf"^- \*\*{re.escape(title)}\*\*(.*?)(?=^- \*\*|^## )", ARCHITECTURE, re.M | re.S)
    assert found, f"no recipe {title!r} in docs/ARCHITECTURE.md"
    return found.group(1)


def paths(text: str) -> set[str]:
    """Every file or folder a recipe names in backquotes."""
    return {p for p in re.findall(r"`([\w./<>-]+)`", text) if "/" in p or p.endswith((".py", ".md", ".toml"))}


def test_every_file_the_new_game_recipe_names_exists() -> None:
    named = paths(recipe("A new game."))
    assert {"server/games/registry.py", "protocol/__init__.py", "protocol/wiregames.py"} <= named
    for path in named - {p for p in named if "<game>" in p or p.startswith("duel")}:
        where = [ROOT / path] if "/" in path else [ROOT / d / path for d in (".", "server/games")]
        assert any(w.exists() for w in where), path
    for path in (p for p in named if "<game>" in p):
        assert (ROOT / path.replace("<game>", LAST_ADDED)).exists(), path
    for game in GAMES:  # every game has its engine package and its wire module
        assert (ROOT / "server" / "games" / game).is_dir() and (ROOT / "protocol" / f"{game}.py").is_file()


def test_the_test_game_is_exactly_the_files_the_recipe_names() -> None:
    named = {p for p in re.findall(r"`(duel\w*\.py)`", recipe("A new game."))}
    folder = ROOT / "tests" / "newgame"
    assert named == {p.name for p in folder.glob("*.py") if not p.name.startswith("test_")}
    assert len(named) + len(list(folder.glob("test_*.py"))) <= 12


def test_the_server_and_the_wire_know_the_same_games() -> None:
    assert [game.name for game in wire_games()] == list(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_has_one_options_model_which_its_engine_plays_by(game: str) -> None:
    """ "A new game option": the option's field in the game's options model only; the engine's options are
    that model (``protocol/options/<game>.py``), which the wire re-exports and the records carry."""
    spec, model = GAMES[game], wire_game(game).options
    assert spec.options_type is model
    assert model.__module__ == f"boneyard.protocol.options.{game}"
    engine = spec.new_game(model(), RandomDealer(1))
    assert engine.record()["options"] == model().as_dict() == model.checked(model().as_dict(), game).as_dict()


def test_every_file_the_new_option_recipe_names_exists() -> None:
    named = paths(recipe("A new game option."))
    assert "protocol/options/<game>.py" in named
    for path in named:
        assert (ROOT / path.replace("<game>", LAST_ADDED)).exists(), path


def test_no_new_branch_on_a_games_name_outside_the_games_modules() -> None:
    names = "|".join(GAMES)
    branch = re.compile(rf"[=!]=\s*[\"']({names})[\"']|[\"']({names})[\"']\s*[=!]=|in \([\"']({names})[\"']")
    own = {f"protocol/{game}.py" for game in GAMES}
    found = set()
    for folder in ("protocol", "server", "clients"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("server/games/") or relative in own:
                continue
            if branch.search(path.read_text()):
                found.add(relative)
    assert not found, sorted(
        found
    )  # only the games' own modules (server/games/, the wire modules) name a game
