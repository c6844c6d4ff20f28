"""Events are encoded without validation once their class has been validated: over whole random games
of both engines, for every viewer, the direct encoding is the bytes the validated model gives."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from boneyard.protocol import event_from_engine
from boneyard.server import wire
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.moon import TilePlayed, TrickWon
from boneyard.server.games.registry import game_spec
from boneyard.server.wire import event_bytes

GAMES = [
    ("moon", {"target": 9}),
    ("moon", {"all_pass": "force_last", "target": 7}),
    ("straight", {"players": 2}),
    ("straight", {"players": 3}),
    ("straight", {"players": 4, "partnerships": True}),
    ("texas42", {"target": 3}),
    ("texas42", {"all_pass": "redeal", "nello": True, "target": 3}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_events_encode_directly_as_their_validated_models_do(game: str, options: dict[str, Any]) -> None:
    spec = game_spec(game)
    opts = spec.options_from_dict(options)
    viewers: list[int | None] = [None, *range(spec.players_of(opts))]
    rng = random.Random(f"{game}/{options}")
    kinds: set[str] = set()
    for number in range(3):
        engine = spec.new_game(opts, RandomDealer(f"{game}/{number}"))
        events = list(engine.opening_events())
        while True:
            for event in events:
                for viewer in viewers:
                    seen = event.seen_by(viewer)
                    if seen is None:
                        continue
                    validated = msgpack.packb(event_from_engine(game, seen).model_dump())  # type: ignore[arg-type]
                    assert event_bytes(game, seen, {}) == validated, seen  # learns the class, or direct
                    assert event_bytes(game, seen, {}) == validated, seen  # direct
                    kinds.add(seen.type)
            if engine.is_over or engine.to_move is None:
                break
            seat = engine.to_move
            events = engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    assert {"hand_started", "hand_dealt", "game_over"} <= kinds
    assert len(kinds) >= 6


def test_events_with_added_fields_are_validated() -> None:
    moon = game_spec("moon")
    engine = moon.new_game(moon.options_from_dict({"target": 1}), RandomDealer(3))
    rng = random.Random(3)
    over = None
    while over is None:
        seat = engine.to_move
        assert seat is not None
        for event in engine.apply(seat, rng.choice(engine.legal_actions(seat))):
            if event.type == "game_over":
                over = event
    assert msgpack.unpackb(event_bytes("moon", over, {"record_id": "r1"}))["record_id"] == "r1"
    with pytest.raises(ValueError):
        event_bytes("moon", over, {"record_id": "not an id!"})


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_engines_hand_out_their_games_own_action_objects(game: str, options: dict[str, Any]) -> None:
    # The turn's legal actions are packed by the objects' identity (boneyard.server.wire): an engine that
    # made equal copies would still be right, but every turn would take the slow path.
    spec = game_spec(game)
    opts = spec.options_from_dict(options)
    known = {id(action) for action in spec.actions}
    rng = random.Random(f"{game}/{options}/ids")
    engine = spec.new_game(opts, RandomDealer(f"{game}/ids"))
    turns = 0
    while not engine.is_over and engine.to_move is not None:
        legal = engine.legal_actions(engine.to_move)
        assert all(id(action) in known for action in legal), [a for a in legal if id(a) not in known]
        engine.apply(engine.to_move, rng.choice(legal))
        turns += 1
    assert turns > 10


def test_only_events_that_recur_are_kept_encoded() -> None:
    # A Moon tile_played is one of 84 and comes again at every table: its encoding is kept. A trick_won
    # names the trick's three tiles and the tricks taken: kept, it would crowd the others out.
    encoder = wire.EventEncoder("moon", "t1")
    played, won = TilePlayed(1, (6, 4)), TrickWon(0, ((6, 4), (5, 5), (3, 1)), 2, (1, 0, 0))
    assert played.recurs and not won.recurs
    assert encoder.body(won) == encoder.body(won)  # encoded each time, the same
    encoder.body(played)
    assert played in wire._EVENTS and won not in wire._EVENTS
