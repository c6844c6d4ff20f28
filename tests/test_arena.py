"""The arena: duplicate deals, the statistics it prints, determinism, and its command line.

Small runs check the plumbing only; the strength claims are benchmarks (bench/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RunMain

from boneyard.server import arena
from boneyard.server.arena import ArenaResult, LevelStats, confidence, report, run_arena
from boneyard.server.arenafile import SaveMismatch, Saver, code_fingerprint
from boneyard.server.cli import main as server_main


def _figures(result: ArenaResult) -> dict[str, tuple[int, ...]]:
    """Everything but the timings, which differ between runs."""
    return {
        level: (s.games, s.wins, s.hands, s.points, s.contracts, s.made, s.grand_bids, s.grand_made)
        for level, s in sorted(result.levels.items())
    }


def _check_consistent(result: ArenaResult, seats: dict[str, int]) -> None:
    assert result.games == result.duplicates * result.arrangements
    assert sum(s.wins for s in result.levels.values()) == result.games  # one winner per game
    for level, stats in result.levels.items():
        assert stats.games == result.games  # every level plays every game of the duplicate set
        assert len(result.win_share[level]) == result.duplicates
        share, low, high = confidence(result.win_share[level])
        assert low <= share <= high
        assert abs(share - stats.wins / result.games) < 1e-3
        assert (stats.seconds and all(t >= 0 for t in stats.seconds)) or level == "basic"
    assert set(result.levels) == set(seats)


def test_a_moon_arena_is_duplicate_consistent_and_deterministic() -> None:
    result = run_arena("moon", ("good", "basic", "basic"), games=12, seed=3, target=4)
    assert result.arrangements == 3
    _check_consistent(result, {"good": 1, "basic": 2})
    for stats in result.levels.values():
        assert stats.made <= stats.contracts and stats.grand_made <= stats.grand_bids
        assert stats.hands >= result.games  # at least one hand per game and seat of the level
    again = run_arena("moon", ("good", "basic", "basic"), games=12, seed=3, target=4)
    assert _figures(again) == _figures(result)
    other = run_arena("moon", ("good", "basic", "basic"), games=12, seed=4, target=4)
    assert _figures(other) != _figures(result)
    text = report(result)
    assert "36 games" in text and text.count("\n") == 3


def test_straight_partnerships_in_worker_processes_give_the_same_figures() -> None:
    args = ("straight", ("good", "basic", "good", "basic"))
    alone = run_arena(*args, games=12, seed=1, target=40, partnerships=True)
    assert alone.arrangements == 2  # the teams swap seats
    _check_consistent(alone, {"good": 2, "basic": 2})
    pooled = run_arena(*args, games=12, seed=1, target=40, partnerships=True, jobs=2)
    assert _figures(pooled) == _figures(alone)


def test_the_same_level_everywhere_is_one_arrangement() -> None:
    result = run_arena("straight", ("basic", "basic"), games=10, seed=2, target=30)
    assert result.arrangements == 1
    assert result.levels["basic"].wins == result.games == 10


def test_level_stats_merge_adds_up() -> None:
    a, b = LevelStats(games=1, wins=1, seconds=[0.1]), LevelStats(games=2, points=5, seconds=[0.2])
    a.merge(b)
    assert (a.games, a.wins, a.points, a.seconds) == (3, 1, 5, [0.1, 0.2])


def _arena(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "boneyard.server.cli", "arena", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_the_command_line_prints_the_table() -> None:
    done = _arena(
        "--game", "straight", "--bots", "good,basic", "--games", "4", "--seed", "1", "--target", "30"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "straight: good basic, 4 duplicate games x 2 arrangements = 8 games"
    assert [line.split()[0] for line in lines[2:]] == ["basic", "good"]
    assert done.stderr == ""  # no progress bar without a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "moon", "--bots", "strong,basic", "--games", "2"], "--bots gives 2 levels for 3 players"),
        (["--game", "moon", "--bots", "strong,basic,wizard", "--games", "2"], "unknown bot level 'wizard'"),
        (["--game", "moon", "--bots", "basic,basic,basic", "--games", "0"], "--games must be 1 or more"),
        (["--game", "moon", "--bots", "basic,basic,basic", "--partnerships"], "moon has no partnerships"),
        (["--game", "straight", "--bots", "basic,basic", "--partnerships"], "partnerships"),
        (["--game", "chess", "--bots", "basic"], "invalid choice"),
        (["--game", "texas42", "--bots", "basic,basic,basic"], "--bots gives 3 levels for 4 players"),
        (["--game", "texas42", "--bots", "good,basic", "--partnerships"], "texas42 has no partnerships"),
        (["--game", "moon", "--bots", "basic", "--option", "nello=true"], "moon has no nello option"),
        (
            ["--game", "texas42", "--bots", "basic", "--option", "target=22"],
            "target must be a number of marks from 1 to 21",
        ),
        (
            ["--game", "texas42", "--bots", "basic", "--option", "all_pass=x"],
            "all_pass must be 'force_last' or 'redeal'",
        ),
        (["--game", "texas42", "--bots", "basic", "--option", "nello"], "'nello' is not NAME=VALUE"),
        (["--game", "straight", "--bots", "basic,basic", "--option", "players=3"], "2 levels for 3 players"),
        (["--game", "straight", "--bots", "basic", "--option", "players=five"], "players: 'five' is not"),
        (["--game", "moon", "--bots", "basic", "--players", "4"], "moon is played by exactly 3 players"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args: list[str], message: str, run_main: RunMain) -> None:
    _one_line_and_exit_2(run_main(server_main, ["arena", *args]), message)  # its main, as the program runs it


def test_the_program_itself_exits_2_with_that_one_line() -> None:
    _one_line_and_exit_2(_arena("--game", "moon", "--bots", "basic", "--players", "4"), "exactly 3 players")


def _one_line_and_exit_2(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_any_option_reaches_the_games_through_the_protocols_model(tmp_path: Path) -> None:
    """``--option NAME=VALUE`` (repeated) is a table option as ``create_table`` carries it: checked by the
    game's option model, every option filled in, and played (the save file's header names them)."""
    save = tmp_path / "run.jsonl"
    args = ["--game", "texas42", "--bots", "good,basic", "--games", "1", "--seed", "1", "--save", str(save)]
    done = _arena(*args, "--option", "nello=true", "--option", "target=1", "--option", "all_pass=redeal")
    assert done.returncode == 0, done.stderr
    header = json.loads(save.read_text().splitlines()[0])
    assert header["options"] == {"all_pass": "redeal", "nello": True, "target": 1}
    assert header["bots"] == ["good", "basic", "good", "basic"]
    straight = run_arena("straight", ("basic",) * 3, games=1, seed=1, options={"target": 20, "players": 3})
    assert straight.arrangements == 1 and straight.levels["basic"].games == 1
    with pytest.raises(ValueError, match=r"^straight is played by 3 players here: give 3 bot levels$"):
        run_arena("straight", ("basic",) * 4, games=1, seed=1, options={"players": 3})


def _untimed(result: ArenaResult) -> list[str]:
    """The report's lines without the two time columns."""
    return [line.rsplit(maxsplit=2)[0] for line in report(result).splitlines()[2:]]


