"""Shared fixtures: the option sets every game-level test walks through."""

from __future__ import annotations

from typing import Any

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("moon", {}),
    ("moon", {"all_pass": "force_last"}),
    ("straight", {"players": 2}),
    ("straight", {"players": 3}),
    ("straight", {"players": 4, "partnerships": False}),
    ("straight", {"players": 4}),
    ("texas42", {}),
    ("texas42", {"all_pass": "redeal", "nello": True}),
]
"""Every game and option set the server offers (targets at their defaults)."""


def option_set_id(value: tuple[str, dict[str, Any]]) -> str:
    game, options = value
    return "-".join([game, *(f"{k}={v}" for k, v in options.items())])
