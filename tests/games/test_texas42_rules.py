"""Texas 42: docs/RULES.md worked examples 24-31, through the engine where a hand is played."""

from __future__ import annotations

import pytest
from texas42_script import T, act, auction, game_of, trick

from boneyard.server.games.base import IllegalAction
from boneyard.server.games.texas42 import (
    Bid,
    GameOver,
    HandScored,
    HandStarted,
    HandThrownIn,
    NameTrump,
    Pass,
    Play,
    TexasOptions,
    TrickWon,
    TrumpNamed,
)
from boneyard.server.games.texas42.rules import COUNT, trick_points
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS
from boneyard.server.games.tricks import NELLO, follows, legal_follows

# Seat 1 takes tricks 1-4 with doubles (9 points: four tricks and [3-2]); seat 2 takes trick 5 with
# [6-4] over [4-1], seat 3 and seat 0 throwing [5-0] and [5-5] on it: 31 points.
FIVE_TRICKS = "20 55 66 65 63 62 61 | 22 11 00 33 41 40 42 | 64 21 10 30 44 43 54 | 50 32 51 52 53 31 60"
FIVE_TRICKS_PLAYED = (
    ("20", "22", "21", "32"),
    ("11", "10", "51", "61"),
    ("00", "30", "60", "62"),
    ("33", "43", "31", "63"),
)


def rotated(deal: str, by: int) -> str:
    """The same deal with every hand moved ``by`` seats clockwise."""
    hands = deal.split("|")
    return "|".join(hands[(seat - by) % 4] for seat in range(4))


def test_example_24_a_teams_points_are_its_tricks_and_their_count() -> None:
    """4 tricks holding [5-5], [3-2] and [6-1] (and no other count): 4 + 10 + 5 = 19."""
    tricks = [T("55 22 11 00"), T("32 33 21 10"), T("61 66 62 63"), T("44 43 42 40")]
    assert sum(trick_points(TILE_IDS[t] for t in tiles) for tiles in tricks) == 19
    assert sum(COUNT) == 35 and sum(c > 0 for c in COUNT) == 5


def test_example_25_a_made_point_bid_ends_the_hand_at_once() -> None:
    game = game_of(FIVE_TRICKS, first=0)
    auction(game, bidder=0, bid=30, trump="none")
    for tiles in FIVE_TRICKS_PLAYED:
        events = trick(game, *tiles)
        assert not any(isinstance(e, HandScored) for e in events)
    assert game.view(None).points == (0, 9)
    events = trick(game, "41", "64", "50", "55")
    won, scored = events[1], events[2]
    assert isinstance(won, TrickWon) and won.seat == 2 and won.points == (31, 9)
    assert scored == HandScored(0, 30, "none", True, (31, 9), (1, 0), (1, 0))
    assert isinstance(events[3], HandStarted) and events[3].first == 1  # T3: the next bidder
    hand = game.record()["hands"][0]
    assert len(hand["actions"]) == 5 + 20  # the tricks played, no more (T10)
    assert hand["result"] == {
        "bidder": 0,
        "bid": 30,
        "trump": "none",
        "made": True,
        "points": [31, 9],
        "marks": [1, 0],
    }
    assert hand["scores"] == [1, 0]


def test_example_26_a_point_bid_is_set_once_the_opponents_pass_42_minus_the_bid() -> None:
    """Bid 34 by seat 1: set when 0+2 have more than 8. After three tricks they have 8 (not yet),
    after four 9: the hand ends, +1 mark to 0+2."""
    game = game_of(rotated(FIVE_TRICKS, 1), first=1)
    auction(game, bidder=1, bid=34, trump="none")
    played = [tuple(t for t in tiles) for tiles in FIVE_TRICKS_PLAYED]
    for tiles in played[:3]:
        trick(game, *tiles)
    assert game.view(None).points == (8, 0) and game.phase == "playing"
    events = trick(game, *played[3])
    assert events[2] == HandScored(1, 34, "none", False, (9, 0), (1, 0), (1, 0))
    assert game.record()["hands"][0]["result"]["made"] is False


def test_example_27_a_mark_bid_is_set_by_the_first_trick_lost() -> None:
    deal = "63 22 32 42 52 62 00 | 33 43 53 44 54 55 60 | 66 65 10 20 30 40 50 | 11 64 21 31 41 51 61"
    game = game_of(deal, first=2)
    auction(game, bidder=2, bid=84, trump=6)
    trick(game, "66", "61", "62", "60")
    trick(game, "65", "64", "63", "55")
    events = trick(game, "10", "11", "00", "33")
    assert isinstance(events[1], TrickWon) and events[1].seat == 3
    assert events[2] == HandScored(2, 84, 6, False, (22, 1), (0, 2), (0, 2))


def test_example_28_after_a_mark_bid_only_one_mark_more() -> None:
    game = game_of(FIVE_TRICKS, first=0)
    act(game, (0, Bid(30)), (1, Pass()), (2, Bid(42)))
    assert game.legal_actions(3) == [Pass(), Bid(84)]
    with pytest.raises(IllegalAction, match="the high bid is 42: bid 84 or pass"):
        game.apply(3, Bid(126))
    opening = game_of(FIVE_TRICKS, first=0)
    assert Bid(126) not in opening.legal_actions(0)
    with pytest.raises(IllegalAction, match="an opening mark bid is 42 or 84"):
        opening.apply(0, Bid(126))
    assert opening.legal_actions(0)[-2:] == [Bid(42), Bid(84)] and Pass() in opening.legal_actions(0)


