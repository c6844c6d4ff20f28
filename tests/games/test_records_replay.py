"""Exported records replay through the engines to the same scores and winner; tampered ones are refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import OPTION_SETS, option_set_id

from boneyard.server.games.record_replay import ReplayError, replay
from boneyard.server.games.registry import game_spec
from boneyard.server.simulate import simulate


def _records(game: str, options: dict[str, Any], games: int, seed: int = 1) -> list[dict[str, Any]]:
    spec = game_spec(game)
    # Through JSON, as a third-party tool would read them.
    return [json.loads(json.dumps(r)) for r in simulate(spec, spec.options_from_dict(options), games, seed)]


@pytest.mark.parametrize("option_set", OPTION_SETS, ids=option_set_id)
def test_simulated_records_replay_to_the_same_result(option_set: tuple[str, dict[str, Any]]) -> None:
    game, options = option_set
    for record in _records(game, options, games=25):
        engine = replay(record)
        assert engine.is_over
        assert list(engine.scores) == record["final_scores"]
        assert engine.winner == record["winner"]
        assert record["format"] == "boneyard-record/1"
        assert record["options"] == {**game_spec(game).options_from_dict(options).as_dict()}


def test_replay_refuses_a_changed_score() -> None:
    record = _records("moon", {}, games=1)[0]
    record["hands"][0]["scores"][0] += 1
    with pytest.raises(ReplayError, match="hand 1: scores"):
        replay(record)


def test_replay_refuses_a_changed_winner() -> None:
    record = _records("straight", {"players": 3}, games=1)[0]
    record["winner"] = (record["winner"] + 1) % 3
    with pytest.raises(ReplayError, match="'winner' differs"):
        replay(record)


def test_replay_refuses_an_illegal_action() -> None:
    record = _records("moon", {}, games=1)[0]
    hand = record["hands"][-1]
    plays = [i for i, a in enumerate(hand["actions"]) if a["type"] == "play"]
    # The same seat playing the tile it played on its first trick again, later: never legal.
    first, later = (
        plays[0],
        next(i for i in plays[1:] if hand["actions"][i]["seat"] == hand["actions"][plays[0]]["seat"]),
    )
    hand["actions"][later] = copy.deepcopy(hand["actions"][first])
    with pytest.raises(ReplayError, match=rf"action {later + 1}"):
        replay(record)


def test_replay_refuses_a_drawn_tile_that_is_not_the_next_boneyard_tile() -> None:
    for record in _records("straight", {"players": 2}, games=10):
        for hand in record["hands"]:
            draws = [a for a in hand["actions"] if a["type"] == "draw"]
            if draws and len(hand["boneyard"]) > 1:
                wrong = next(t for t in hand["boneyard"] if t != draws[0]["tile"])
                draws[0]["tile"] = wrong
                with pytest.raises(ReplayError, match="drawn tile"):
                    replay(record)
                return
    pytest.fail("no simulated 2-player Straight game drew a tile: the bots never draw?")


def test_replay_refuses_a_deal_that_is_not_the_set() -> None:
    record = _records("moon", {}, games=1)[0]
    record["hands"][0]["deal"][0][0] = record["hands"][0]["deal"][1][0]
    with pytest.raises(ReplayError, match="not exactly the set's tiles"):
        replay(record)
