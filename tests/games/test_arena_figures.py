"""Each game's arena figures (``GameSpec.arena``, declared by the game) account for every point of a whole
game: summed per side, the points (Texas 42: marks) of the figures are the final scores, and every
contract settled is counted once."""

from __future__ import annotations

import random

import pytest

from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import game_spec


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("moon", {"target": 21}),
        ("straight", {"players": 2}),
        ("straight", {"players": 3, "target": 100}),
        ("straight", {"players": 4}),
        ("texas42", {"nello": True, "target": 7}),
    ],
)
@pytest.mark.parametrize("seed", range(4))
def test_the_figures_add_up_to_the_final_scores(game: str, options: dict[str, object], seed: int) -> None:
    spec = game_spec(game)
    engine = spec.new_game(spec.options_from_dict(options), RandomDealer(seed))
    teams = bool(getattr(engine, "partnerships", False))
    sides = tuple(seat % 2 if teams else seat for seat in range(engine.players))
    totals = dict.fromkeys(sides, 0)
    contracts = settled = grand = 0
    rng = random.Random(seed)
    while (seat := engine.to_move) is not None:
        for event in engine.apply(seat, spec.bot(engine.view(seat), rng)):
            figures = spec.arena.count(event, sides)
            settled += event.type == "hand_scored" and hasattr(event, "bidder")
            if figures is None:
                continue
            for side, points in figures.points.items():
                totals[side] += points
            if figures.bidder is not None:
                contracts += 1
                grand += figures.grand
                assert not figures.grand or getattr(event, "bid", None) == 21  # Moon's 21 only
    assert tuple(totals[side] for side in sorted(totals)) == tuple(engine.scores)
    assert contracts == settled and (spec.arena.grand is not None or grand == 0)
