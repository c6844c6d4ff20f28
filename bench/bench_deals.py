"""What a deal costs: ``boneyard-deal/1`` (FairDealer) against the keyed BLAKE2b dealer it replaces.

    python bench/bench_deals.py [--deals N] [--repeat R]

Each figure is the best of R runs of N deals (a fresh dealer, ``shuffled`` and ``pick``), in µs per deal,
and the verification of a whole record (every hand recomputed), in µs per hand.
"""

from __future__ import annotations

import argparse
import random
import secrets
import timeit
from collections.abc import Callable

from boneyard.protocol import fairness
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.base import Dealer
from boneyard.server.games.dealers import FairDealer, KeyedDealer
from boneyard.server.games.moon.rules import MOON_TILES
from boneyard.server.games.registry import game_spec
from boneyard.server.games.tiles import ALL_TILES
from boneyard.server.simulate import play_bots


def best(run: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(run, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    server, players = secrets.token_bytes(32), [secrets.token_bytes(32), None, None, None]
    dealers: dict[str, Callable[[], Dealer]] = {
        "boneyard-deal/1 (FairDealer)": lambda: FairDealer(server, players),
        "keyed BLAKE2b (KeyedDealer)": lambda: KeyedDealer(server.hex()),
    }
    for name, make in dealers.items():
        for label, tiles in (("Straight, 28 tiles", ALL_TILES), ("Moon, 22 tiles", list(MOON_TILES))):

            def deal(make: Callable[[], Dealer] = make, tiles: object = tiles) -> None:
                dealer = make()
                dealer.shuffled(tiles)  # type: ignore[arg-type]
                dealer.pick(4)

            print(f"{name:30} {label:20} {best(deal, args.deals, args.repeat):6.1f} µs per deal")
    spec = game_spec("straight")
    seeds = GameSeeds.fresh(4, fixed="bench")
    engine = play_bots(spec, spec.new_game(spec.options_from_dict({}), seeds.dealer()), random.Random(1))
    record = engine.record()
    record["fairness"] = seeds.proof()
    hands = len(record["hands"])
    per_hand = best(lambda: fairness.verify_record(record), max(1, args.deals // 100), args.repeat) / hands
    print(f"verify_record, a {hands}-hand Straight record: {per_hand:.1f} µs per hand")


if __name__ == "__main__":
    main()