def test_example_29_all_pass_forces_the_fourth_or_throws_the_hand_in() -> None:
    forced = game_of(FIVE_TRICKS, first=2)
    act(forced, (2, Pass()), (3, Pass()), (0, Pass()))
    assert forced.legal_actions(1) == [Bid(b) for b in (*range(30, 42), 42, 84)]
    with pytest.raises(IllegalAction, match="the first three passed: you must bid 30-41, 42 or 84"):
        forced.apply(1, Pass())
    redeal = game_of(FIVE_TRICKS, first=2, options=TexasOptions(all_pass="redeal"))
    events = act(redeal, (2, Pass()), (3, Pass()), (0, Pass()), (1, Pass()))
    assert isinstance(events[1], HandThrownIn) and isinstance(events[2], HandStarted)
    assert events[2].first == 3 and redeal.hand_number == 1 and redeal.scores == (0, 0)
    assert redeal.record()["hands"][0]["scores"] == [0, 0]


def test_example_30_a_trump_never_follows_a_number_suit() -> None:
    assert legal_follows(4, (6, 0), T("64 62 00")) == T("62")


def test_example_31_nello_the_partner_sits_out_and_the_doubles_are_a_suit() -> None:
    assert follows(NELLO, (5, 5), T("44 54")) == T("44")
    assert follows(NELLO, (5, 4), T("44 51")) == T("51")  # a double is no 5 nor 4
    deal = "66 65 64 63 62 61 60 | 55 54 53 52 51 50 11 | 44 43 42 41 40 33 32 | 22 21 20 31 30 10 00"
    game = game_of(deal, first=3, options=TexasOptions(nello=True))
    act(game, (3, Bid(42)), (0, Pass()), (1, Pass()), (2, Pass()))
    assert NameTrump("nello") in game.legal_actions(3)
    (named,) = game.apply(3, NameTrump("nello"))
    assert named == TrumpNamed(3, "nello", 1) and game.view(0).out == 1
    trick(game, "00", "66")  # seat 3 leads, seat 0 follows, seat 1 is skipped
    assert game.to_move == 2 and game.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="you sit this nello hand out") as refused:
        game.apply(1, Play((5, 5)))
    assert refused.value.code == "not_your_turn"
    events = trick(game, "33")
    assert isinstance(events[1], TrickWon) and events[1].seat == 0 and len(events[1].tiles) == 3
    assert game.view(1).tile_counts == (6, 7, 6, 6)


def test_nello_is_set_as_soon_as_the_bidder_takes_a_trick() -> None:
    deal = "66 65 64 63 62 61 60 | 55 54 53 52 51 50 11 | 44 43 42 41 40 33 32 | 22 21 20 31 30 10 00"
    game = game_of(deal, first=0, options=TexasOptions(nello=True))
    act(game, (0, Bid(84)), (1, Pass()), (2, Pass()), (3, Pass()), (0, NameTrump("nello")))
    events = trick(game, "66", "55", "00")  # [6-6] heads the doubles: the bidder takes it
    assert events[2] == HandScored(0, 84, "nello", False, (11, 0), (0, 2), (0, 2))


def test_nello_needs_the_option_and_a_mark_bid() -> None:
    plain = game_of(FIVE_TRICKS, first=0)
    act(plain, (0, Bid(42)), (1, Pass()), (2, Pass()), (3, Pass()))
    with pytest.raises(IllegalAction, match="without nello"):
        plain.apply(0, NameTrump("nello"))
    option = game_of(FIVE_TRICKS, first=0, options=TexasOptions(nello=True))
    act(option, (0, Bid(41)), (1, Pass()), (2, Pass()), (3, Pass()))
    assert NameTrump("nello") not in option.legal_actions(0)
    with pytest.raises(IllegalAction, match="nello needs a mark bid"):
        option.apply(0, NameTrump("nello"))


def test_a_team_reaching_the_target_wins_the_game() -> None:
    game = game_of(FIVE_TRICKS, first=0, options=TexasOptions(target=1))
    auction(game, bidder=0, bid=30, trump="none")
    for tiles in FIVE_TRICKS_PLAYED:
        trick(game, *tiles)
    events = trick(game, "41", "64", "50", "55")
    assert events[-1] == GameOver(0, (1, 0))
    assert game.is_over and game.winner == 0 and game.to_move is None
    assert game.record()["final_scores"] == [1, 0] and game.record()["winner"] == 0
    with pytest.raises(IllegalAction) as over:
        game.apply(1, Pass())
    assert over.value.code == "game_over"


def test_every_tile_is_dealt_and_each_seat_sees_only_its_own() -> None:
    game = game_of(FIVE_TRICKS, first=0)
    dealt = [e for e in game.opening_events() if e.type == "hand_dealt"]
    assert sorted(t for e in dealt for t in e.tiles) == sorted(ALL_TILES)  # type: ignore[attr-defined]
    for event in dealt:
        seat = event.seat  # type: ignore[attr-defined]
        assert [v for v in range(4) if event.seen_by(v) is not None] == [seat]
        assert event.seen_by(None) is None
        assert set(game.view(seat).hand) == set(event.tiles)  # type: ignore[attr-defined]
