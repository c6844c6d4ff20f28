"""``boneyard replay``: records written by the engines, stepped through by the client alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import RichLog

from boneyard.clients.cli.core.rules import tile_word
from boneyard.clients.cli.main import main
from boneyard.clients.cli.replay import load_records, steps
from boneyard.clients.cli.tui.replay import ReplayApp, ReplayScreen
from boneyard.clients.cli.tui.widgets import Board
from boneyard.clients.cli.ui.render import plain
from boneyard.protocol import MoonRecord
from boneyard.server.games.registry import GAMES
from boneyard.server.simulate import simulate


def _records(game: str, options: dict[str, Any], n: int = 2) -> list[dict[str, Any]]:
    spec = GAMES[game]
    return list(simulate(spec, spec.options_from_dict(options), n, seed=7))


@pytest.mark.parametrize(
    ("game", "options"),
    [("moon", {}), ("straight", {"players": 2}), ("straight", {"players": 3}), ("straight", {"players": 4})],
)
def test_replay_rebuilds_every_hand(tmp_path: Path, game: str, options: dict[str, Any]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _records(game, options)))
    records = load_records(path)
    assert len(records) == 2
    for record in records:
        shown = steps(record)
        text = "\n".join(f"{s.title}\n{plain(s.body)}" for s in shown)
        assert shown[-1].title == "Game over"
        assert "wins" in plain(shown[-1].body)
        # Every hand ends with the record's own cumulative scores, which the replayer printed.
        for hand in record.hands:
            assert " ".join(str(v) for v in hand.scores[:1]) in text
        if game == "moon":
            played = sum(1 for h in record.hands for a in h.actions if a.type == "play")
            assert sum(1 for s in shown if ", trick " in s.title) == played // 3
        else:
            assert "count" in text


def test_moon_trick_winners_match_who_leads_next(tmp_path: Path) -> None:
    # The record does not say who took a trick; whoever leads the next one did.
    record = load_records_from(tmp_path, _records("moon", {}, 3))
    for game in record:
        for shown in steps(game):
            assert "takes it" in plain(shown.body) or ", trick " not in shown.title


def load_records_from(tmp_path: Path, records: list[dict[str, Any]]) -> list[Any]:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(records))
    return load_records(path)


def test_replay_command_prints_all_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_records("moon", {}, 1)[0]))
    assert main(["replay", str(path), "--all", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "Hand 1: the deal" in out and "Game over" in out and "[" in out and "|" in out
    assert "\x1b[" not in out  # plain text where there is no colour


def test_replay_of_a_missing_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_replay_runs_as_a_program(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_records("straight", {"players": 2}, 1)[0]))
    done = subprocess.run(
        [sys.executable, "-m", "boneyard.clients.cli.main", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert "Layout" in done.stdout and "Game over" in done.stdout


async def test_the_full_screen_replay_heads_logs_and_names_the_widow_and_discard(tmp_path: Path) -> None:
    """Issue 24.9: the replay's log pane stayed empty, its header said "(watching)", and the widow and the
    discard were not named though the record has them."""
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _records("moon", {}, 1)))
    record = load_records(path)[0]
    assert isinstance(record, MoonRecord)
    hand = next(h for h in record.hands if any(a.type == "discard" for a in h.actions))
    discard = next(a for a in hand.actions if a.type == "discard")
    app = ReplayApp(record, colour=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        heading = str(screen.query_one("#title").render())
        assert "(watching)" not in heading and heading.startswith("Replay · Moon · hand 1"), heading
        widow, tile = tile_word(hand.widow), tile_word(discard.tile)
        number = record.hands.index(hand) + 1
        at = next(i for i, s in enumerate(app.steps) if "discards" in s.title and s.hand == number)
        await pilot.press(*["right"] * at)
        assert app.screen_at == at
        title = app.steps[at].title
        assert f"takes the widow {widow}, discards {tile}" in title, title
        log = screen.query_one("#log", RichLog)
        logged = [strip.text for strip in log.lines]
        assert any(f"the deal (the widow {widow})" in line for line in logged), logged
        assert any(tile in line and "discards" in line for line in logged), logged
        assert f"discard: {tile}" in str(screen.query_one(Board).render())
