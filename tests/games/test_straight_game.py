"""Straight engine at game level: docs/RULES.md examples 18-23 played out, the awards, S13 game end."""

from __future__ import annotations

from straight_script import (
    FOUR_TIE_EQUAL,
    FOUR_TIE_UNEQUAL,
    TEAM_BLOCKED,
    TEAM_BLOCKED_TIE,
    TEAM_DOMINO,
    THREE_DOMINO,
    THREE_SHARE,
    TWO_BLOCKED,
    TWO_BLOCKED_TIE,
    TWO_DOMINO,
    TWO_DOMINO_SCORING,
    of_type,
    play_out,
    rejected,
    start,
)

from boneyard.server.games.straight import (
    Blocked,
    Domino,
    Draw,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    Passed,
    Play,
    TileDrawn,
    TilePlayed,
)
from boneyard.server.games.straight.scoring import award, game_winner, round5

# ----- worked examples 18-23 ---------------------------------------------------------------------


def test_example_18_domino_two_players() -> None:
    assert award((0, 3), teams=False, domino=0).points == (5, 0)  # opponent holds [2-1]
    assert award((0, 2), teams=False, domino=0).points == (0, 0)  # opponent holds [1-1]


def test_example_19_domino_three_players_rounded_once() -> None:
    assert award((0, 7, 6), teams=False, domino=0).points == (15, 0, 0)
    assert round5(7) + round5(6) == 10  # what rounding per hand would give


def test_example_20_partnership_domino_ignores_the_partner() -> None:
    # A (seat 0) dominoes; partner (seat 2) holds 9; opponents 6 and 12.
    result = award((0, 6, 9, 12), teams=True, domino=0)
    assert result.points == (20, 0)
    assert result.winner == 0


def test_example_21_blocked_two_players() -> None:
    result = award((8, 14), teams=False, domino=None)
    assert result.points == (15, 0) and result.winner == 0
    tie = award((10, 10), teams=False, domino=None)
    assert tie.points == (0, 0) and tie.winner is None and tie.winners == ()


def test_example_22_blocked_teams() -> None:
    result = award((10, 6, 4, 9), teams=True, domino=None)  # team 0: 10+4 = 14, team 1: 6+9 = 15
    assert result.points == (15, 0) and result.winner == 0


def test_example_23_blocked_three_players_share() -> None:
    result = award((5, 5, 23), teams=False, domino=None)
    assert result.points == (10, 10, 0)
    assert result.winners == (0, 1) and result.winner is None


# ----- the same at game level, scripted ---------------------------------------------------------


def test_game_two_players_domino_with_draws() -> None:
    game, dealer, events = play_out(TWO_DOMINO)
    drawn = of_type(events, TileDrawn)
    assert [d.tile for d in drawn] == [(4, 3), (6, 5)] and [d.boneyard for d in drawn] == [13, 12]
    assert of_type(events, Domino) == [Domino(1)]
    (scored,) = of_type(events, HandScored)
    # Seat 0 is left with [4-1] [4-4] [5-3] = 21 pips: round5(21) = 20 to seat 1.
    assert scored.hands[0] == ((4, 1), (4, 4), (5, 3)) and scored.pips == (21, 0)
    assert scored.points == (0, 20) and scored.winner == 1
    assert scored.scores == (5, 20) == game.scores
    # S3: the domino player leads the next hand, without asking the dealer.
    assert game.hand_number == 1 and game.leader == 1 and game.to_move == 1
    assert dealer.picked == 1 and dealer.shuffles == 2
    assert [type(e) for e in events[-3:]] == [HandStarted, HandDealt, HandDealt]


def test_game_two_players_blocked() -> None:
    game, dealer, events = play_out(TWO_BLOCKED)
    assert [type(e) for e in events[-6:-3]] == [Passed, Blocked, HandScored]
    (scored,) = of_type(events, HandScored)
    assert scored.pips == (44, 70) and scored.points == (70, 0) and scored.winner == 0
    assert game.scores == (80, 5)
    # S3: after a block, chance picks the next leader.
    assert dealer.picked == 2 and game.hand_number == 1


def test_game_two_players_blocked_tie_nobody_scores() -> None:
    game, _, events = play_out(TWO_BLOCKED_TIE)
    (scored,) = of_type(events, HandScored)
    assert scored.pips == (37, 37) and scored.points == (0, 0) and scored.winner is None
    assert game.scores == (5, 10)


