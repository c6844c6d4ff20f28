"""``boneyard-server simulate`` as a user runs it: a real subprocess (its argument checks run its ``main``
here, as the program does; one of them also as the program)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RunMain

from boneyard.server.cli import main as server_main
from boneyard.server.games.record_replay import replay


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard.server.cli", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_same_arguments_give_byte_identical_output() -> None:
    first = run("--game", "straight", "--games", "5", "--seed", "7", "--players", "3")
    second = run("--game", "straight", "--games", "5", "--seed", "7", "--players", "3")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert len(lines) == 5
    for line in lines:
        record = json.loads(line)
        assert record["players"] == 3
        replay(record)


def test_texas42_games_finish_with_their_options_and_replay() -> None:
    done = run(
        "--game", "texas42", "--games", "3", "--seed", "5", "--all-pass", "redeal", "--nello", "--target", "3"
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 3
    for record in records:
        assert record["players"] == 4
        assert record["options"] == {"all_pass": "redeal", "nello": True, "target": 3}
        assert max(record["final_scores"]) >= 3 and record["winner"] in (0, 1)
        replay(record)


def test_any_option_of_the_model_is_given_by_name(run_main: RunMain) -> None:
    """``--option NAME=VALUE`` takes every option the game's model has, with no flag of its own."""
    args = ["simulate", "--game", "texas42", "--seed", "2", "--option", "nello=true", "--option", "target=1"]
    done = run_main(server_main, args)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["options"] == {"all_pass": "force_last", "nello": True, "target": 1}


def test_another_seed_gives_other_games() -> None:
    a = run("--game", "moon", "--games", "3", "--seed", "1")
    b = run("--game", "moon", "--games", "3", "--seed", "2")
    assert a.returncode == b.returncode == 0
    assert a.stdout != b.stdout


def test_out_writes_the_file_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run(
        "--game", "moon", "--games", "4", "--seed", "3", "--all-pass", "force_last", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "wrote 4 moon game records" in result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["options"]["all_pass"] for r in records] == ["force_last"] * 4
    # No progress bar when stderr is not a terminal.
    assert "simulating" not in result.stderr


def test_simulated_records_verify_and_a_tampered_one_does_not(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    made = run("--game", "straight", "--games", "3", "--seed", "4", "--players", "3", "--out", str(out))
    assert made.returncode == 0, made.stderr
    verify = [sys.executable, "-m", "boneyard.clients.cli.main", "verify", str(out)]
    done = subprocess.run(verify, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert [line.startswith(f"{out}: record {n}: deals verified (") for n, line in enumerate(lines, 1)] == [
        True
    ] * 3
    records = [json.loads(line) for line in out.read_text().splitlines()]
    records[1]["hands"][0]["boneyard"].reverse()
    out.write_text("\n".join(json.dumps(r) for r in records))
    done = subprocess.run(verify, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout.splitlines()[1].startswith(f"{out}: record 2: hand 0, boneyard from position 0: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "invalid choice: 'chess'"),
        (["--game", "moon", "--players", "4"], "moon is played by exactly 3 players"),
        (["--game", "moon", "--partnerships"], "--partnerships is not a moon option"),
        (["--game", "straight", "--players", "3", "--partnerships"], "partnership"),
        (["--game", "straight", "--all-pass", "redeal"], "--all-pass is not a straight option"),
        (["--game", "texas42", "--players", "3"], "texas42 is played by exactly 4 players"),
        (["--game", "moon", "--nello"], "--nello is not a moon option"),
        (["--game", "texas42", "--partnerships"], "--partnerships is not a texas42 option"),
        (["--game", "straight", "--players", "5"], "players must be 2, 3 or 4"),
        (["--game", "moon", "--target", "0"], "target must be a whole number from 1 to 1000"),
        (["--game", "texas42", "--target", "22"], "target must be a number of marks from 1 to 21"),
        (["--game", "moon", "--games", "x"], "invalid int value: 'x'"),
        (["--game", "moon", "--games", "-1"], "--games must be 0 or more"),
        (["--game", "moon", "--out", "/nonexistent-dir/x.jsonl"], "cannot write /nonexistent-dir/x.jsonl"),
        (
            ["--game", "moon", "--option", "colour=red"],
            "moon has no colour option (its options: all_pass, target)",
        ),
        (["--game", "texas42", "--option", "nello=maybe"], "nello must be true or false"),
    ],
)
def test_bad_arguments_give_a_one_line_error_and_exit_2(
    args: list[str], message: str, run_main: RunMain
) -> None:
    _one_line_and_exit_2(run_main(server_main, ["simulate", *args]), message)


def test_the_program_itself_exits_2_with_that_one_line() -> None:
    _one_line_and_exit_2(run("--game", "moon", "--players", "4"), "moon is played by exactly 3 players")


def _one_line_and_exit_2(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr
