"""docs/CLIENT.md: its example bot is the real, tested file, and it documents every command."""

from __future__ import annotations

import re
from pathlib import Path

from boneyard.clients.cli.main import build_parser
from boneyard.clients.cli.ui.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "CLIENT.md").read_text()


def test_the_guides_example_bot_is_the_example_file() -> None:
    block = re.search(r"<!-- example: random_bot -->\n```python\n(.*?)```", GUIDE, re.S)
    assert block is not None
    source = (ROOT / "clients" / "cli" / "examples" / "random_bot.py").read_text()
    assert block[1] in source  # the same lines, so the guide cannot drift from what the tests run
    assert 20 <= len(source.splitlines()) <= 80  # "a bot in a few dozen lines"


def test_the_guide_names_every_command_and_flag() -> None:
    for name in COMMANDS:
        assert name in GUIDE, name
    for flag in ("--auto", "--json", "--server", "--players", "--partnerships", "--name", "--no-color"):
        assert flag in GUIDE, flag
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(subcommands) == {"connect", "play", "replay", "verify"}
    for subcommand in subcommands:
        assert f"boneyard {subcommand} " in GUIDE, subcommand
