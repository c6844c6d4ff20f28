"""Every docstring example in the package, run through the imported ``boneyard.*`` modules.

pytest's ``--doctest-modules`` collects by file path, which would import each module a second time
under its folder name (``server.app`` beside ``boneyard.server.app``); walking the installed package
instead imports each module exactly once, under the one name users import it by.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import boneyard.clients
import boneyard.protocol
import boneyard.server


def _module_names() -> list[str]:
    names: list[str] = []
    for package in (boneyard.protocol, boneyard.server, boneyard.clients):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            if not info.name.endswith(".__main__"):  # runs its program when imported
                names.append(info.name)
    return sorted(names)


MODULES = _module_names()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_walk_finds_the_examples() -> None:
    """A walk that found nothing would pass every case above vacuously."""
    attempted = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted
        for name in (
            "boneyard.protocol.codec",
            "boneyard.server.games.tiles",
            "boneyard.clients.cli.core.layout",
        )
    )
    assert attempted > 10
    assert "boneyard.server.games.moon.game" in MODULES and "boneyard.clients.cli.ui.render" in MODULES
