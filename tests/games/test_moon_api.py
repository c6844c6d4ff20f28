"""MoonGame views, events, records, the basic bot and the fast path."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from moon_script import (
    DOUBLES,
    D,
    ScriptedDealer,
    T,
    auction,
    of,
    sweep,
    sweep_deal,
)

from boneyard.server.games.base import RandomDealer
from boneyard.server.games.moon import (
    Bid,
    Discard,
    HandDealt,
    HandStarted,
    MoonGame,
    MoonOptions,
    MoonView,
    NameTrump,
    Pass,
    Play,
    action_from_record,
    action_to_dict,
    choose,
)
from boneyard.server.games.moon.rules import TrumpName

# -- views -------------------------------------------------------------------------------------------


def test_view_sorts_the_hand_and_shows_only_what_the_viewer_may_know() -> None:
    deal = D("42 66 55 33 22 11 00 | 54 64 31 21 32 51 52 | 44 41 43 65 63 62 61 | 53")
    game = MoonGame(dealer=ScriptedDealer([deal], first=0))
    assert game.view(1).hand == tuple(T("64 54 52 51 32 31 21"))
    assert game.view(0).legal_actions and not game.view(1).legal_actions
    assert game.view(None).hand == () and game.view(None).legal_actions == ()
    auction(game, 0, 4)
    game.apply(0, Discard((5, 3)))
    game.apply(0, NameTrump(6))
    assert game.view(2).hand == tuple(T("65 63 62 61 44 43 41"))  # trumps first, by rank
    game.apply(0, Play((4, 2)))
    view = game.view(1)
    assert isinstance(view, MoonView)
    assert (view.viewer, view.hand_number, view.phase, view.to_move, view.leader) == (1, 0, "playing", 1, 0)
    assert (view.trump, view.tricks, view.scores, view.target, view.winner) == (
        6,
        (0, 0, 0),
        (0, 0, 0),
        21,
        None,
    )
    assert view.legal_actions == (Play((5, 4)),) and view.discard is None
    as_dict = view.as_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["trick"] == [[0, [4, 2]]]
    assert as_dict["legal_actions"] == [{"type": "play", "tile": [5, 4]}]
    assert as_dict["bids"] == [4, "pass", "pass"]
    assert game.view(0).as_dict()["discard"] == [5, 3]
    with pytest.raises(ValueError):
        game.view(3)


# -- events, record ----------------------------------------------------------------------------------


def test_opening_events_are_hand_started_and_private_deals() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(1)], first=2))
    events = game.opening_events()
    assert events[0] == HandStarted(hand=0, first=2, tile_counts=(7, 7, 7), boneyard=0)
    dealt = of(events, HandDealt)
    assert len(events) == 4 and [e.seat for e in dealt] == [0, 1, 2]
    assert dealt[1] == HandDealt(1, tuple(T(DOUBLES)))
    assert dealt[1].seen_by(1) is dealt[1]
    assert dealt[1].seen_by(0) is None and dealt[1].seen_by(None) is None
    assert {e.type for e in events} == {"hand_started", "hand_dealt"}  # type: ignore[attr-defined]


def test_record_format_auto_flags_and_unfinished_hand() -> None:
    game = MoonGame(MoonOptions(all_pass="force_last"), ScriptedDealer([sweep_deal(0)], first=0))
    game.apply(0, Bid(4), auto=True)
    game.apply(1, Pass())
    record = game.record(["ana", "bot-1", "li"])
    assert {k: record[k] for k in ("format", "game", "players", "options", "seat_names")} == {
        "format": "boneyard-record/1",
        "game": "moon",
        "players": 3,
        "options": {"all_pass": "force_last", "target": 21},
        "seat_names": ["ana", "bot-1", "li"],
    }
    (hand,) = record["hands"]
    assert hand["actions"] == [
        {"seat": 0, "type": "bid", "bid": 4, "auto": True},
        {"seat": 1, "type": "pass"},
    ]
    assert "scores" not in hand and "final_scores" not in record and "winner" not in record
    assert json.loads(json.dumps(record)) == record
    with pytest.raises(ValueError):
        game.record(["only", "two"])


def test_record_entries_round_trip_through_action_from_record() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    sweep(game, 0, 4)
    entries = game.record()["hands"][0]["actions"]
    assert {e["type"] for e in entries} == {"bid", "pass", "discard", "trump", "play"}
    for entry in entries:
        action = action_from_record(entry)
        assert {"seat": entry["seat"], **action_to_dict(action)} == entry
    for bad in (
        {"type": "bid", "bid": "4"},
        {"type": "play"},
        {"type": "draw"},
        {"type": "trump", "trump": 9},
    ):
        with pytest.raises(ValueError):
            action_from_record(bad)


def test_options_are_checked() -> None:
    assert MoonOptions().as_dict() == {"all_pass": "redeal", "target": 21}
    with pytest.raises(ValueError):
        MoonOptions(all_pass="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MoonOptions(target=0)


# -- the basic bot -----------------------------------------------------------------------------------


@pytest.mark.parametrize("all_pass", ["redeal", "force_last"])
def test_bot_always_plays_legally_to_a_winner(all_pass: str) -> None:
    for seed in range(8):
        game = MoonGame(MoonOptions(all_pass=all_pass), RandomDealer(seed))  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = choose(view, rng)
            assert action in view.legal_actions
            game.apply(seat, action)
        assert game.winner in (0, 1, 2)


def _view(hand: str, *, phase: str = "playing", trump: TrumpName | None = 6, **kw: Any) -> MoonView:
    fields: dict[str, Any] = {
        "viewer": 0,
        "hand_number": 0,
        "phase": phase,
        "hand": tuple(T(hand)),
        "tile_counts": (7, 7, 7),
        "first": 0,
        "bids": (None, None, None),
        "high_bidder": None,
        "high_bid": None,
        "trump": trump,
        "trick": (),
        "leader": 0,
        "played": (),
        "tricks": (0, 0, 0),
        "scores": (0, 0, 0),
        "target": 21,
        "to_move": 0,
        "legal_actions": (),
        "discard": None,
    }
    fields.update(kw)
    return MoonView(winner=None, **fields)


def test_bot_bids_21_only_when_it_cannot_lose_and_passes_a_weak_hand() -> None:
    bids = (Pass(), Bid(4), Bid(5), Bid(6), Bid(7), Bid(21))
    rng = random.Random(0)
    assert choose(_view(DOUBLES, phase="bidding", trump=None, legal_actions=bids), rng) == Bid(21)
    weak = _view("21 31 32 41 42 51 52", phase="bidding", trump=None, legal_actions=bids)
    assert choose(weak, rng) == Pass()
    forced = _view("21 31 32 41 42 51 52", phase="bidding", trump=None, legal_actions=bids[1:])
    assert choose(forced, rng) == Bid(4)


def test_bot_discards_weakest_off_suit_and_names_its_long_suit() -> None:
    hand = "66 65 64 63 62 11 21 31"
    discards = tuple(Discard(t) for t in T(hand))
    assert choose(
        _view(hand, phase="discarding", trump=None, legal_actions=discards), random.Random(0)
    ) == Discard((2, 1))
    names = tuple(NameTrump(t) for t in (0, 1, 2, 3, 4, 5, 6, "doubles", "none"))
    view = _view("66 65 64 63 62 11 31", phase="naming_trump", trump=None, legal_actions=names)
    assert choose(view, random.Random(0)) == NameTrump(6)


def test_bot_wins_cheaply_or_plays_its_lowest() -> None:
    trick = ((1, (5, 2)), (2, (5, 3)))
    legal = (Play((5, 5)), Play((5, 4)), Play((5, 1)))
    view = _view("55 54 51", trick=trick, leader=1, legal_actions=legal)
    assert choose(view, random.Random(0)) == Play((5, 4))
    trick = ((1, (5, 2)), (2, (6, 1)))
    view = _view("55 54 51", trick=trick, leader=1, legal_actions=legal)
    assert choose(view, random.Random(0)) == Play((5, 1))


# -- the fast path -----------------------------------------------------------------------------------


def test_fast_state_is_an_independent_copy_that_plays_the_same_rules() -> None:
    game = MoonGame(dealer=RandomDealer(11))
    rng = random.Random(11)
    for _ in range(40):
        seat = game.to_move
        assert seat is not None
        state = game.fast_state()
        before = game.record()
        state.playout(random.Random(0))  # plays the copy to the end of the hand
        assert game.record() == before
        legal = game.legal_actions(seat)
        assert len(legal) == len(game.fast_state().legal_moves())
        game.apply(seat, rng.choice(legal))
