"""The arena: bot levels against each other on duplicate deals, with the statistics that claim strength.

A *duplicate game* is one deal sequence (seeded by ``(seed, game number)``) played once
per distinct rotation of the line-up around the table, so that every level holds every
seat's tiles and the luck of the deal cancels. Results are aggregated per level:
games won (the share of all games, with a 95 % confidence interval over duplicate
games, which are independent of each other), points per hand, Moon contracts bid and
made, and the CPU time per decision (a move with more than one legal action), p50/p99: the cost
on one core, which wall-clock time on a shared machine would overstate.
The same arguments give the same results, whatever ``jobs`` (times aside). With ``save`` each
finished duplicate game is appended to a file (:mod:`boneyard.server.arenafile`), and the same run
given the same file goes on from where it stopped, with the figures of an uninterrupted run.

>>> result = run_arena("straight", ("good", "basic"), games=2, seed=1, target=30)
>>> result.arrangements, result.games, sorted(result.levels)
(2, 4, ['basic', 'good'])
>>> sum(stats.wins for stats in result.levels.values())
4
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from boneyard.server import arenafile
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.figures import Figures
from boneyard.server.games.registry import LEVELS, game_spec


@dataclass(slots=True)
class LevelStats:
    """What one level did over the arena (its seats summed)."""

    games: int = 0
    """Games in which the level had a seat."""
    wins: int = 0
    hands: int = 0
    """Hands played, counted per side of that level (one per team with partnerships)."""
    points: int = 0
    contracts: int = 0
    made: int = 0
    grand_bids: int = 0
    """The game's grand contracts (``GameSpec.arena.grand``: Moon's 21) bid, and made."""
    grand_made: int = 0
    seconds: list[float] = field(default_factory=list)
    """Time of each decision (more than one legal action)."""

    def merge(self, other: LevelStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.hands += other.hands
        self.points += other.points
        self.contracts += other.contracts
        self.made += other.made
        self.grand_bids += other.grand_bids
        self.grand_made += other.grand_made
        self.seconds.extend(other.seconds)


@dataclass(slots=True)
class ArenaResult:
    game: str
    bots: tuple[str, ...]
    duplicates: int
    arrangements: int
    games: int = 0
    levels: dict[str, LevelStats] = field(default_factory=dict)
    win_share: dict[str, list[float]] = field(default_factory=dict)
    """Per level, its share of the games won in each duplicate game (for the confidence interval)."""
    played: int = 0
    """Duplicate games played: fewer than ``duplicates`` when the run was interrupted (Ctrl-C)."""
    resumed: int = 0
    """Of them, the ones read from the save file (played by an earlier run)."""


def rotations(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct rotations of a line-up (seat ``s`` gets ``bots[s]``), in order.

    >>> rotations(["strong", "basic", "basic"])
    [('strong', 'basic', 'basic'), ('basic', 'basic', 'strong'), ('basic', 'strong', 'basic')]
    >>> rotations(["strong", "basic", "strong", "basic"])
    [('strong', 'basic', 'strong', 'basic'), ('basic', 'strong', 'basic', 'strong')]
    """
    out: list[tuple[str, ...]] = []
    for k in range(len(bots)):
        arrangement = tuple(bots[k:]) + tuple(bots[:k])
        if arrangement not in out:
            out.append(arrangement)
    return out


@dataclass(frozen=True, slots=True)
class _Job:
    game: str
    options: dict[str, Any]
    arrangements: tuple[tuple[str, ...], ...]
    seed: int


def _side_of(seat: int, players: int, teams: bool) -> int:
    return seat % 2 if teams else seat