def test_game_partnership_domino() -> None:
    game, _, events = play_out(TEAM_DOMINO)
    assert of_type(events, Domino) == [Domino(2)]
    (scored,) = of_type(events, HandScored)
    # Opponents (seats 1, 3) hold 2 + 9 = 11 -> 10; the partner's 8 pips are ignored.
    assert scored.pips == (8, 2, 0, 9) and scored.points == (10, 0) and scored.winner == 0
    assert game.scores == (15, 15) and len(game.scores) == 2


def test_game_partnership_blocked() -> None:
    _, _, events = play_out(TEAM_BLOCKED)
    (scored,) = of_type(events, HandScored)
    # Team 0: 26 + 40 = 66, team 1: 17 + 13 = 30: team 1 scores round5(66) = 65.
    assert scored.pips == (26, 17, 40, 13) and scored.points == (0, 65) and scored.winner == 1


def test_game_partnership_blocked_tie() -> None:
    _, _, events = play_out(TEAM_BLOCKED_TIE)
    (scored,) = of_type(events, HandScored)
    assert scored.pips == (18, 14, 21, 25) and scored.points == (0, 0) and scored.winner is None


def test_game_three_players_domino_after_a_player_drew_the_boneyard_dry_and_passed() -> None:
    game, _, events = play_out(THREE_DOMINO)
    assert len(of_type(events, TileDrawn)) == 7 and of_type(events, Passed) == [Passed(0)]
    (scored,) = of_type(events, HandScored)
    assert scored.pips == (50, 9, 0) and scored.points == (0, 0, 60)  # round5(50 + 9) once
    assert game.scores == (15, 25, 85)


def test_game_three_players_blocked_share() -> None:
    game, _, events = play_out(THREE_SHARE)
    (scored,) = of_type(events, HandScored)
    # round5(56) = 55 shared by two: 27 each, rounded down to 25.
    assert scored.pips == (56, 19, 19) and scored.points == (0, 25, 25)
    assert scored.winners == (1, 2) and scored.winner is None
    assert game.scores == (5, 25, 25)


# ----- S13 game end ------------------------------------------------------------------------------


def test_s13_target_reached_mid_hand_stops_at_once() -> None:
    game, _ = start((["55 00 11 22 33 44 66", "10 20 30 40 50 60 21"], "", 0, ""), target=10)
    events = game.apply(0, Play((5, 5)))
    assert [type(e) for e in events] == [TilePlayed, GameOver]
    assert events[1] == GameOver(0, (10, 0))
    assert game.is_over and game.winner == 0 and game.to_move is None and game.legal_actions(1) == []
    record = game.record()
    assert record["final_scores"] == [10, 0] and record["winner"] == 0
    assert record["hands"][-1]["actions"] == [{"seat": 0, "type": "play", "tile": [5, 5], "end": None}]
    assert record["hands"][-1]["scores"] == [10, 0]
    rejected(game, 1, Play((1, 0), "left"), "game_over")
    rejected(game, 0, Draw(), "game_over")


def test_s13_a_domino_play_that_reaches_the_target_ends_the_game_before_the_award() -> None:
    game, _, events = play_out(TWO_DOMINO_SCORING, target=10)
    assert [type(e) for e in events[-2:]] == [TilePlayed, GameOver]
    assert not of_type(events, Domino) and not of_type(events, HandScored)
    assert game.scores == (10, 5) and game.winner == 0
    assert game.record()["hands"][-1]["actions"][-1]["tile"] == [6, 1]
    # Without the low target the same hand goes on to the domino award.
    game, _, events = play_out(TWO_DOMINO_SCORING)
    assert of_type(events, TilePlayed)[-1].scores == (10, 5)
    assert of_type(events, HandScored)[0].points == (5, 0) and game.scores == (15, 5)


def test_s13_award_taking_two_past_the_target_equally_plays_another_hand() -> None:
    game, _, events = play_out(FOUR_TIE_EQUAL, partnerships=False, target=25)
    assert game.scores == (0, 25, 10, 25)
    assert not game.is_over and game.hand_number == 1 and not of_type(events, GameOver)


def test_s13_award_taking_several_past_the_target_highest_wins() -> None:
    game, _, events = play_out(FOUR_TIE_UNEQUAL, partnerships=False, target=25)
    assert game.scores == (25, 0, 30, 0)
    assert events[-1] == GameOver(2, (25, 0, 30, 0)) and game.winner == 2


def test_s13_game_winner_rule() -> None:
    assert game_winner((249, 0), 250) is None
    assert game_winner((250, 0), 250) == 0
    assert game_winner((260, 255, 0), 250) == 0
    assert game_winner((255, 255, 0), 250) is None
