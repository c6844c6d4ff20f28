"""docs/ARCHITECTURE.md's recipes list exactly the members of the protocols they name.

A recipe names a protocol as ``Name`` followed by its file and its members in parentheses, e.g.
"a `Link` (**`server/routes.py`**: `write`, `close_with`, ...)". Each such list must be the
protocol's members, no more and no fewer, so that a stranger who writes a transport or a storage
backend from the recipe writes every method the server calls.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
RECIPES = DOC[DOC.index("## Where to change things") : DOC.index("## Engines")]

NAMED = re.compile(r"`(\w+)`\s+\((?:\*\*)?`([\w/]+\.py)`(?:\*\*)?: ([^)]*)\)")
"""A protocol named with its file and its members: ``Name`` (`path.py`: `a`, `b`, ...)."""

EXPECTED = {"Link", "Backend", "TableLog", "RecordStore", "Gate"}
"""The protocols a transport or a storage backend implements (each must be listed with its members)."""


def _protocol_members(cls: type) -> set[str]:
    """The public names a protocol class declares, its annotations (attributes) included."""
    members: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__ in ("typing", "builtins"):
            continue
        members |= {name for name in vars(klass) if not name.startswith("_")}
        members |= {name for name in getattr(klass, "__annotations__", {}) if not name.startswith("_")}
    return members


def _listed() -> dict[str, tuple[str, set[str]]]:
    found: dict[str, tuple[str, set[str]]] = {}
    for name, path, members in NAMED.findall(RECIPES):
        found[name] = (path, set(re.findall(r"`(\w+)`", members)))
    return found


def test_every_protocol_of_the_recipes_is_listed_with_its_members() -> None:
    assert set(_listed()) >= EXPECTED


@pytest.mark.parametrize("protocol", sorted(EXPECTED))
def test_a_recipe_lists_exactly_the_protocol_s_members(protocol: str) -> None:
    path, listed = _listed()[protocol]
    module = importlib.import_module("boneyard." + path.removesuffix(".py").replace("/", "."))
    assert listed == _protocol_members(getattr(module, protocol))


@pytest.mark.parametrize("recipe", ["A new storage backend", "A new transport"])
def test_the_recipe_says_frames_wait_for_the_gate(recipe: str) -> None:
    start = RECIPES.index(f"**{recipe}")
    end = RECIPES.find("\n- **", start)
    assert "**Frames wait for the `Gate`**" in RECIPES[start : end if end > 0 else None]
