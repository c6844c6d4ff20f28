"""Self-play: bot games played in-process, written as game records (JSON Lines).

The same arguments always give byte-identical output: every game draws its deals
and its bots' choices from generators seeded by ``(seed, game number)`` alone. The deals are
``boneyard-deal/1`` from a server seed derived from those, carried in each record's ``fairness``
(``boneyard verify`` recomputes them; derived, the seed was never secret: these are not fair games).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, TextIO

from tqdm import tqdm

from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.base import Engine
from boneyard.server.games.registry import GameSpec
from boneyard.server.record_store import validated


def play_bots(spec: GameSpec, engine: Engine, rng: random.Random) -> Engine:
    """Let the basic bot play every seat until the game is over."""
    while (seat := engine.to_move) is not None:
        engine.apply(seat, spec.bot(engine.view(seat), rng))
    return engine


def simulate(spec: GameSpec, options: Any, games: int, seed: int) -> Iterator[dict[str, Any]]:
    """The records of ``games`` bot games, game ``i`` seeded by ``(seed, i)``, each validated as published."""
    players = spec.players_of(options)
    names = [f"bot-{seat}" for seat in range(players)]
    for number in range(games):
        seeds = GameSeeds.fresh(players, fixed=f"simulate/{seed}/{number}")
        engine = play_bots(
            spec, spec.new_game(options, seeds.dealer()), random.Random(f"{seed}/{number}/bots")
        )
        record = engine.record(names)
        record["fairness"] = seeds.proof()
        validated(record)  # never write a record the public format would refuse
        yield record


def write_records(records: Iterator[dict[str, Any]], out: TextIO, total: int, progress: bool) -> int:
    """Write records as JSON Lines, with a progress bar on stderr when ``progress``; returns the count."""
    count = 0
    for record in tqdm(records, total=total, unit="game", disable=not progress, desc="simulating"):
        out.write(json.dumps(record, separators=(",", ":")))
        out.write("\n")
        count += 1
    return count
