"""Property tests: random legal Texas 42 games under every option set, checked at every step."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import RecordingDealer, check_refusals, play_random

from boneyard.server.games.base import Event, RandomDealer
from boneyard.server.games.record_replay import replay
from boneyard.server.games.texas42 import (
    Action,
    Bid,
    HandDealt,
    HandStarted,
    NameTrump,
    Pass,
    Play,
    Texas42Game,
    TexasOptions,
)
from boneyard.server.games.texas42.rules import TOTAL, marks_of
from boneyard.server.games.tiles import ALL_TILES, Tile
from boneyard.server.games.tricks import ids_of

OPTIONS = st.builds(
    TexasOptions,
    all_pass=st.sampled_from(["redeal", "force_last"]),
    nello=st.booleans(),
    target=st.sampled_from([1, 2, 7]),
)
SEEDS = st.integers(0, 2**32 - 1)
MAX_HANDS = 500
CHECKED_HANDS = 10  # the step-by-step checks stop a long game here, to bound the suite's time

UNIVERSE: list[Action] = [
    Pass(),
    *(Bid(b) for b in (0, 4, 21, 29, 30, 35, 41, 42, 43, 84, 126, 168, 210, 252)),
    *(Play(t) for t in ALL_TILES),
    *(NameTrump(t) for t in (0, 3, 6, "doubles", "none", "nello", 7, "all")),  # type: ignore[arg-type]
]


Step = Callable[[Texas42Game, RecordingDealer, list[Event], random.Random], None]


def _random_action(game: Texas42Game, seat: int, rng: random.Random) -> Action:
    """A random legal action; the auction leans to passes so that some hands are thrown in or forced."""
    actions = game.legal_actions(seat)
    assert actions
    if game.phase == "bidding" and Pass() in actions and rng.random() < 0.5:
        return Pass()
    if game.phase == "naming_trump" and NameTrump("nello") in actions and rng.random() < 0.3:
        return NameTrump("nello")
    return rng.choice(actions)


def play_random_game(
    seed: int, options: TexasOptions, step: Step | None = None, hands: int = MAX_HANDS
) -> tuple[Texas42Game, RecordingDealer]:
    """Random legal actions (some marked auto) until the game is over; ``step`` after each."""
    return play_random(lambda dealer: Texas42Game(options, dealer), _random_action, seed, step, hands)


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_random_games_reach_a_winner_and_their_record_replays(seed: int, options: TexasOptions) -> None:
    game, _ = play_random_game(seed, options)
    assert game.winner in (0, 1) and game.to_move is None
    record = json.loads(json.dumps(game.record(["a", "b", "c", "d"])))
    assert record["final_scores"] == list(game.scores) and record["winner"] == game.winner
    assert game.scores[game.winner] >= options.target > game.scores[1 - game.winner]
    marks = [0, 0]
    for hand in record["hands"]:
        result = hand.get("result")
        if result is None:  # thrown in (T5, redeal): four passes, nothing scored
            assert [a["type"] for a in hand["actions"]] == ["pass"] * 4 and options.all_pass == "redeal"
        else:
            side = result["bidder"] % 2 if result["made"] else 1 - result["bidder"] % 2
            assert result["marks"][side] == marks_of(result["bid"]) and result["marks"][1 - side] == 0
            assert sum(result["points"]) <= TOTAL
            marks[side] += result["marks"][side]
        assert hand["scores"] == marks
    replayed = replay(record)
    assert json.loads(json.dumps(replayed.record(["a", "b", "c", "d"]))) == record


def _check_conservation(
    game: Texas42Game, dealer: RecordingDealer, events: list[Event], rng: random.Random
) -> None:
    if game.is_over or game.between_hands:
        return
    state = game.fast_state()
    tiles = [ALL_TILES[i] for h in state.hands for i in ids_of(h)]
    view = game.view(None)
    tiles += [t for trick in view.played for _, t in trick] + [t for _, t in view.trick]
    assert sorted(tiles) == sorted(ALL_TILES) == sorted(dealer.deals[game.hand_number])
    assert sum(view.points) == len(view.played) + sum(_count(t) for trick in view.played for _, t in trick)


def _count(tile: Tile) -> int:
    """T8, said again independently of the engine's table: [5-5] and [6-4] 10, five pips 5."""
    return 10 if tile in ((5, 5), (6, 4)) else 5 if sum(tile) == 5 else 0


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_tiles_and_points_are_conserved_in_every_hand(seed: int, options: TexasOptions) -> None:
    play_random_game(seed, options, _check_conservation, CHECKED_HANDS)


