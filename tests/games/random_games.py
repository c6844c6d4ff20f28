"""Random legal games for the property tests of the engines: the dealer that remembers its deals,
the game loop with a check after every step, and the check that refused actions change nothing."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from boneyard.server.games.base import Engine, Event, IllegalAction, RandomDealer
from boneyard.server.games.tiles import Tile


class RecordingDealer:
    """A seeded random dealer that remembers every order it dealt (the true deals)."""

    def __init__(self, seed: int) -> None:
        self._inner = RandomDealer(seed)
        self.deals: list[list[Tile]] = []

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        order = self._inner.shuffled(tiles)
        self.deals.append(list(order))
        return order

    def pick(self, n: int) -> int:
        return self._inner.pick(n)


E = TypeVar("E", bound=Engine)
Step = Callable[[E, RecordingDealer, list[Event], random.Random], None]


def play_random(
    make: Callable[[RecordingDealer], E],
    choose: Callable[[E, int, random.Random], Any],
    seed: int,
    step: Step[E] | None,
    hands: int,
) -> tuple[E, RecordingDealer]:
    """``choose``'s legal actions (some marked auto) until the game is over; ``step`` after each.

    With ``step``, play stops after ``hands`` hands; without, a game that lasts that long fails.
    """
    rng = random.Random(seed)
    dealer = RecordingDealer(seed)
    game = make(dealer)
    if step:
        step(game, dealer, game.opening_events(), rng)
    while not game.is_over:
        if game.hand_number >= hands:
            assert step, "the game does not end"
            break
        seat = game.to_move
        assert seat is not None
        events = game.apply(seat, choose(game, seat, rng), auto=rng.random() < 0.1)
        if step:
            step(game, dealer, events, rng)
    return game, dealer


def check_refusals(
    game: E, universe: Sequence[Any], snapshot: Callable[[E], Any], rng: random.Random
) -> None:
    """A few actions of ``universe`` outside the legal set, by random seats: each is refused with the
    right code and a message, and changes nothing ``snapshot`` sees."""
    before = snapshot(game)
    for _ in range(3):
        seat = rng.randrange(game.players)
        action = rng.choice(universe)
        if action in game.legal_actions(seat):
            continue
        try:
            game.apply(seat, action)
        except IllegalAction as error:
            expected = (
                "game_over" if game.is_over else "not_your_turn" if seat != game.to_move else "illegal_action"
            )
            assert error.code == expected and str(error)
        else:
            raise AssertionError(f"{action} by seat {seat} was accepted but is not legal")
        assert snapshot(game) == before
