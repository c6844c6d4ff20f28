"""The one translation between wire actions and engine actions: complete, exact, game-blind."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import OPTION_SETS, option_set_id
from pydantic import TypeAdapter

from boneyard.protocol import Action
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import GAMES
from boneyard.server.wire import action_json, engine_action, wire_action

ACTION: TypeAdapter[Any] = TypeAdapter(Action)


@pytest.mark.parametrize("option_set", OPTION_SETS, ids=option_set_id)
def test_every_legal_action_goes_to_the_wire_and_back_unchanged(
    option_set: tuple[str, dict[str, Any]],
) -> None:
    game, options = option_set
    spec = GAMES[game]
    rng = random.Random(5)
    seen = 0
    for deal in range(3):
        engine = spec.new_game(spec.options_from_dict(options), RandomDealer(deal))
        while not engine.is_over and engine.to_move is not None:
            legal = engine.legal_actions(engine.to_move)
            for action in legal:
                model = ACTION.validate_python(wire_action(action))
                assert engine_action(spec, model) == action
                assert action in spec.actions
                seen += 1
            engine.apply(engine.to_move, rng.choice(legal))
    assert seen > 100


def test_a_wire_action_of_another_game_is_no_action_here() -> None:
    moon, straight = GAMES["moon"], GAMES["straight"]
    draw = ACTION.validate_python({"type": "draw"})
    placed = ACTION.validate_python({"type": "play", "tile": [6, 4], "end": "left"})
    bid = ACTION.validate_python({"type": "bid", "bid": 5})
    assert engine_action(moon, draw) is None and engine_action(moon, placed) is None
    assert engine_action(straight, bid) is None
    assert engine_action(straight, placed) is not None and engine_action(straight, draw) is not None


def test_every_wire_action_of_a_game_maps_to_a_distinct_engine_action() -> None:
    for spec in GAMES.values():
        wires = [ACTION.validate_python(wire_action(action)) for action in spec.actions]
        assert len({engine_action(spec, w) for w in wires}) == len(spec.actions)
        assert all(action_json(a).startswith('{"type":') for a in spec.actions)
