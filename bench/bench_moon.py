"""Random-playout speed of the Moon engine, in hands per second on one core.

A random playout starts from a fresh deal and applies uniformly random legal actions
until the hand is scored (thrown-in hands are redealt and their time counted).

    python bench/bench_moon.py [--hands N] [--seed S]

Two figures: the public API (``MoonGame.legal_actions`` + ``apply``, with validation,
events and the record) and the search fast path (``MoonState.deal`` + ``legal_moves``
+ ``push``, the same state code without validation or events).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from boneyard.server.games.base import RandomDealer
from boneyard.server.games.moon import MoonGame, MoonState
from boneyard.server.games.moon.rules import MOON_IDS
from boneyard.server.games.moon.state import THROWN_IN


def bench_public(hands: int, seed: int) -> float:
    """Hands/s through the public API; games restart when one ends."""
    rng = random.Random(seed)
    game = MoonGame(dealer=RandomDealer(seed))
    done = 0
    start = time.perf_counter()
    while done < hands:
        if game.is_over:
            game = MoonGame(dealer=RandomDealer(rng.randrange(2**32)))
        seat = game.to_move
        assert seat is not None
        actions = game.legal_actions(seat)
        for event in game.apply(seat, actions[int(rng.random() * len(actions))]):
            if event.type == "hand_scored":  # type: ignore[attr-defined]
                done += 1
    return hands / (time.perf_counter() - start)


def bench_fast(hands: int, seed: int) -> float:
    """Hands/s through ``MoonState``: shuffle, deal, random playout to the score."""
    rng = random.Random(seed)
    order = list(MOON_IDS)
    done = 0
    first = 0
    start = time.perf_counter()
    while done < hands:
        state = MoonState()
        rng.shuffle(order)
        state.deal(order, first)
        first = (first + 1) % 3
        state.playout(rng)
        if state.phase != THROWN_IN:
            done += 1
    return hands / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per measurement (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    public = bench_public(args.hands, args.seed)
    fast = bench_fast(args.hands, args.seed)
    print(f"moon public apply(): {public:10,.0f} hands/s  ({args.hands} random-playout hands)")
    print(f"moon fast path:      {fast:10,.0f} hands/s  (MoonState deal + legal_moves + push)")


if __name__ == "__main__":
    main()