def test_a_resumed_run_gives_the_figures_of_an_uninterrupted_one(tmp_path: Path) -> None:
    args = ("moon", ("good", "basic", "basic"))
    whole = run_arena(*args, games=6, seed=5, target=4)
    save = tmp_path / "run.jsonl"
    first = run_arena(*args, games=2, seed=5, target=4, save=save)
    assert (first.played, first.resumed) == (2, 0)
    assert _figures(first) == _figures(run_arena(*args, games=2, seed=5, target=4))
    with save.open("a") as out:  # killed while writing game 2: that line is cut short
        out.write('{"n":2,"levels":{"go')
    resumed = run_arena(*args, games=6, seed=5, target=4, save=save)
    assert (resumed.played, resumed.resumed) == (6, 2)
    assert _figures(resumed) == _figures(whole)
    assert resumed.win_share == whole.win_share
    assert report(resumed).splitlines()[0] == report(whole).splitlines()[0]
    assert _untimed(resumed) == _untimed(whole)
    assert len(resumed.levels["good"].seconds) == len(whole.levels["good"].seconds)
    lines = save.read_text().splitlines()
    assert [json.loads(line).get("n") for line in lines] == [None, 0, 1, 2, 3, 4, 5]
    again = run_arena(*args, games=6, seed=5, target=4, save=save)  # all saved: nothing to play
    assert again.resumed == 6 and _figures(again) == _figures(whole)
    shorter = run_arena(*args, games=3, seed=5, target=4, save=save)  # the first 3 of the file
    assert _figures(shorter) == _figures(run_arena(*args, games=3, seed=5, target=4))
    assert save.read_text().splitlines() == lines


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": 6}, "seed: the file has 5, this run 6"),
        ({"bots": ("basic", "good", "basic")}, "bots: the file has"),
        ({"target": 5}, "options: the file has"),
        ({"code": "0123456789abcdef"}, 'code: the file has "0123456789abcdef"'),
        ({"text": "not a save file\n"}, "is not an arena save file"),
        ({"text": '{"arena": 1}\n[1, 2]\n'}, "another arena run"),
    ],
)
def test_a_save_file_of_another_run_is_refused_and_kept(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    save = tmp_path / "run.jsonl"
    run_arena("moon", ("good", "basic", "basic"), games=1, seed=5, target=4, save=save)
    if "code" in change:  # the same run made by other code: the header's fingerprint differs
        header, *games = save.read_text().splitlines(keepends=True)
        save.write_text(json.dumps({**json.loads(header), "code": change["code"]}) + "\n" + "".join(games))
    elif "text" in change:
        save.write_text(str(change["text"]))
    before = save.read_bytes()
    kwargs: dict[str, object] = {"seed": 5, "target": 4, "bots": ("good", "basic", "basic")}
    kwargs |= {k: v for k, v in change.items() if k in kwargs}
    with pytest.raises(SaveMismatch, match="^.*" + message.replace("(", "\\(").replace("[", "\\[")):
        run_arena("moon", kwargs.pop("bots"), games=2, save=save, **kwargs)  # type: ignore[arg-type]
    assert save.read_bytes() == before


def test_a_save_file_in_use_by_a_run_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "run.jsonl"
    header = {"arena": 1, "seed": 5}
    first = Saver(save, header)
    try:
        with pytest.raises(SaveMismatch, match="is in use by another arena run"):
            Saver(save, header)
        with pytest.raises(SaveMismatch, match="is in use by another arena run"):
            run_arena("moon", ("good", "basic", "basic"), games=1, seed=5, target=4, save=save)
    finally:
        first.close()
    again = Saver(save, header)  # free again once the first run closed it
    assert again.saved == []
    again.close()


def test_the_command_line_resumes_and_refuses_in_one_line(tmp_path: Path) -> None:
    save = str(tmp_path / "run.jsonl")
    args = ["--game", "straight", "--bots", "good,basic", "--seed", "1", "--target", "30", "--save", save]
    first = _arena(*args, "--games", "2")
    assert first.returncode == 0 and first.stderr == "", first.stderr
    second = _arena(*args, "--games", "3")
    assert second.returncode == 0
    assert second.stderr == f"boneyard-server: 2 duplicate games read from {save}\n"
    assert (
        second.stdout.splitlines()[0] == "straight: good basic, 3 duplicate games x 2 arrangements = 6 games"
    )
    other = _arena(*[a if a != "1" else "2" for a in args], "--games", "3")
    assert other.returncode == 1 and other.stdout == ""
    assert other.stderr.splitlines() == [
        f"boneyard-server: {save} was made by another arena run (seed: the file has 1, this run 2); "
        "give another --save file"
    ]


def test_the_code_fingerprint_is_the_games_own() -> None:
    """A run of one game names the code of that game (and what the games share), not the other's."""
    module = Path(arena.__file__)
    moon, straight = code_fingerprint(module, "moon"), code_fingerprint(module, "straight")
    assert moon != straight and code_fingerprint(module, "moon") == moon