def _play_duplicate(job: _Job, number: int) -> dict[str, LevelStats]:
    """Play duplicate game ``number`` in every arrangement; the stats per level."""
    spec = game_spec(job.game)
    options = spec.options_from_dict(job.options)
    out: dict[str, LevelStats] = {}
    for index, lineup in enumerate(job.arrangements):
        engine = spec.new_game(options, RandomDealer(f"{job.seed}/{number}/deal"))
        bots: list[Callable[[Any, random.Random], Any]] = [spec.bot_at(level) for level in lineup]
        rng = random.Random(f"{job.seed}/{number}/{index}/bots")
        players = len(lineup)
        teams = bool(getattr(engine, "partnerships", False))
        seat_side = tuple(_side_of(s, players, teams) for s in range(players))
        side_level = {seat_side[s]: lineup[s] for s in range(players)}
        for level in set(lineup):
            out.setdefault(level, LevelStats()).games += 1
        hand_points = dict.fromkeys(side_level, 0)
        while (seat := engine.to_move) is not None:
            view = engine.view(seat)
            start = time.thread_time()  # CPU time: the cost on one core, whatever else runs
            action = bots[seat](view, rng)
            elapsed = time.thread_time() - start
            if len(view.legal_actions) > 1:
                out[lineup[seat]].seconds.append(elapsed)
            for event in engine.apply(seat, action):
                figures = spec.arena.count(event, seat_side)
                if figures is not None:
                    _count(figures, out, seat_side, side_level, hand_points)
        if any(hand_points.values()):
            _close_hand(out, side_level, hand_points)  # the game ended mid-hand (Straight's target reached)
        winner = engine.winner
        assert winner is not None
        out[side_level[winner]].wins += 1
    return out


def _count(
    figures: Figures,
    out: dict[str, LevelStats],
    seat_side: tuple[int, ...],
    side_level: dict[int, str],
    hand_points: dict[int, int],
) -> None:
    """Fold one event's figures (as its game counts them, ``GameSpec.arena``) into the stats."""
    for side, points in figures.points.items():
        hand_points[side] += points
    if figures.hand_over:
        _close_hand(out, side_level, hand_points)
    if figures.bidder is not None:
        stats = out[side_level[seat_side[figures.bidder]]]
        stats.contracts += 1
        stats.made += figures.made
        if figures.grand:
            stats.grand_bids += 1
            stats.grand_made += figures.made


def _close_hand(out: dict[str, LevelStats], side_level: dict[int, str], hand_points: dict[int, int]) -> None:
    """A hand is over: each side's points of it counted, and a hand played."""
    for s, level in side_level.items():
        stats = out[level]
        stats.points += hand_points[s]
        stats.hands += 1
        hand_points[s] = 0


def run_arena(
    game: str,
    bots: Sequence[str],
    *,
    games: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    partnerships: bool | None = None,
    target: int | None = None,
    jobs: int = 1,
    progress: bool = False,
    save: Path | None = None,
) -> ArenaResult:
    """Play ``games`` duplicate games of ``bots`` (one level per seat) at tables of ``options`` (the
    game's table options, by name; ``partnerships`` and ``target`` are two of them); ValueError in words
    for a bad line-up or options.

    ``save``: append each finished duplicate game to this file, after those it already holds
    (:class:`~boneyard.server.arenafile.SaveMismatch` when it was made by another run).
    """
    spec = game_spec(game)
    for level in bots:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
    given = dict(options or {})
    for name, value in (("partnerships", partnerships), ("target", target)):
        if value is not None:
            given[name] = value
    if spec.fixed_players is None:
        given.setdefault("players", len(bots))
    players, checked = table_options(game, given)
    if players != len(bots):
        raise ValueError(f"{game} is played by {players} players here: give {players} bot levels")
    arrangements = tuple(rotations(bots))
    job = _Job(game, checked, arrangements, seed)
    result = ArenaResult(game, tuple(bots), games, len(arrangements))
    saver: arenafile.Saver | None = None
    if save is not None:
        header = {
            "arena": arenafile.FORMAT,
            "game": game,
            "bots": list(bots),
            "options": checked,
            "seed": seed,
            "levels": {level: arenafile.describe_bot(spec.bot_at(level)) for level in sorted(set(bots))},
            "code": arenafile.code_fingerprint(Path(__file__), game),
        }
        saver = arenafile.Saver(save, header)
        try:
            for saved in saver.saved[:games]:
                _add(result, {level: _stats_of(fields) for level, fields in saved["levels"].items()})
        except (KeyError, TypeError, AttributeError):
            saver.close()
            raise arenafile.SaveMismatch(f"{save}: a saved game is not an arena game's figures") from None
        result.resumed = result.played
    bar = tqdm(total=games, initial=result.played, unit="dup", desc=f"arena {game}", disable=not progress)
    try:
        numbers = range(result.played, games)
        for number, per_level in zip(numbers, _results(job, numbers, jobs), strict=True):
            if saver is not None:
                saver.add(number, per_level)
            _add(result, per_level)
            bar.update(1)
    except KeyboardInterrupt:  # a long run stopped by hand: the figures of the games played so far
        if not result.played:
            raise
    finally:
        bar.close()
        if saver is not None:
            saver.close()
    return result


