"""The arena: duplicate deals, the statistics it prints, determinism, and its command line.

Small runs check the plumbing only; the strength claims are benchmarks (bench/README.md).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from boneyard.server.arena import ArenaResult, LevelStats, confidence, report, run_arena


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
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = _arena(*args)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr
