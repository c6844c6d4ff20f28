"""MoonGame via its API: docs/RULES.md worked examples 10-12, rules M1-M13, both options, illegal actions."""

from __future__ import annotations

import pytest
from moon_script import (
    FOUR_THREE_ZERO,
    FOUR_TWO_ONE,
    D,
    ScriptedDealer,
    T,
    assert_refused,
    auction,
    of,
    play_script,
    six_one,
    six_one_deal,
    sweep,
    sweep_deal,
)

from boneyard.server.games.moon import (
    Bid,
    BidMade,
    Discard,
    Discarded,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    HandThrownIn,
    MoonGame,
    MoonOptions,
    NameTrump,
    Pass,
    Passed,
    Play,
    TilePlayed,
    TrickWon,
    TrumpNamed,
    WidowTaken,
)
from boneyard.server.games.moon.rules import TrumpName

# -- the worked examples that need a whole hand --------------------------------------------------------


def test_example_10_game_bid_five_made_with_an_overtrick() -> None:
    game = MoonGame(dealer=ScriptedDealer([six_one_deal(0, 1)]))
    (scored,) = of(six_one(game, 0, 5), HandScored)
    assert scored == HandScored(bidder=0, bid=5, tricks=(6, 1, 0), points=(5, 1, 0), scores=(5, 1, 0))


def test_example_10_game_bid_five_missed() -> None:
    deal, plays = FOUR_TWO_ONE
    game = MoonGame(dealer=ScriptedDealer([deal]))
    auction(game, 0, 5)
    game.apply(0, Discard((5, 2)))
    game.apply(0, NameTrump(3))
    (scored,) = of(play_script(game, plays), HandScored)
    assert (scored.tricks, scored.points, game.scores) == ((4, 2, 1), (-5, 2, 1), (-5, 2, 1))


def test_example_11_game_made_21_wins_at_once() -> None:
    game = MoonGame(MoonOptions(target=100), ScriptedDealer([sweep_deal(1)], first=1))
    events = game.apply(1, Bid(21))
    assert events == [BidMade(1, 21), WidowTaken(1, (2, 1))]
    assert game.phase == "discarding"
    events = sweep(game, 1, 21)
    assert of(events, HandScored) == [HandScored(1, 21, (0, 7, 0), (0, 21, 0), (0, 21, 0))]
    assert events[-1] == GameOver(winner=1, scores=(0, 21, 0))
    assert game.is_over and game.winner == 1 and game.to_move is None and game.phase == "over"
    record = game.record()
    assert record["hands"][0]["scores"] == [0, 21, 0]
    assert (record["final_scores"], record["winner"]) == ([0, 21, 0], 1)


def test_example_11_game_missed_21_costs_21_and_pays_the_trick_taker() -> None:
    game = MoonGame(dealer=ScriptedDealer([six_one_deal(0, 2)]))
    events = six_one(game, 0, 21)
    assert of(events, HandScored)[0].points == (-21, 0, 1)
    assert game.scores == (-21, 0, 1) and not game.is_over and game.hand_number == 1


def test_example_12_game_tie_on_top_plays_on() -> None:
    deals = [
        sweep_deal(2),  # seat 2 bids 4, takes 7:       0 /  0 / 4
        sweep_deal(1),  # seat 1 bids 7, takes 7:       0 /  7 / 4
        sweep_deal(1),  #                                0 / 14 / 4
        sweep_deal(0),  # seat 0 bids 7, takes 7:       7 / 14 / 4
        sweep_deal(0),  #                               14 / 14 / 4
        six_one_deal(1, 0),  # seat 1 bids 6, takes 6: 15 / 20 / 4
        six_one_deal(0, 2),  # seat 0 bids 4, takes 6: 19 / 20 / 5
        FOUR_THREE_ZERO[0],
        sweep_deal(1),
    ]
    game = MoonGame(dealer=ScriptedDealer(deals, first=2))
    sweep(game, 2, 4)
    sweep(game, 1, 7)
    sweep(game, 1, 7)
    sweep(game, 0, 7)
    sweep(game, 0, 7)
    six_one(game, 1, 6)
    six_one(game, 0, 4)
    assert game.scores == (19, 20, 5)
    assert game.view(None).first == 0  # hand 7: the first bidder is seat 0 (2 + 7 clockwise)
    auction(game, 0, 4)
    game.apply(0, Discard((6, 5)))
    game.apply(0, NameTrump("none"))
    events = play_script(game, FOUR_THREE_ZERO[1])
    assert of(events, HandScored) == [HandScored(0, 4, (4, 3, 0), (4, 3, 0), (23, 23, 5))]
    assert not of(events, GameOver)
    assert not game.is_over and game.winner is None and game.hand_number == 8
    # Hand 8: seat 1 bids 4 and takes all seven, 23 / 27 / 5, and now stands alone on top.
    events = sweep(game, 1, 4)
    assert events[-1] == GameOver(winner=1, scores=(23, 27, 5))
    assert [h["scores"] for h in game.record()["hands"]][-3:] == [[19, 20, 5], [23, 23, 5], [23, 27, 5]]


