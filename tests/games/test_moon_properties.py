"""Property tests: random legal Moon games under random options, checked at every step."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import RecordingDealer, check_refusals, play_random

from boneyard.server.games.base import Event
from boneyard.server.games.moon import (
    Action,
    Bid,
    Discard,
    Discarded,
    HandDealt,
    HandStarted,
    MoonGame,
    MoonOptions,
    NameTrump,
    Pass,
    Play,
    TilePlayed,
    WidowTaken,
)
from boneyard.server.games.moon.rules import MOON_TILES, ids_of
from boneyard.server.games.moon.state import BIDDING
from boneyard.server.games.record_replay import replay
from boneyard.server.games.tiles import ALL_TILES, Tile

OPTIONS = st.builds(
    MoonOptions,
    all_pass=st.sampled_from(["redeal", "force_last"]),
    target=st.sampled_from([1, 4, 10, 21]),
)
SEEDS = st.integers(0, 2**32 - 1)
MAX_HANDS = 1000
CHECKED_HANDS = 12  # the step-by-step checks stop a long game here, to bound the suite's time

UNIVERSE: list[Action] = [
    Pass(),
    *(Bid(b) for b in (3, 4, 5, 6, 7, 8, 20, 21)),
    *(Discard(t) for t in ALL_TILES),
    *(Play(t) for t in ALL_TILES),
    *(NameTrump(t) for t in (0, 1, 2, 3, 4, 5, 6, "doubles", "none", 7, "all")),  # type: ignore[arg-type]
]


Step = Callable[[MoonGame, RecordingDealer, list[Event], random.Random], None]


def _random_action(game: MoonGame, seat: int, rng: random.Random) -> Action:
    """A random legal action; the auction leans to passes and low bids so that games end.

    (Uniform bidding makes most hands a failed high bid, scores drift down and games rarely end.)
    """
    actions = game.legal_actions(seat)
    assert actions
    if game.phase == "bidding":
        if Pass() in actions and rng.random() < 0.6:
            return Pass()
        low = [a for a in actions if isinstance(a, Bid) and a.bid != 21][:2]
        if low and rng.random() < 0.97:
            return rng.choice(low)
    return rng.choice(actions)


def play_random_game(
    seed: int, options: MoonOptions, step: Step | None = None, hands: int = MAX_HANDS
) -> tuple[MoonGame, RecordingDealer]:
    """Random legal actions (some marked auto) until the game is over; ``step`` after each.

    With ``step``, play stops after ``hands`` hands; without, a game that lasts that long fails.
    """
    return play_random(lambda dealer: MoonGame(options, dealer), _random_action, seed, step, hands)


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_random_games_reach_a_winner_and_their_record_replays(seed: int, options: MoonOptions) -> None:
    game, _ = play_random_game(seed, options)
    assert game.winner in (0, 1, 2) and game.to_move is None
    scores = game.scores
    record = json.loads(json.dumps(game.record(["a", "b", "c"])))
    assert record["final_scores"] == list(scores) and record["winner"] == game.winner
    before = record["hands"][-2]["scores"] if len(record["hands"]) > 1 else [0, 0, 0]
    points = [s - b for s, b in zip(scores, before, strict=True)]
    bids = {a["seat"]: a["bid"] for a in record["hands"][-1]["actions"] if a["type"] == "bid"}
    if bids.get(game.winner) == 21 and points[game.winner] == 21:
        pass  # M12: a made 21 wins at once, whatever the scores
    else:  # M13: a lone top score at the target
        assert scores.count(max(scores)) == 1 and max(scores) >= options.target
        assert game.winner == scores.index(max(scores))

    replayed = replay(record)  # the records module's replayer, checked hand by hand
    again = json.loads(json.dumps(replayed.record(["a", "b", "c"])))
    assert [h["scores"] for h in again["hands"]] == [h["scores"] for h in record["hands"]]
    assert (again["final_scores"], again["winner"]) == (record["final_scores"], record["winner"])
    assert again == record


def _check_conservation(
    game: MoonGame, dealer: RecordingDealer, events: list[Event], rng: random.Random
) -> None:
    state = game.fast_state()
    if game.is_over:
        return
    tiles = [ALL_TILES[i] for h in state.hands for i in ids_of(h)]
    if state.phase == BIDDING:
        tiles.append(ALL_TILES[state.widow])
    if state.discard >= 0:
        tiles.append(ALL_TILES[state.discard])
    view = game.view(None)
    tiles += [t for trick in view.played for _, t in trick] + [t for _, t in view.trick]
    assert len(tiles) == 22 and set(tiles) == set(MOON_TILES)
    assert sorted(tiles) == sorted(dealer.deals[game.hand_number])


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_tiles_are_conserved_in_every_hand(seed: int, options: MoonOptions) -> None:
    play_random_game(seed, options, _check_conservation, CHECKED_HANDS)


def _snapshot(game: MoonGame) -> Any:
    return (game.record(), game.view(game.to_move), game.view(None), game.scores, game.phase)


def _check_refusals(game: MoonGame, dealer: RecordingDealer, events: list[Event], rng: random.Random) -> None:
    check_refusals(game, UNIVERSE, _snapshot, rng)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_every_action_outside_the_legal_set_is_refused_and_changes_nothing(
    seed: int, options: MoonOptions
) -> None:
    game, dealer = play_random_game(seed, options, _check_refusals, CHECKED_HANDS)
    _check_refusals(game, dealer, [], random.Random(seed))


def _tiles_in(value: Any) -> set[Tile]:
    """Every tile mentioned anywhere in a JSON-like structure or an event."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return set().union(*(_tiles_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(type(v) is int for v in value):
            tile = (value[0], value[1])
            assert tile in MOON_TILES, f"{value} looks like a tile but is not one"
            return {tile}
        return set().union(*(_tiles_in(v) for v in value))
    return set()


