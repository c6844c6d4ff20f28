"""The seam's table of handlers: one route per command type, each typed by its command model."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from test_commands import FakeLink, command, connect, front

from boneyard.protocol.codec import HotAct
from boneyard.protocol.messages import COMMAND_MODELS
from boneyard.server.commands import HANDLERS, CommandSeam
from boneyard.server.cycle import GameCycle
from boneyard.server.routes import Route
from boneyard.server.table import Table


def test_every_command_model_has_the_route_named_by_its_type() -> None:
    for model in COMMAND_MODELS:
        (kind,) = get_args(model.model_fields["type"].annotation)
        route = HANDLERS[kind]
        assert isinstance(route, Route) and issubclass(model, route.models), kind
    act = HANDLERS["act"]
    assert isinstance(act, Route) and HotAct in act.models  # the fast path's act too
    assert set(HANDLERS) == {get_args(m.model_fields["type"].annotation)[0] for m in COMMAND_MODELS}


def test_a_command_of_another_model_never_reaches_a_handler() -> None:
    commands, _, _ = front()
    link = connect(commands, "ana")
    assert link.session is not None
    with pytest.raises(TypeError, match="Leave routed to a handler of"):
        HANDLERS["join"](commands, link, link.session, command(type="leave", table_id="t1"))


def test_a_wrong_pairing_reaches_the_client_as_an_internal_error_not_a_half_run_handler() -> None:
    commands, lobby, _ = front()
    link: FakeLink = connect(commands, "ana")
    assert link.session is not None
    saved = HANDLERS["ready"]
    HANDLERS["ready"] = HANDLERS["join"]  # a mispaired table, as a wrong edit would make it
    try:
        commands.dispatch(link, link.session, command(type="ready", id=4, table_id="t1"))
    finally:
        HANDLERS["ready"] = saved
    assert link.messages[-1].type == "error" and link.messages[-1].code == "internal_error"
    assert not lobby.tables


def test_the_new_command_recipe_names_files_and_parts_that_exist() -> None:
    """docs/ARCHITECTURE.md's "A new command" names the files to edit and the parts a handler calls."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "ARCHITECTURE.md").read_text()
    recipe = text[text.index("- **A new command.**") : text.index("- **A new game option.**")]
    paths = set(re.findall(r"`((?:server|protocol)/[\w/]+\.py)`", recipe))
    assert {"server/commands.py", "server/player_commands.py", "server/seating.py"} <= paths
    assert all((root / path).is_file() for path in paths), paths
    assert "Route((TheModel,), CommandSeam._handler)" in recipe and hasattr(CommandSeam, "_table")
    assert {"seating", "cycle"} <= set(Table.__slots__) and isinstance(GameCycle.breaks, property)
