"""Straight properties over many random legal games: conservation, legality, hidden information, replay."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.server.games.base import Event, IllegalAction, RandomDealer
from boneyard.server.games.record_replay import replay
from boneyard.server.games.straight import (
    Draw,
    HandDealt,
    HandScored,
    HandStarted,
    Pass,
    Play,
    StraightGame,
    StraightOptions,
    TileDrawn,
    TilePlayed,
)
from boneyard.server.games.straight.actions import action_of
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile, normalize, tiles_of

EVERY_ACTION: list[Any] = [
    Play(t, end) for t in ALL_TILES for end in (None, "left", "right", "up", "down")
] + [Draw(), Pass()]
FULL = (1 << 28) - 1


# ----- what is true, read from the engine's insides -----------------------------------------------


def hands(game: StraightGame) -> list[int]:
    return list(game._hands)


def undrawn(game: StraightGame) -> int:
    return sum(1 << t for t in game._bone[game._bpos :])


def on_table(game: StraightGame) -> int:
    return game._layout.tiles


def forbidden(hand_masks: Sequence[int], bone: int, viewer: int | None) -> int:
    """Tiles ``viewer`` may not learn: the other seats' hands and the undrawn boneyard."""
    out = bone
    for seat, mask in enumerate(hand_masks):
        if seat != viewer:
            out |= mask
    return out


def tiles_in_event(event: Event) -> list[Tile]:
    out: list[Tile] = []
    for name in ("tile", "tiles", "hands"):
        value = getattr(event, name, None)
        if value is None:
            continue
        if name == "tile":
            out.append(value)
        elif name == "tiles":
            out += list(value)
        else:
            out += [t for hand in value for t in hand]
    return out


def tiles_in_view(game: StraightGame, viewer: int | None) -> tuple[list[Tile], dict[str, Any]]:
    view = game.view(viewer)
    lv = view.layout
    found = list(view.hand)
    found += [t for t in (lv.opening, lv.spinner) if t is not None]
    found += [p.tile for arm in (lv.left, lv.right, lv.up, lv.down) for p in arm]
    found += [a.tile for a in view.legal_actions if isinstance(a, Play)]
    return found, view.as_dict()


def mask(tiles: Sequence[Tile]) -> int:
    out = 0
    for t in tiles:
        out |= 1 << TILE_IDS[normalize(t)]
    return out


# ----- checks around one action ---------------------------------------------------------------------


def check_conservation(game: StraightGame) -> None:
    parts = [*hands(game), undrawn(game), on_table(game)]
    assert sum(bin(p).count("1") for p in parts) == 28
    union = 0
    for p in parts:
        assert not union & p
        union |= p
    assert union == FULL


def check_events(
    events: Sequence[Event], before_hands: list[int], before_bone: int, game: StraightGame
) -> None:
    n = game.players
    actor_tile = 0
    drawer = -1
    for e in events:
        if isinstance(e, TilePlayed):
            actor_tile = mask([e.tile])
        if isinstance(e, TileDrawn):
            drawer, actor_tile = e.seat, 0
    new_hand = False
    for e in events:
        if isinstance(e, HandStarted):
            new_hand = True
        for viewer in [*range(n), None]:
            seen = e.seen_by(viewer)
            if seen is None:
                assert isinstance(e, HandDealt) and viewer != e.seat
                continue
            if isinstance(e, HandDealt):
                assert viewer == e.seat
            if isinstance(seen, HandScored):
                continue  # the tiles left are shown at the end of a hand
            if new_hand:
                bad = forbidden(hands(game), undrawn(game), viewer)
            else:
                bad = forbidden(before_hands, before_bone, viewer) & ~actor_tile
                if viewer == drawer and isinstance(seen, TileDrawn):
                    bad &= ~mask([seen.tile] if seen.tile else [])
            assert not mask(tiles_in_event(seen)) & bad, (seen, viewer)


def check_views(game: StraightGame) -> None:
    for viewer in [*range(game.players), None]:
        found, data = tiles_in_view(game, viewer)
        assert not mask(found) & forbidden(hands(game), undrawn(game), viewer)
        json.dumps(data)
        if viewer is not None:
            assert game.view(viewer).hand == tuple(tiles_of(hands(game)[viewer]))