# -- M1, M3 ------------------------------------------------------------------------------------------


def test_m1_deal_seven_each_and_a_widow_in_dealer_order() -> None:
    deal = sweep_deal(0)
    dealer = ScriptedDealer([deal], first=2)
    game = MoonGame(dealer=dealer)
    assert (dealer.shuffles, dealer.picks) == (1, [3])
    hand = game.record()["hands"][0]
    assert hand["deal"] == [[list(t) for t in deal[k : k + 7]] for k in (0, 7, 14)]
    assert (hand["widow"], hand["first"]) == ([2, 1], 2)
    assert sorted(game.view(0).hand) == sorted(deal[:7])
    assert game.view(1).tile_counts == (7, 7, 7)


def test_m1_a_dealer_that_does_not_shuffle_the_moon_set_is_an_error() -> None:
    bad = sweep_deal(0)
    bad[3] = (6, 0)
    with pytest.raises(ValueError, match="22 Moon tiles"):
        MoonGame(dealer=ScriptedDealer([bad]))


def test_m3_first_bidder_random_then_clockwise_thrown_in_hands_included() -> None:
    dealer = ScriptedDealer(first=1)
    game = MoonGame(dealer=dealer)
    firsts = []
    for _ in range(4):
        firsts.append(game.view(None).first)
        assert game.to_move == firsts[-1]
        for seat in (firsts[-1], (firsts[-1] + 1) % 3, (firsts[-1] + 2) % 3):
            game.apply(seat, Pass())
    assert firsts == [1, 2, 0, 1]
    assert dealer.picks == [3] and dealer.shuffles == 5
    assert game.to_move == 2
    game.apply(2, Bid(4))
    game.apply(0, Pass())
    assert of(game.apply(1, Pass()), WidowTaken)[0].seat == 2


def test_m3_first_bidder_moves_on_after_a_scored_hand() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    events = sweep(game, 0, 4)
    started = of(events, HandStarted)
    assert started == [HandStarted(hand=1, first=1, tile_counts=(7, 7, 7), boneyard=0)]
    assert game.to_move == 1


# -- M4, M5 ------------------------------------------------------------------------------------------


def test_m4_each_player_speaks_once_and_the_high_bid_takes_the_widow() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    assert game.legal_actions(0) == [Pass(), Bid(4), Bid(5), Bid(6), Bid(7), Bid(21)]
    assert game.apply(0, Bid(5)) == [BidMade(0, 5)]
    assert game.legal_actions(1) == [Pass(), Bid(6), Bid(7), Bid(21)]
    assert_refused(game, 1, Bid(5), "illegal_action", r"^the high bid is 5: bid 6, 7, 21 or pass$")
    assert_refused(
        game,
        1,
        Bid(8),
        "illegal_action",
        r"^8 is not a bid: bids are 4, 5, 6, 7 or 21; now 6, 7, 21 or pass$",
    )
    assert game.apply(1, Pass()) == [Passed(1)]
    assert game.apply(2, Bid(6)) == [BidMade(2, 6), WidowTaken(2, (2, 1))]
    view = game.view(2)
    assert (view.bids, view.high_bidder, view.high_bid, view.phase) == ((5, "pass", 6), 2, 6, "discarding")
    assert game.legal_actions(0) == []


def test_m4_a_bid_of_21_ends_the_auction_at_once() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    assert game.apply(0, Bid(21)) == [BidMade(0, 21), WidowTaken(0, (2, 1))]
    assert game.to_move == 0 and game.phase == "discarding"
    assert game.view(1).bids == (21, None, None)


def test_m5_redeal_throws_the_hand_in() -> None:
    dealer = ScriptedDealer([sweep_deal(0)], first=0)
    game = MoonGame(dealer=dealer)
    game.apply(0, Pass())
    game.apply(1, Pass())
    events = game.apply(2, Pass())
    assert events[:3] == [Passed(2), HandThrownIn(0), HandStarted(1, 1, (7, 7, 7), 0)]
    assert [type(e) for e in events[3:]] == [HandDealt] * 3
    assert dealer.shuffles == 2 and game.hand_number == 1 and game.to_move == 1
    hand = game.record()["hands"][0]
    assert hand["actions"] == [{"seat": s, "type": "pass"} for s in (0, 1, 2)]
    assert hand["scores"] == [0, 0, 0]