class _Knowledge:
    """What each seat may know of the current hand, rebuilt from the true deal and the public events."""

    def __init__(self) -> None:
        self.new_hand([])

    def new_hand(self, deal: list[Tile]) -> None:
        self.deal = deal
        self.played: set[Tile] = set()
        self.bidder: int | None = None

    def allowed(self, viewer: int | None) -> set[Tile]:
        out = set(self.played)
        if viewer is not None:
            out |= set(self.deal[viewer * 7 : viewer * 7 + 7])
            if viewer == self.bidder:
                out.add(self.deal[21])  # the widow, and so whatever the bidder discards
        return out


def _leak_checker() -> Step:
    known = _Knowledge()

    def check(game: MoonGame, dealer: RecordingDealer, events: list[Event], rng: random.Random) -> None:
        for event in events:
            if isinstance(event, HandStarted):
                known.new_hand(dealer.deals[event.hand])
            elif isinstance(event, WidowTaken):
                known.bidder = event.seat
            elif isinstance(event, TilePlayed):
                known.played.add(event.tile)
            for viewer in (0, 1, 2, None):
                seen = event.seen_by(viewer)
                if seen is None:
                    assert isinstance(event, HandDealt) and viewer != event.seat
                    continue
                assert _tiles_in(seen) <= known.allowed(viewer), (viewer, seen)
                if isinstance(seen, HandDealt):
                    assert set(seen.tiles) == set(known.deal[viewer * 7 : viewer * 7 + 7])  # type: ignore[operator]
                if isinstance(seen, WidowTaken | Discarded) and viewer != seen.seat:
                    assert seen.tile is None
        state = game.fast_state()
        for viewer in (0, 1, 2, None):
            view = game.view(viewer)
            assert _tiles_in(view.as_dict()) <= known.allowed(viewer), (viewer, view)
            if viewer is not None:
                assert set(view.hand) == {ALL_TILES[i] for i in ids_of(state.hands[viewer])}
                assert bool(view.legal_actions) == (viewer == game.to_move)

    return check


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_no_view_or_event_shows_a_seat_what_it_may_not_see(seed: int, options: MoonOptions) -> None:
    play_random_game(seed, options, _leak_checker(), CHECKED_HANDS)
