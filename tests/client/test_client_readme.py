"""README.md for a newcomer (issue #24, item 15): the quickest way to play comes first, with its picture,
before the server's settings; its ``boneyard play`` usage names every option ``boneyard play --help`` has."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from boneyard.clients.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _play_parser() -> argparse.ArgumentParser:
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    play: argparse.ArgumentParser = commands["play"]
    return play


def test_the_quickest_way_to_play_comes_first_with_its_picture() -> None:
    first = README.index("\n## ")  # the first section after the introduction
    section = README[first : README.index("\n## ", first + 1)]
    assert section.startswith("\n## Play now"), section[:40]
    assert "boneyard play moon" in section
    assert re.search(r"!\[[^]]+\]\(docs/images/[a-z-]+\.svg\)", section), "the picture of a game"
    assert README.index("| variable | default | meaning |") > first + len(section)  # the settings come later


def test_the_play_usage_names_every_option_of_play_help() -> None:
    (block,) = re.findall(r"^boneyard play moon\|straight\|texas42 .*?(?=^```)", README, re.M | re.S)
    usage = " ".join(block.split())
    options = {flag for action in _play_parser()._actions for flag in action.option_strings}
    options -= {"-h", "--help"}
    assert {"--target", "--turn", "--bot-delay", "--name", "--pause"} <= options  # the issue names these
    missing = sorted(flag for flag in options if not re.search(rf"[\[|]{re.escape(flag)}[ \]|]", usage))
    assert not missing, f"{missing} not in {usage}"
    bots = next(a for a in _play_parser()._actions if "--bots" in a.option_strings)
    assert f"[--bots {'|'.join(bots.choices or ())}]" in usage