def test_m5_force_last_makes_the_last_speaker_bid() -> None:
    game = MoonGame(MoonOptions(all_pass="force_last"), ScriptedDealer([sweep_deal(0)], first=1))
    game.apply(1, Pass())
    game.apply(2, Pass())
    assert game.legal_actions(0) == [Bid(4), Bid(5), Bid(6), Bid(7), Bid(21)]
    assert_refused(
        game,
        0,
        Pass(),
        "illegal_action",
        r"^both others passed: the last to speak must bid 4, 5, 6, 7 or 21 \(force_last\)$",
    )
    assert game.apply(0, Bid(4)) == [BidMade(0, 4), WidowTaken(0, (2, 1))]


def test_m5_force_last_lets_the_last_speaker_pass_over_a_bid() -> None:
    game = MoonGame(MoonOptions(all_pass="force_last"), ScriptedDealer(first=1))
    game.apply(1, Bid(4))
    game.apply(2, Pass())
    assert Pass() in game.legal_actions(0)
    assert of(game.apply(0, Pass()), WidowTaken)[0].seat == 1


# -- M6, M7 ------------------------------------------------------------------------------------------


def test_m6_bidder_takes_the_widow_and_may_discard_it_unseen_by_others() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    events = auction(game, 0, 4)
    assert events[-1] == WidowTaken(0, (2, 1))
    assert events[-1].seen_by(1) == WidowTaken(0, None)
    assert events[-1].seen_by(None) == WidowTaken(0, None)
    assert (2, 1) in game.view(0).hand and len(game.view(0).hand) == 8
    assert game.view(1).tile_counts == (8, 7, 7)
    assert {a.tile for a in game.legal_actions(0) if isinstance(a, Discard)} == set(game.view(0).hand)
    (discarded,) = game.apply(0, Discard((2, 1)))
    assert discarded == Discarded(0, (2, 1))
    assert discarded.seen_by(2) == Discarded(0, None)
    assert game.view(0).discard == (2, 1)
    assert game.view(1).discard is None and game.view(None).discard is None
    assert game.phase == "naming_trump" and game.view(2).tile_counts == (7, 7, 7)


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5, 6, "doubles", "none"])
def test_m7_every_trump_can_be_named(trump: TrumpName) -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    auction(game, 0, 4)
    game.apply(0, Discard((2, 1)))
    assert NameTrump(trump) in game.legal_actions(0) and len(game.legal_actions(0)) == 9
    assert game.apply(0, NameTrump(trump)) == [TrumpNamed(0, trump)]
    assert game.view(1).trump == trump and game.phase == "playing" and game.to_move == 0


def test_m7_a_trump_that_is_not_one_is_refused() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    auction(game, 0, 4)
    game.apply(0, Discard((2, 1)))
    for bad in (7, "all", None, True):
        assert_refused(
            game, 0, NameTrump(bad), "illegal_action", f"^name a trump: 0-6, doubles or none, not {bad!r}$"
        )  # type: ignore[arg-type]


# -- M9-M11 ------------------------------------------------------------------------------------------


def test_m9_example_2_at_the_table_must_follow_suit() -> None:
    deal = D("42 66 55 33 22 11 00 | 54 64 31 21 32 51 52 | 44 41 43 65 63 62 61 | 53")
    game = MoonGame(dealer=ScriptedDealer([deal], first=0))
    auction(game, 0, 4)
    game.apply(0, Discard((5, 3)))
    game.apply(0, NameTrump(6))
    assert game.legal_actions(0) == [Play(t) for t in sorted(T("42 66 55 33 22 11 00"))]
    game.apply(0, Play((4, 2)))
    assert game.legal_actions(1) == [Play((5, 4))]
    assert_refused(game, 1, Play((6, 4)), "illegal_action", r"^you must follow 4s: you hold \[5-4\]$")
    assert_refused(game, 1, Play((4, 4)), "illegal_action", r"you do not hold \[4-4\]")
    assert_refused(game, 1, Play((9, 9)), "illegal_action", "not a tile")
    assert game.apply(1, Play((4, 5))) == [TilePlayed(1, (5, 4))]  # either order names the tile
    assert game.view(0).trick == ((0, (4, 2)), (1, (5, 4)))
    assert game.legal_actions(2) == [Play(t) for t in sorted(T("41 43 44"))]
    events = game.apply(2, Play((4, 1)))
    assert events[-1] == TrickWon(seat=1, tiles=((4, 2), (5, 4), (4, 1)), leader=0, tricks=(0, 1, 0))
    assert game.to_move == 1 and game.view(2).leader == 1 and game.view(2).trick == ()
    assert game.view(None).played == (((0, (4, 2)), (1, (5, 4)), (2, (4, 1))),)


