"""An engine made with ``hold_deals`` rests between hands: the same deals, events and record, later."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import OPTION_SETS, option_set_id

from boneyard.server.games.base import Engine, Event, IllegalAction, RandomDealer
from boneyard.server.games.registry import game_spec


def _play(game: str, options: dict[str, Any], *, hold: bool) -> tuple[Engine, list[Event], int]:
    """A whole game by the basic bot; with ``hold``, each held deal is dealt as soon as it is seen."""
    spec = game_spec(game)
    engine = spec.new_game(spec.options_from_dict(options), RandomDealer(7), hold_deals=hold)
    rng = random.Random(3)
    events, rests = engine.opening_events(), 0
    while not engine.is_over:
        if engine.between_hands:
            rests += 1
            assert engine.to_move is None
            view = engine.view(0)
            assert view.to_move is None and not view.legal_actions
            for seat in range(engine.players):
                with pytest.raises(IllegalAction, match="the hand is over") as refused:
                    engine.check_turn(seat)
                assert refused.value.code == "not_your_turn"
                assert engine.legal_actions(seat) == []
            events += engine.deal_next()
            continue
        seat = engine.to_move
        assert seat is not None
        events += engine.apply(seat, spec.bot(engine.view(seat), rng))
    return engine, events, rests


@pytest.mark.parametrize("option_set", OPTION_SETS, ids=option_set_id)
def test_a_held_game_deals_the_same_hands_and_events(option_set: tuple[str, dict[str, Any]]) -> None:
    game, options = option_set
    at_once, at_once_events, none = _play(game, options, hold=False)
    held, held_events, rests = _play(game, options, hold=True)
    assert none == 0
    hands = held.record()["hands"]
    assert rests == len(hands) - 1 > 0  # it rested after every hand but the last
    assert held_events == at_once_events
    assert held.record() == at_once.record()


def test_deal_next_refuses_when_no_hand_is_held() -> None:
    spec = game_spec("moon")
    engine = spec.new_game(spec.options_from_dict({}), RandomDealer(1), hold_deals=True)
    assert not engine.between_hands
    with pytest.raises(ValueError, match="no hand is waiting"):
        engine.deal_next()
