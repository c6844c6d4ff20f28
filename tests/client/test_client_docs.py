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
    for flag in (
        "--auto",
        "--json",
        "--server",
        "--players",
        "--partnerships",
        "--name",
        "--no-color",
        "--guest",
    ):
        assert flag in GUIDE, flag
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(subcommands) == {"connect", "play", "replay", "verify", "account", "profile", "leaderboard"}
    for subcommand in subcommands:
        assert f"boneyard {subcommand} " in GUIDE, subcommand


def test_the_client_ships_the_rule_book_as_it_is() -> None:
    """`rules` in the client shows docs/RULES.md; the package carries a copy, which must be current."""
    from boneyard.clients.cli.ui.rulebook import rule_book, rules_text

    assert rule_book() == (ROOT / "docs" / "RULES.md").read_text(), "cp docs/RULES.md clients/cli/ui/rules.md"
    moon, straight = rules_text("moon"), rules_text("straight")
    assert "M4" in moon and "S9" not in moon
    assert "S9" in straight and "spinner" in straight and "M4" not in straight


def test_the_readme_pictures_are_the_committed_snapshots() -> None:
    """The README shows the real screens: its pictures are byte-for-byte snapshots the suite compares."""
    readme = (ROOT / "README.md").read_text()
    snapshots = ROOT / "tests" / "client" / "__snapshots__" / "test_client_snapshots"
    for picture, snapshot in [
        ("straight-table.svg", "test_straight_layout[straight-layout-120x40].svg"),
        ("moon-table.svg", "test_moon_trick[moon-trick-80x24].svg"),
    ]:
        assert f"docs/images/{picture}" in readme
        shown = (ROOT / "docs" / "images" / picture).read_bytes()
        assert shown == (snapshots / snapshot).read_bytes(), f"cp the snapshot to docs/images/{picture}"