def test_m11_all_seven_tricks_are_played_even_when_the_bid_is_decided() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    events = sweep(game, 0, 4)
    won = of(events, TrickWon)
    assert len(won) == 7 and [w.seat for w in won] == [0] * 7
    assert won[-1].tricks == (7, 0, 0)
    assert of(events, HandScored)[0].points == (4, 0, 0)  # M12: nothing extra for overtricks


def test_event_order_of_a_whole_hand() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    kinds = [e.type for e in sweep(game, 0, 4)]  # type: ignore[attr-defined]
    assert kinds[:6] == ["bid_made", "passed", "passed", "widow_taken", "discarded", "trump_named"]
    assert kinds[6:10] == ["tile_played"] * 3 + ["trick_won"]
    assert kinds[-6:] == [
        "trick_won",
        "hand_scored",
        "hand_started",
        "hand_dealt",
        "hand_dealt",
        "hand_dealt",
    ]
    assert kinds.count("tile_played") == 21


# -- M13 and game over -------------------------------------------------------------------------------


def test_m13_a_lone_top_score_at_the_target_wins_and_the_game_is_over() -> None:
    game = MoonGame(MoonOptions(target=4), ScriptedDealer([sweep_deal(0)], first=0))
    events = sweep(game, 0, 4)
    assert events[-2:] == [HandScored(0, 4, (7, 0, 0), (4, 0, 0), (4, 0, 0)), GameOver(0, (4, 0, 0))]
    assert game.is_over and game.winner == 0 and game.scores == (4, 0, 0)
    assert all(game.legal_actions(s) == [] for s in range(3))
    assert game.view(1).winner == 0 and game.view(1).to_move is None
    assert_refused(game, 0, Play((6, 6)), "game_over", "over")
    assert_refused(game, 1, Pass(), "game_over")


def test_m13_target_option_and_a_tie_at_the_target_plays_on() -> None:
    deal, plays = FOUR_THREE_ZERO
    game = MoonGame(MoonOptions(target=3), ScriptedDealer([deal], first=0))
    auction(game, 0, 4)
    game.apply(0, Discard((6, 5)))
    game.apply(0, NameTrump("none"))
    events = play_script(game, plays)
    assert game.scores == (4, 3, 0) and game.winner == 0 and events[-1] == GameOver(0, (4, 3, 0))


# -- illegal actions leave everything as it was ------------------------------------------------------


def test_illegal_actions_in_every_phase_change_nothing() -> None:
    game = MoonGame(dealer=ScriptedDealer([sweep_deal(0)], first=0))
    assert_refused(game, 1, Pass(), "not_your_turn", r"^it is seat 0's turn to bid, not yours \(seat 1\)$")
    assert_refused(game, 7, Pass(), "not_your_turn")
    assert_refused(
        game, 0, Play((6, 6)), "illegal_action", "^the bidding is not over: bid 4, 5, 6, 7, 21 or pass$"
    )
    assert_refused(game, 0, Discard((6, 6)), "illegal_action", "bidding is not over")
    assert_refused(game, 0, Bid(3), "illegal_action", "4, 5, 6, 7 or 21")
    assert_refused(game, 0, Bid(True), "illegal_action")
    assert_refused(game, 0, "pass", "illegal_action")
    auction(game, 0, 4)
    assert_refused(game, 0, Bid(5), "illegal_action", "^you won the bid at 4: discard one of your 8 tiles$")
    assert_refused(game, 0, NameTrump(6), "illegal_action", "discard")
    assert_refused(game, 0, Discard((6, 5)), "illegal_action", r"you do not hold \[6-5\]")
    assert_refused(
        game, 1, Discard((6, 5)), "not_your_turn", r"^it is seat 0's turn to discard, not yours \(seat 1\)$"
    )
    game.apply(0, Discard((2, 1)))
    assert_refused(game, 0, Discard((6, 6)), "illegal_action", "^name a trump: 0-6, doubles or none$")
    assert_refused(game, 0, Play((6, 6)), "illegal_action", "^name a trump: 0-6, doubles or none$")
    game.apply(0, NameTrump("doubles"))
    assert_refused(
        game,
        0,
        NameTrump(6),
        "illegal_action",
        r"^the trump is named: play a tile \(\[6-6\], \[5-5\], \[4-4\], \[3-3\], \[2-2\], \[1-1\], \[0-0\]\)",
    )
    assert_refused(game, 0, Play((2, 1)), "illegal_action", "do not hold")
    assert_refused(
        game, 2, Play((6, 5)), "not_your_turn", r"^it is seat 0's turn to play, not yours \(seat 2\)$"
    )
    game.apply(0, Play((6, 6)))
    assert_refused(game, 1, Play((6, 6)), "illegal_action", "do not hold")
    assert_refused(game, 1, Play((6, 6, 6)), "illegal_action", "not a tile")  # type: ignore[arg-type]