def state(game: StraightGame) -> str:
    views = [game.view(v).as_dict() for v in [*range(game.players), None]]
    return json.dumps([views, game.record(), game.scores, game.to_move, game.is_over])


def check_illegal(game: StraightGame, rng: random.Random, exhaustive: bool) -> None:
    """Every action outside the legal set is rejected with the right code and changes nothing."""
    before = state(game)
    seats = list(range(game.players))
    for seat in seats:
        legal = game.legal_actions(seat)
        candidates = EVERY_ACTION if exhaustive and seat == game.to_move else rng.sample(EVERY_ACTION, 4)
        for action in candidates:
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                game.apply(seat, action)
            expected = (
                "game_over" if game.is_over else "illegal_action" if seat == game.to_move else "not_your_turn"
            )
            assert info.value.code == expected
            assert str(info.value)
    assert state(game) == before


# ----- a whole checked game ----------------------------------------------------------------------------


def play_checked(options: StraightOptions, seed: int, deep: bool = True) -> StraightGame:
    rng = random.Random(seed)
    game = StraightGame(options, RandomDealer(seed))
    check_events(game.opening_events(), [0] * options.players, 0, game)
    steps = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions(seat)
        assert legal and [action_of(c) for c in game.legal_codes()] == legal
        if deep and rng.random() < 0.15:
            check_illegal(game, rng, exhaustive=rng.random() < 0.3)
        before_hands, before_bone = hands(game), undrawn(game)
        events = game.apply(seat, legal[rng.randrange(len(legal))], auto=rng.random() < 0.05)
        check_events(events, before_hands, before_bone, game)
        if deep or steps % 10 == 0:
            check_views(game)
        check_conservation(game)
        steps += 1
    assert game.legal_actions(0) == [] and game.to_move is None
    check_illegal(game, rng, exhaustive=False)
    return game


def check_replay(game: StraightGame) -> None:
    record = json.loads(json.dumps(game.record()))
    again = replay(record)  # the records module's replayer: drawn tiles and per-hand scores checked
    assert again.is_over and list(again.scores) == record["final_scores"] and again.winner == record["winner"]
    assert json.loads(json.dumps(again.record())) == record


options_strategy = st.builds(
    lambda players, teams, target: StraightOptions(
        players=players, partnerships=teams and players == 4, target=target
    ),
    st.sampled_from([2, 3, 4]),
    st.booleans(),
    st.sampled_from([5, 20, 40, 75]),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_random_legal_games(options: StraightOptions, seed: int) -> None:
    game = play_checked(options, seed)
    assert game.winner is not None and game.scores[game.winner] >= options.target
    assert len(game.scores) == (2 if options.teams else options.players)
    check_replay(game)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True), (4, False)])
def test_random_legal_games_to_250(players: int, teams: bool, seed: int) -> None:
    game = play_checked(StraightOptions(players=players, partnerships=teams), 1000 * players + seed)
    assert game.scores[game.winner or 0] >= 250
    check_replay(game)


@settings(max_examples=100, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_lean_path_matches_the_public_path(options: StraightOptions, seed: int) -> None:
    public = StraightGame(options, RandomDealer(seed))
    lean = StraightGame(options, RandomDealer(seed))
    rng = random.Random(seed)
    while not public.is_over:
        codes = lean.legal_codes()
        assert [action_of(c) for c in codes] == public.legal_actions(public.to_move or 0)
        code = codes[rng.randrange(len(codes))]
        assert lean.is_legal(code)
        public.apply(public.to_move or 0, action_of(code))
        lean.push(code)
    assert lean.is_over and lean.record() == public.record()


@settings(max_examples=100, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_copies_and_playouts_leave_the_original_alone(options: StraightOptions, seed: int) -> None:
    game = StraightGame(options, RandomDealer(seed))
    rng = random.Random(seed)
    for _ in range(rng.randrange(12)):
        if game.is_over:
            break
        codes = game.legal_codes()
        game.push(codes[rng.randrange(len(codes))])
    before = state(game)
    for _ in range(3):
        copy = game.copy()
        copy.playout(rng)
        assert copy.is_over or copy.to_move is None or copy.hand_number > game.hand_number
        check_conservation(copy)
        if not game.is_over:
            # Every legal action is accepted, on a copy.
            for action in game.legal_actions(game.to_move or 0):
                game.copy().apply(game.to_move or 0, action)
    assert state(game) == before
