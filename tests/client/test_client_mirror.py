"""The mirror against the engines: after every ``turn`` it must equal the engine's view (a snapshot)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_feed import comparable, feed
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core import rules
from boneyard.clients.cli.core.mirror import Mirror
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.straight.game import StraightGame
from boneyard.server.games.straight.view import layout_view

OPTION_SETS = [
    ("moon", {}),
    ("moon", {"all_pass": "force_last"}),
    ("straight", {"players": 2}),
    ("straight", {"players": 3}),
    ("straight", {"players": 4}),
    ("straight", {"players": 4, "partnerships": False}),
    ("texas42", {}),
    ("texas42", {"nello": True}),  # every hand a mark bid and nello (engine_feed.WANTED)
    ("texas42", {"all_pass": "redeal", "target": 2}),
]


@pytest.mark.parametrize(("game", "options"), OPTION_SETS)
@pytest.mark.parametrize("viewer", [0, 1, None])
def test_mirror_equals_engine_view_after_every_turn(
    game: str, options: dict[str, Any], viewer: int | None
) -> None:
    for seed in range(3):
        mirror = Mirror()
        checked = 0
        wanted = "nello" if options.get("nello") else None
        for message, expected in feed(game, options, viewer, seed, wanted):
            if message is not None:
                mirror.apply(message)
            if expected is not None:
                got = mirror.tables["t1"].view
                assert got is not None
                assert comparable(got) == comparable(expected), (seed, message)
                checked += 1
        assert checked > 10
        assert mirror.tables["t1"].game_over is not None


def test_mirror_keeps_one_moon_hand_order_when_trump_is_named() -> None:
    """Issue 24.6: the hand used to re-sort trumps first when trump was named, renumbering every tile."""
    mirror = Mirror()
    named = 0
    before: tuple[Any, ...] = ()
    for message, _ in feed("moon", {}, 0, 1):
        if message is None:
            break
        mirror.apply(message)
        view = mirror.tables["t1"].view
        if view is None:
            continue
        assert list(view.hand) == rules.sort_moon_hand(view.hand, None)  # one order, trump or not
        if getattr(getattr(message, "event", None), "type", None) == "trump_named" and view.hand:
            assert view.hand == before
            named += 1
        before = view.hand
    assert named > 0


# --- the client's layout against the engine's, play by play -------------------------------


def _engine_layout_matches(seed: int, players: int) -> int:
    game = StraightGame(dealer=RandomDealer(seed))
    from boneyard.server.games.straight.options import StraightOptions

    game = StraightGame(StraightOptions(players=players), RandomDealer(seed))
    rng = random.Random(seed)
    from boneyard.server.games.registry import GAMES

    lay = layouts.EMPTY
    plays = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        action = GAMES["straight"].bot(game.view(seat), rng)
        hand_before = game.view(None).hand_number
        events = game.apply(seat, action)
        for event in events:
            if event.type == "hand_started":
                lay = layouts.EMPTY
            if event.type == "tile_played":
                lay = layouts.play(lay, event.tile, event.end)
                assert lay.count == event.count
                plays += 1
        if not game.is_over and game.view(None).hand_number == hand_before:
            engine = game.view(None).layout.as_dict()
            assert lay.model_dump(mode="json") == engine
    return plays


@pytest.mark.parametrize("players", [2, 3, 4])
def test_client_layout_equals_engine_layout(players: int) -> None:
    assert sum(_engine_layout_matches(seed, players) for seed in range(4)) > 50


def test_rule_book_count_examples() -> None:
    def run(*plays: tuple[tuple[int, int], str | None]) -> list[int]:
        lay, out = layouts.EMPTY, []
        for tile, end in plays:
            lay = layouts.play(lay, tile, end)
            out.append(lay.count)
        return out

    # docs/RULES.md examples 13, 14, 16 and 17.
    assert [run(((5, 5), None))[0], run(((6, 4), None))[0], run(((4, 1), None))[0]] == [10, 10, 5]
    assert run(((6, 6), None)) == [12]
    assert run(
        ((5, 5), None),
        ((5, 0), "right"),
        ((0, 0), "right"),
        ((6, 5), "left"),
        ((4, 0), "right"),
        ((5, 1), "up"),
        ((5, 4), "down"),
    ) == [10, 10, 10, 6, 10, 11, 15]
    assert run(((6, 6), None), ((6, 3), "right"))[-1] == 15
    assert run(((6, 4), None), ((4, 4), "right"), ((4, 1), "right"), ((4, 3), "up")) == [10, 14, 7, 10]
    assert layout_view  # the engine's view builder is what the play-by-play test compares against


@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6)).map(lambda t: (max(t), min(t))),
        min_size=3,
        max_size=3,
        unique=True,
    )
)
@settings(max_examples=200, deadline=None)
def test_trick_winner_matches_engine(tiles: list[tuple[int, int]]) -> None:
    from boneyard.server.games.moon.rules import trick_winner

    for trump in [*range(7), "doubles", "none"]:
        assert rules.trick_winner(trump, tiles) == trick_winner(trump, tiles)
