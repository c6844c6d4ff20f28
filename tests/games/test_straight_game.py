"""Straight engine: S1-S14 at game level, examples 18-23, illegal actions, events, views, records, the bot."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from server.games.base import Event, IllegalAction, RandomDealer
from server.games.straight import (
    Blocked,
    Domino,
    Draw,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    Pass,
    Passed,
    Play,
    StraightGame,
    StraightOptions,
    TileDrawn,
    TilePlayed,
    action_from_record,
    choose,
)
from server.games.straight.scoring import award, game_winner, round5
from server.games.tiles import Tile, normalize

# ----- helpers -----------------------------------------------------------------------------------

ENDS = {"L": "left", "R": "right", "U": "up", "D": "down"}


def tile(word: str) -> Tile:
    return normalize((int(word[0]), int(word[1])))


def tiles(words: str) -> list[Tile]:
    return [tile(w) for w in words.split()]


def act(word: str) -> Play | Draw | Pass:
    """``"64"`` opens [6-4]; ``"41R"`` plays [4-1] right; ``"d"`` draws; ``"p"`` passes."""
    if word == "d":
        return Draw()
    if word == "p":
        return Pass()
    return Play(tile(word), ENDS[word[2]] if len(word) > 2 else None)


class ScriptedDealer:
    """Deals the given hands (each: one tile string per seat, then the boneyard) and picks the given leaders.

    Tiles not named go, in id order, first to seats holding fewer than 7, then to the end of the boneyard.
    """

    def __init__(self, deals: Sequence[tuple[Sequence[str], str]], picks: Sequence[int]) -> None:
        self.deals = list(deals)
        self.picks = list(picks)
        self.shuffles = 0
        self.picked = 0

    def shuffled(self, all_tiles: Sequence[Tile]) -> list[Tile]:
        if self.shuffles < len(self.deals):
            hands, bone = self.deals[self.shuffles]
            named = [t for hand in hands for t in tiles(hand)] + tiles(bone)
            rest = [t for t in all_tiles if t not in named]
            order = []
            for hand in hands:
                seat_tiles = tiles(hand)
                while len(seat_tiles) < 7:
                    seat_tiles.append(rest.pop(0))
                order += seat_tiles
            order += tiles(bone) + rest
        else:  # later hands: any deal will do
            order = list(reversed(all_tiles))
        self.shuffles += 1
        assert sorted(order) == sorted(all_tiles)
        return order

    def pick(self, n: int) -> int:
        self.picked += 1
        return self.picks[self.picked - 1] if self.picked <= len(self.picks) else 0


def run(game: StraightGame, script: str) -> list[Event]:
    events: list[Event] = []
    for word in script.split():
        seat = game.to_move
        assert seat is not None, word
        events += game.apply(seat, act(word))
    return events


def snapshot(game: StraightGame) -> Any:
    views = [game.view(v).as_dict() for v in [*range(game.players), None]]
    return json.dumps(
        [views, game.record(), [a.as_dict() for a in game.legal_actions(game.to_move or 0)], game.scores]
    )


def rejected(game: StraightGame, seat: int, action: object, code: str, message: str = "") -> None:
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)  # type: ignore[arg-type]
    assert info.value.code == code
    assert message in str(info.value)
    assert snapshot(game) == before


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# Hands found by random play, their awards checked by hand: (hands per seat, boneyard, leader, script).
TWO_DOMINO = (
    ["21 53 44 60 32 10 41", "22 62 50 54 61 31 30"],
    "43 65 55 20 42 33 51 11 66 40 52 00 63 64",
    1,
    "62 60L 22R 21R 30L 32L 61R d d 65R 54R 43R 31R 10R 50R",
)
TWO_BLOCKED = (
    ["44 60 41 32 21 20 55", "66 42 33 62 54 52 53"],
    "51 30 65 64 40 63 22 31 50 11 43 61 10 00",
    0,
    "20 42L 60R 62R 41L 52R 21L 53R 32R d d d d d d d 22R d d d d d d d p p",
)
TWO_BLOCKED_TIE = (
    ["54 51 22 62 65 63 10", "33 40 21 50 00 43 31"],
    "61 32 55 30 66 42 53 41 20 60 11 64 52 44",
    0,
    "54 43R 51L 21L 62L 33R 65L 50L 63R 31U 10L d 61R d 32D d d d d 42D d d 41D d d d 11D d d d p p",
)
TEAM_DOMINO = (
    ["20 44 40 52 22 00 31", "60 54 53 62 64 21 11", "61 30 41 55 33 65 50", "51 32 10 43 63 42 66"],
    "",
    2,
    "65 66L 52R 60L 61U 51U 20R 64D 41D 10R 31D 53U 30D 32U 40D 21R 50L 42U 22R 54U 55L 43D p 62R 33D",
)
TEAM_BLOCKED = (
    ["41 51 55 63 50 11 64", "22 42 40 32 20 00 52", "33 62 31 66 43 61 44", "54 30 10 60 65 21 53"],
    "",
    3,
    "54 51L 40R 31L 53L 50R 52R 62R 65R 55R p p p p",
)
TEAM_BLOCKED_TIE = (
    ["63 62 60 33 41 40 30", "20 50 64 51 31 52 00", "11 53 61 10 43 55 22", "44 65 32 21 42 66 54"],
    "",
    1,
    "51 61R 66R 60R 64D 10R 42D 62D 31R 55L 65L 63R p p p p",
)
THREE_DOMINO = (
    ["52 20 00 66 50 61 33", "21 42 10 54 63 43 22", "41 32 65 64 40 11 44"],
    "60 53 62 55 30 31 51",
    2,
    "44 d d d d d d d p 54R 64L 51R 42D 11R 61L 21D 40U 30U 10R 32U 60R 22U 41L 66R 43L 65R",
)
THREE_SHARE = (
    ["61 53 22 20 30 40 64", "43 10 66 51 00 63 31", "11 65 44 54 32 60 41"],
    "52 50 21 33 42 62 55",
    0,
    "61 31R 65L 53L 63R 60R 30R 43R 41R d d d 21R d 33L 32R d d d p p p",
)
FOUR_TIE_EQUAL = (
    ["30 54 55 60 41 61 40", "64 53 11 20 44 21 32", "51 63 66 50 00 43 10", "42 52 33 62 31 65 22"],
    "",
    2,
    "10 31L 40R 64R 43L 62R 41L 21R 51L 65L 61L 11R p p p p",
)
FOUR_TIE_UNEQUAL = (
    ["31 54 40 21 22 30 60", "51 42 41 33 55 61 53", "32 63 00 62 50 65 10", "20 64 66 11 43 44 52"],
    "",
    1,
    "53 63R 64R 54L 42R 32R 43L 31R 61R 62R 20R 30R 33L p p p p",
)
TWO_DOMINO_SCORING = (
    ["21 20 63 61 54 44 64", "10 32 55 60 43 51 65"],
    "31 42 11 53 41 66 00 62 33 40 30 52 22 50",
    0,
    "54 55L 44R 65L 64L 51U 21U 43R 20U 10U 63R 60R 61U",
)

Scenario = tuple[list[str], str, int, str]


def start(scenario: Scenario, **options: Any) -> tuple[StraightGame, ScriptedDealer]:
    hands, bone, leader, _ = scenario
    dealer = ScriptedDealer([(hands, bone)], [leader])
    return StraightGame(StraightOptions(players=len(hands), **options), dealer), dealer


def play_out(scenario: Scenario, **options: Any) -> tuple[StraightGame, ScriptedDealer, list[Event]]:
    game, dealer = start(scenario, **options)
    return game, dealer, run(game, scenario[3])


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


# ----- S1, S2, options ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bone"), [(2, 14), (3, 7), (4, 0)])
def test_s1_s2_deal_sizes(players: int, bone: int) -> None:
    game = StraightGame(StraightOptions(players=players), RandomDealer(players))
    assert game.tile_counts == (7,) * players and game.boneyard_count == bone
    held = [t for s in range(players) for t in game.hand_of(s)]
    assert len(set(held)) == 7 * players
    started, *dealt = game.opening_events()
    assert started == HandStarted(0, game.leader, (7,) * players, bone)
    assert [[list(t) for t in d.tiles] for d in dealt] == game.record()["hands"][0]["deal"]


def test_options() -> None:
    assert StraightOptions().as_dict() == {"players": 4, "partnerships": True, "target": 250}
    assert StraightOptions(players=4, partnerships=False).as_dict()["partnerships"] is False
    assert StraightOptions(players=2).partnerships is False
    for bad in ({"players": 1}, {"players": 5}, {"players": 3, "partnerships": True}, {"target": 0}):
        with pytest.raises(ValueError):
            StraightOptions(**bad)
    individual = StraightGame(StraightOptions(players=4, partnerships=False), RandomDealer(1))
    assert individual.scores == (0,) * 4 and not individual.partnerships
    assert StraightGame(dealer=RandomDealer(1)).scores == (0, 0)
    assert StraightGame(dealer=RandomDealer(1)).target == 250


def test_a_dealer_that_does_not_deal_the_set_is_refused() -> None:
    class Bad(ScriptedDealer):
        def shuffled(self, all_tiles: Sequence[Tile]) -> list[Tile]:
            return list(all_tiles)[:-1]

    with pytest.raises(ValueError):
        StraightGame(StraightOptions(players=2), Bad([], [0]))


# ----- S4, S8, S9, S14 -------------------------------------------------------------------------


def test_s4_s8_opening_is_any_tile_and_scores_like_any_play() -> None:
    game, _ = start((["64 00 11 22 33 44 66", "10 20 30 40 50 60 21"], "", 0, ""), target=100)
    assert sorted(a.tile for a in game.legal_actions(0)) == sorted(game.hand_of(0))
    assert all(isinstance(a, Play) and a.end is None for a in game.legal_actions(0))
    (played,) = game.apply(0, Play((6, 4)))
    assert played == TilePlayed(0, (6, 4), None, 10, 10, (10, 0))  # S14: scored by the server, no claim


def test_s9_draw_one_at_a_time_then_play_the_drawn_tile() -> None:
    game, _ = start(TWO_DOMINO)
    run(game, "62 60L 22R 21R 30L 32L 61R")
    assert game.legal_actions(0) == [Draw()]
    rejected(game, 0, Pass(), "illegal_action", "the boneyard still holds 14 tiles: you must draw")
    game.apply(0, Draw())
    assert game.to_move == 0 and game.legal_actions(0) == [Draw()]  # [4-3] does not fit
    game.apply(0, Draw())
    # Ends: left 2, right 6, up 2, down 2. [6-5] fits the right end, and only it may be played.
    assert game.view(0).layout.open_ends == (("left", 2), ("right", 6), ("up", 2), ("down", 2))
    assert game.legal_actions(0) == [Play((6, 5), "right")]
    rejected(game, 0, Draw(), "illegal_action", "you drew [6-5], which fits: you must play it")
    rejected(game, 0, Pass(), "illegal_action", "you drew [6-5], which fits: you must play it")
    rejected(game, 0, Play((4, 3), "left"), "illegal_action", "[4-3] does not fit the left end (2)")


def test_s9_pass_only_with_an_empty_boneyard_and_nothing_playable() -> None:
    game, _ = start(THREE_DOMINO)
    run(game, "44 d d d d d d")
    rejected(game, 0, Pass(), "illegal_action", "you must draw")
    run(game, "d")
    assert game.boneyard_count == 0 and game.legal_actions(0) == [Pass()]
    rejected(game, 0, Draw(), "illegal_action", "the boneyard is empty: you must pass")
    assert game.apply(0, Pass()) == [Passed(0)] and game.to_move == 1


# ----- illegal actions --------------------------------------------------------------------------


def test_illegal_actions_raise_and_change_nothing() -> None:
    game, _ = start(TWO_DOMINO)
    rejected(game, 0, Play((2, 1)), "not_your_turn", "it is seat 1's turn")
    rejected(game, 7, Play((2, 1)), "not_your_turn")
    rejected(game, 1, Play((2, 1)), "illegal_action", "you do not hold [2-1]")
    rejected(game, 1, Play((6, 2), "left"), "illegal_action", "is the opening tile: it takes no end")
    rejected(game, 1, Draw(), "illegal_action", "you hold a playable tile: you may not draw")
    rejected(game, 1, Pass(), "illegal_action", "you hold a playable tile: you may not pass")
    rejected(game, 1, "play", "illegal_action", "not a Straight action")
    rejected(game, 1, Play((9, 9)), "illegal_action")
    run(game, "62")
    rejected(game, 0, Play((5, 3), "left"), "illegal_action", "[5-3] does not fit the left end (6)")
    rejected(game, 0, Play((6, 0)), "illegal_action", "name an end: left, right")
    rejected(game, 0, Play((6, 0), "up"), "illegal_action", "no spinner")
    rejected(game, 0, Play((6, 0), "middle"), "illegal_action")  # type: ignore[arg-type]
    run(game, "60L 22R")
    rejected(game, 0, Play((2, 1), "up"), "illegal_action", "not open until both in-line sides")
    rejected(game, 0, Draw(), "illegal_action", "you hold a playable tile: you may not draw")
    # An unnormalised tile is the same tile.
    game.apply(0, Play((1, 2), "right"))
    assert game.to_move == 1


# ----- events and views -------------------------------------------------------------------------


def test_private_events() -> None:
    dealt = HandDealt(1, ((6, 4),))
    assert dealt.seen_by(1) is dealt and dealt.seen_by(0) is None and dealt.seen_by(None) is None
    drawn = TileDrawn(1, (6, 4), 3)
    assert drawn.seen_by(1) is drawn
    assert drawn.seen_by(0) == TileDrawn(1, None, 3) == drawn.seen_by(None)
    assert [e.type for e in (dealt, drawn, Blocked(), Domino(0), GameOver(0, (1,)))] == [
        "hand_dealt",
        "tile_drawn",
        "blocked",
        "domino",
        "game_over",
    ]


def test_views() -> None:
    game, _ = start(TWO_DOMINO)
    run(game, "62 60L 22R")
    me = game.view(0)
    assert me.hand == tuple(sorted(tiles("21 53 44 32 10 41"))) and me.viewer == 0
    assert me.tile_counts == (6, 5) and me.boneyard == 14 and me.count == 0 + 4
    assert me.to_move == 0 and me.legal_actions == tuple(game.legal_actions(0)) and me.leader == 1
    assert me.layout.opening == (6, 2) and me.layout.spinner == (2, 2) and me.layout.spinner_arm == "right"
    assert me.target == 250 and me.players == 2 and not me.partnerships and me.scores == (0, 0)
    other = game.view(1)
    assert other.legal_actions == () and other.hand == tuple(sorted(tiles("50 54 61 31 30")))
    spectator = game.view(None)
    assert spectator.hand == () and spectator.legal_actions == ()
    data = json.loads(json.dumps(me.as_dict()))
    assert data["layout"]["open_ends"] == {"left": 0, "right": 2}
    assert {"type": "play", "tile": [2, 1], "end": "right"} in data["legal_actions"]


# ----- records ----------------------------------------------------------------------------------


def test_record_format_and_auto_flag() -> None:
    game, _ = start(TWO_DOMINO, target=30)
    game.apply(1, Play((6, 2)), auto=True)
    run(game, "60L 22R 21R 30L 32L 61R d d 65R 54R 43R 31R 10R 50R")
    record = json.loads(json.dumps(game.record(["ana", "bo"])))
    assert record["format"] == "boneyard-record/1" and record["game"] == "straight"
    assert record["players"] == 2 and record["seat_names"] == ["ana", "bo"]
    assert record["options"] == {"players": 2, "partnerships": False, "target": 30}
    first = record["hands"][0]
    assert first["deal"][0] == [list(t) for t in tiles("21 53 44 60 32 10 41")]
    assert first["boneyard"][:2] == [[4, 3], [6, 5]] and first["first"] == 1
    assert first["actions"][0] == {"seat": 1, "type": "play", "tile": [6, 2], "end": None, "auto": True}
    assert first["actions"][8] == {"seat": 0, "type": "draw", "tile": [6, 5]}
    assert sum("auto" in a for a in first["actions"]) == 1
    assert first["scores"] == [5, 20] and "final_scores" not in record
    assert [action_from_record(a) for a in first["actions"][:2]] == [Play((6, 2)), Play((6, 0), "left")]
    assert len(record["hands"]) == 2  # the next hand, just dealt


def test_full_games_to_250_with_the_basic_bot() -> None:
    for players, teams in ((2, False), (3, False), (4, True), (4, False)):
        game = StraightGame(StraightOptions(players=players, partnerships=teams), RandomDealer(players))
        rng = random.Random(players)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game.apply(seat, choose(game.view(seat), rng))
        assert game.winner is not None and game.scores[game.winner] >= 250
        assert game.scores.count(max(game.scores)) == 1
        record = game.record()
        assert record["winner"] == game.winner and record["final_scores"] == list(game.scores)


# ----- the bot ------------------------------------------------------------------------------------


def test_bot_plays_the_scoring_tile_then_the_heaviest() -> None:
    game, _ = start((["55 00 11 22 33 44 66", "50 65 54 10 20 30 40"], "", 0, ""))
    game.apply(0, Play((5, 5)))
    # Count after: [5-0] -> 10 (scores), [6-5] -> 16, [5-4] -> 14.
    assert choose(game.view(1), random.Random(0)) in (Play((5, 0), "left"), Play((5, 0), "right"))
    game2, _ = start((["66 00 11 22 33 44 55", "61 62 10 20 30 40 50"], "", 0, ""))
    game2.apply(0, Play((6, 6)))
    # [6-1] -> 13, [6-2] -> 14: nothing scores, so the heavier [6-2].
    assert choose(game2.view(1), random.Random(0)).tile == (6, 2)  # type: ignore[union-attr]


def test_bot_draws_and_passes_when_that_is_all_it_may_do() -> None:
    game, _ = start(THREE_DOMINO)
    run(game, "44")
    assert choose(game.view(0), random.Random(0)) == Draw()
    run(game, "d d d d d d d")
    assert choose(game.view(0), random.Random(0)) == Pass()
    with pytest.raises(ValueError):
        choose(game.view(1), random.Random(0))
