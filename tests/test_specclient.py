"""bench/specclient, the client written from the spec alone, keeps working: games against a real server."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "bench" / "specclient"


def test_spec_only_client_plays_checked_games_against_a_real_server() -> None:
    # Three games (both Moon variants, two-player Straight), short targets, wrong commands and drops made
    # likely so that every check runs; the tool starts `boneyard-server serve --port 0` itself.
    command = [sys.executable, str(TOOL), "--games", "3", "--concurrency", "3", "--moon-target", "5"]
    command += ["--straight-target", "31", "--wrong", "0.3", "--drop", "0.1", "--game-timeout", "60"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stdout + done.stderr
    figures = dict(re.findall(r"^(\w[\w ]*?) {2,}(\d+)", done.stdout, re.MULTILINE))
    assert figures["games finished"] == "3", done.stdout
    assert int(figures["frames checked"]) > 100, done.stdout
    assert int(figures["wrong commands"]) > 0, done.stdout
    assert int(figures["drops and resumes"]) > 0, done.stdout
    assert int(figures["turns in events"]) > 0, done.stdout  # half the connections accept turn_in_event
    for failure in ("schema", "ordering", "leak", "undocumented code", "wrong code", "fairness", "shape"):
        assert figures[failure] == "0", done.stdout


def test_the_tools_deal_is_the_specs_worked_example() -> None:
    # PROTOCOL.md section 14's worked example, recomputed by the tool's own boneyard-deal/1.
    sys.path.insert(0, str(TOOL))
    try:
        deal = importlib.import_module("checks").deal
    finally:
        sys.path.remove(str(TOOL))
    seeds = [b"\xa1" * 32, None, b"\x5e" * 32]
    moon = deal("moon", bytes(range(32)), seeds, 0)
    assert moon.hands[2] == ((3, 1), (6, 4), (5, 2), (6, 6), (6, 1), (5, 1), (0, 0))
    assert moon.rest == ((3, 2),) and moon.first == 0
    straight = deal("straight", bytes(range(32)), seeds, 0)
    assert straight.hands[0] == ((5, 0), (4, 3), (2, 0), (5, 3), (4, 2), (2, 2), (5, 5))
    assert straight.rest == ((6, 6), (6, 1), (5, 1), (0, 0), (3, 0), (1, 0), (3, 2))
