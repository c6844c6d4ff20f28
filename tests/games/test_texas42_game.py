"""Whole Texas 42 games: bots play to the end, the record replays, a held game deals the same."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boneyard.server.games.base import Engine, Event, IllegalAction, RandomDealer
from boneyard.server.games.record_replay import ReplayError, replay
from boneyard.server.games.registry import game_spec
from boneyard.server.games.texas42 import ALL_ACTIONS, Bid, Texas42Game, TexasOptions, action_from_record

OPTIONS = [
    {},
    {"all_pass": "redeal"},
    {"nello": True},
    {"nello": True, "all_pass": "redeal", "target": 3},
]


def _play(options: dict[str, Any], seed: int, *, hold: bool = False) -> tuple[Engine, list[Event]]:
    """A whole game by the basic bot (with ``hold``, each held deal dealt as soon as it is seen)."""
    spec = game_spec("texas42")
    engine = spec.new_game(spec.options_from_dict(options), RandomDealer(seed), hold_deals=hold)
    rng = random.Random(seed)
    events = engine.opening_events()
    while not engine.is_over:
        if engine.between_hands:
            with pytest.raises(IllegalAction, match="the hand is over"):
                engine.check_turn(0)
            events += engine.deal_next()
            continue
        seat = engine.to_move
        assert seat is not None
        events += engine.apply(seat, spec.bot(engine.view(seat), rng))
    return engine, events


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: json.dumps(o))
def test_basic_bots_play_a_whole_game_to_the_target_and_it_replays(options: dict[str, Any]) -> None:
    for seed in range(4):
        engine, events = _play(options, seed)
        target = options.get("target", 7)
        assert engine.winner in (0, 1) and engine.scores[engine.winner] >= target
        assert events[-1].type == "game_over"
        scored = [e for e in events if e.type == "hand_scored"]
        assert sum(max(e.marks) for e in scored) == sum(engine.scores)  # type: ignore[attr-defined]
        record = json.loads(json.dumps(engine.record(["ana", "bo", "cy", "di"])))
        again = replay(record)
        assert again.scores == engine.scores and again.winner == engine.winner
        assert again.record(["ana", "bo", "cy", "di"]) == engine.record(["ana", "bo", "cy", "di"])


def test_a_held_game_deals_the_same_hands_and_events() -> None:
    at_once, at_once_events = _play({"nello": True}, 5)
    held, held_events = _play({"nello": True}, 5, hold=True)
    assert held_events == at_once_events and held.record() == at_once.record()
    assert len(held.record()["hands"]) > 1


def test_replay_refuses_a_changed_result() -> None:
    engine, _ = _play({}, 1)
    record = json.loads(json.dumps(engine.record()))
    hand = next(h for h in record["hands"] if "result" in h)
    hand["result"]["points"][0] += 1
    with pytest.raises(ReplayError, match="'hands' differs"):
        replay(record)


def test_replay_refuses_a_deal_that_is_not_the_set() -> None:
    engine, _ = _play({}, 2)
    record = json.loads(json.dumps(engine.record()))
    record["hands"][0]["deal"][0][0] = record["hands"][0]["deal"][1][0]
    with pytest.raises(ReplayError, match="not exactly the set's tiles"):
        replay(record)


def test_every_action_has_its_record_form_and_back() -> None:
    assert len(set(ALL_ACTIONS)) == len(ALL_ACTIONS) == 17 + 1 + 10 + 28
    for action in ALL_ACTIONS:
        assert action_from_record({"seat": 0, **action.as_dict()}) == action
    for bad in ({"type": "bid", "bid": 43}, {"type": "trump", "trump": "all"}, {"type": "discard"}):
        with pytest.raises(ValueError):
            action_from_record(bad)


def test_the_engine_hands_out_its_own_action_objects() -> None:
    """The server finds an action's wire form by identity (``GameSpec.actions``)."""
    game = Texas42Game(TexasOptions(nello=True), RandomDealer(3))
    ids = {id(a) for a in ALL_ACTIONS}
    rng = random.Random(0)
    while not game.is_over and game.hand_number < 2:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions(seat)
        assert all(id(a) in ids for a in legal)
        game.apply(seat, rng.choice(legal))
    assert all(id(a) in ids for h in game._log for _, a, _ in h.actions)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"all_pass": "never"}, "all_pass must be"),
        ({"nello": 1}, "nello must be true or false"),
        ({"target": 0}, "target must be a number of marks from 1 to 21"),
        ({"target": 22}, "target must be"),
        ({"players": 4}, "texas42 is played by exactly 4 players"),
        ({"colour": "red"}, "texas42 has no colour option"),
    ],
)
def test_bad_options_are_refused_in_words(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_spec("texas42").options_from_dict(options)


def test_a_bid_that_is_no_bid_is_refused_with_what_may_be_bid() -> None:
    game = Texas42Game(dealer=RandomDealer(0))
    seat = game.to_move
    assert seat is not None
    with pytest.raises(IllegalAction, match=r"29 is not a bid: .* now 30-41, 42, 84 or pass"):
        game.apply(seat, Bid(29))
    assert game.players == game_spec("texas42").players_of(TexasOptions()) == 4