def _snapshot(game: Texas42Game) -> Any:
    return (game.record(), [game.view(v) for v in (0, 1, 2, 3, None)], game.scores, game.phase)


def _check_refusals(
    game: Texas42Game, dealer: RecordingDealer, events: list[Event], rng: random.Random
) -> None:
    check_refusals(game, UNIVERSE, _snapshot, rng)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_every_action_outside_the_legal_set_is_refused_and_changes_nothing(
    seed: int, options: TexasOptions
) -> None:
    game, dealer = play_random_game(seed, options, _check_refusals, CHECKED_HANDS)
    _check_refusals(game, dealer, [], random.Random(seed))


TILE_FIELDS = ("tile", "tiles", "hand", "trick", "played")
"""The fields of events and views that hold tiles (the rest are numbers: seats, points, marks)."""


def _tiles_in(value: Any, holds_tiles: bool = False) -> set[Tile]:
    """Every tile in the tile fields of an event, a view's dict, or anything nested in them."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return set().union(*(_tiles_in(v, holds_tiles or k in TILE_FIELDS) for k, v in value.items()))
    if isinstance(value, list | tuple):
        if holds_tiles and len(value) == 2 and all(type(v) is int for v in value):
            assert (value[0], value[1]) in ALL_TILES, f"{value} is in a tile field but is not a tile"
            return {(value[0], value[1])}
        return set().union(*(_tiles_in(v, holds_tiles) for v in value))
    return set()


def _leak_checker() -> Step:
    """No event or view shows a seat (or a spectator) a tile it could not see: its own deal, and the
    tiles played. Partners see nothing of each other's hands; a nello partner's hand stays hidden."""
    deal: list[Tile] = []
    played: set[Tile] = set()

    def check(game: Texas42Game, dealer: RecordingDealer, events: list[Event], rng: random.Random) -> None:
        nonlocal deal
        for event in events:
            if isinstance(event, HandStarted):
                deal = dealer.deals[event.hand]
                played.clear()
            elif event.type == "tile_played":
                played.add(event.tile)  # type: ignore[attr-defined]
            for viewer in (0, 1, 2, 3, None):
                seen = event.seen_by(viewer)
                if seen is None:
                    assert isinstance(event, HandDealt) and viewer != event.seat
                    continue
                own = set(deal[viewer * 7 : viewer * 7 + 7]) if viewer is not None else set()
                assert _tiles_in(seen) <= own | played, (viewer, seen)
        for viewer in (0, 1, 2, 3, None):
            view = game.view(viewer)
            own = set(deal[viewer * 7 : viewer * 7 + 7]) if viewer is not None else set()
            assert _tiles_in(view.as_dict()) <= own | played, (viewer, view)
            assert bool(view.legal_actions) == (viewer is not None and viewer == game.to_move)

    return check


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_no_view_or_event_shows_a_seat_what_it_may_not_see(seed: int, options: TexasOptions) -> None:
    play_random_game(seed, options, _leak_checker(), CHECKED_HANDS)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_a_nello_partner_never_moves_and_tricks_have_three_tiles(seed: int) -> None:
    rng = random.Random(seed)
    game = Texas42Game(TexasOptions(nello=True), RandomDealer(seed))
    seen = 0
    while not game.is_over and game.hand_number < 6:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions(seat)
        if game.phase == "bidding":
            action: Action = next((a for a in legal if a == Bid(42)), rng.choice(legal))
        elif NameTrump("nello") in legal:
            action = NameTrump("nello")
        else:
            action = rng.choice(legal)
        view = game.view(seat)
        if view.out is not None:
            seen += 1
            assert seat != view.out and game.legal_actions(view.out) == []
            assert all(len(trick) == 3 and view.out not in [s for s, _ in trick] for trick in view.played)
        for event in game.apply(seat, action):
            if event.type == "trick_won" and view.out is not None:
                assert len(event.tiles) == 3  # type: ignore[attr-defined]
    assert seen > 0