def table_options(game: str, given: Mapping[str, object]) -> tuple[int, dict[str, Any]]:
    """``given`` checked by the protocol's model of the game's options, the one check; the table's
    players and every option (defaults filled in). ValueError in words when they do not fit.

    >>> table_options("texas42", {"nello": True})
    (4, {'all_pass': 'force_last', 'nello': True, 'target': 7})
    >>> table_options("moon", {"nello": True})
    Traceback (most recent call last):
    ValueError: moon has no nello option (its options: all_pass, target)
    >>> table_options("straight", {"players": 3, "target": 0})
    Traceback (most recent call last):
    ValueError: target must be a whole number from 1 to 10000
    """
    options = game_spec(game).options_from_dict(given)
    return options.players, options.model_dump()


def _add(result: ArenaResult, per_level: dict[str, LevelStats]) -> None:
    """Fold one duplicate game's stats per level into ``result``."""
    result.games += result.arrangements
    result.played += 1
    for level in set(result.bots):
        stats = per_level.get(level, LevelStats())
        result.levels.setdefault(level, LevelStats()).merge(stats)
        result.win_share.setdefault(level, []).append(stats.wins / result.arrangements)


def _stats_of(fields: dict[str, Any]) -> LevelStats:
    """A level's stats as :meth:`arenafile.Saver.add` saved them (times in microseconds)."""
    return LevelStats(**{**fields, "seconds": [us / 1e6 for us in fields["seconds"]]})


def _worker(args: tuple[_Job, int]) -> dict[str, LevelStats]:
    return _play_duplicate(*args)


def _results(job: _Job, numbers: Iterable[int], jobs: int) -> Iterator[dict[str, LevelStats]]:
    work = [(job, number) for number in numbers]
    if not work:
        return
    if jobs <= 1:
        yield from map(_worker, work)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_worker, work)  # in order: the aggregate is the same whatever ``jobs``


def confidence(shares: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95 % normal interval of per-duplicate win shares (clipped to [0, 1]).

    >>> confidence([1.0, 0.5, 1.0, 0.0, 1.0, 0.5])
    (0.6667, 0.34, 0.993)
    """
    n = len(shares)
    mean = sum(shares) / n if n else 0.0
    half = 1.96 * statistics.stdev(shares) / math.sqrt(n) if n > 1 else 1.0
    return round(mean, 4), round(max(0.0, mean - half), 3), round(min(1.0, mean + half), 3)


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(result: ArenaResult) -> str:
    """The arena's figures as a table for people."""
    done = result.duplicates if result.played == result.duplicates else result.played
    grand = game_spec(result.game).arena.grand
    grand_heading = f"{grand} bid/made" if grand else "-"
    stopped = "" if done == result.duplicates else f" (interrupted: {done} of {result.duplicates})"
    lines = [
        f"{result.game}: {' '.join(result.bots)}, {done} duplicate games "
        f"x {result.arrangements} arrangements = {result.games} games{stopped}",
        f"{'level':<8} {'seats':>5} {'won':>6} {'share':>7} {'95% CI':>13} {'pts/hand':>9} "
        f"{'contracts made':>16} {grand_heading:>12} {'cpu p50':>9} {'p99':>8}",
    ]
    for level in LEVELS:
        if level not in result.levels:
            continue
        stats = result.levels[level]
        share, low, high = confidence(result.win_share[level])
        per_hand = stats.points / stats.hands if stats.hands else 0.0
        seats = result.bots.count(level)
        contracts = (
            f"{stats.made}/{stats.contracts} {100 * stats.made / stats.contracts:.0f}%"
            if stats.contracts
            else "-"
        )
        grand_bids = f"{stats.grand_bids}/{stats.grand_made}" if grand else "-"
        lines.append(
            f"{level:<8} {seats:>5} {stats.wins:>6} {100 * share:>6.1f}% "
            f"{f'{100 * low:.1f}-{100 * high:.1f}%':>13} {per_hand:>9.2f} {contracts:>16} {grand_bids:>12} "
            f"{1000 * _quantile(stats.seconds, 0.5):>7.1f}ms {1000 * _quantile(stats.seconds, 0.99):>6.1f}ms"
        )
    return "\n".join(lines)
