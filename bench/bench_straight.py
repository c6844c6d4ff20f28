"""Random-playout speed of the Straight engine, on one core.

A random playout starts from a fresh deal and applies uniformly random legal
actions until the hand ends. Two paths are measured: the public ``apply()``
(validation, event objects, record log) and the lean ``playout()`` path
(``legal_codes``/``push``: the same rule code without events or checks).

    python bench/bench_straight.py [--hands N] [--players 2|3|4] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from boneyard.server.games.base import RandomDealer
from boneyard.server.games.straight import StraightGame, StraightOptions

# A target no hand can reach keeps every game going, so each hand starts from a fresh deal: beyond a
# table's limit (10,000), so these options are built without the model's check.
ENDLESS = 10**9


def endless(players: int) -> StraightOptions:
    return StraightOptions.model_construct(players=players, target=ENDLESS)


def bench_public(hands: int, players: int, seed: int) -> float:
    """Hands per second through ``legal_actions()`` + ``apply()``."""
    rnd = random.Random(seed).random
    game = StraightGame(endless(players), RandomDealer(seed))
    start = time.perf_counter()
    done = 0
    while done < hands:
        number = game.hand_number
        while game.hand_number == number:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rnd() * len(legal))])
        done += 1
    return hands / (time.perf_counter() - start)


def bench_lean(hands: int, players: int, seed: int) -> float:
    """Hands per second through ``playout()`` (each hand ends by dealing the next one)."""
    rng = random.Random(seed)
    game = StraightGame(endless(players), RandomDealer(seed))
    start = time.perf_counter()
    for _ in range(hands):
        game.playout(rng)
    return hands / (time.perf_counter() - start)


def bench_search(hands: int, players: int, seed: int) -> float:
    """Hands per second of ``copy()`` + ``playout()`` from one position, as a searching bot does."""
    rng = random.Random(seed)
    root = StraightGame(StraightOptions(players=players), RandomDealer(seed))
    start = time.perf_counter()
    for _ in range(hands):
        root.copy().playout(rng)
    return hands / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"Straight, {args.players} players, {args.hands} random playouts per path")
    public = bench_public(max(1, args.hands // 4), args.players, args.seed)
    print(f"  public apply():          {public:10,.0f} hands/s")
    lean = bench_lean(args.hands, args.players, args.seed)
    print(f"  lean playout():          {lean:10,.0f} hands/s (fresh deal each hand)")
    search = bench_search(args.hands, args.players, args.seed)
    print(f"  copy() + playout():      {search:10,.0f} hands/s (one position, no dealing)")


if __name__ == "__main__":
    main()
