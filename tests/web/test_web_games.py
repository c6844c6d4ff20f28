"""The browser client names each game in the game's own modules only: the registries (``sdk/games.js``,
``ui/games.js``) list them, and no other file branches on a game's name (issue #27: a new game adds its
modules and a line in each registry)."""

from __future__ import annotations

import re

from browserkit import ROOT

from boneyard.protocol.wiregames import wire_games

WEB = ROOT / "clients" / "web"
GAMES = {game.name for game in wire_games()}
REGISTRY_LINE = re.compile(r'^import \{ (\w+) \} from "\./(\w+)\.js";$', re.MULTILINE)


def registered(registry: str) -> dict[str, str]:
    """The games a registry imports: game name to its module's file name."""
    text = (WEB / registry).read_text()
    return {name: module for name, module in REGISTRY_LINE.findall(text) if name in GAMES}


def test_every_game_of_the_wire_has_a_module_on_each_side() -> None:
    for registry in ("sdk/games.js", "ui/games.js"):
        assert set(registered(registry)) == GAMES, registry


def test_no_file_but_a_games_own_module_names_a_game() -> None:
    own = {
        WEB / folder / f"{module}.js"
        for folder in ("sdk", "ui")
        for module in registered(f"{folder}/games.js").values()
    }
    quoted = "|".join(sorted(GAMES))
    names = re.compile(rf"""["'`]({quoted})["'`]""")
    branching = {
        f"{path.relative_to(WEB)}:{number}: {line.strip()}"
        for path in WEB.rglob("*.js")
        if path not in own and "vendor" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if names.search(line)
    }
    assert not branching, "\n".join(sorted(branching))
