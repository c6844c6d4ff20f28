"""Straight engine: S1-S14 details, options, illegal actions, events, views, records, the bot."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from straight_script import (
    THREE_DOMINO,
    TWO_DOMINO,
    ScriptedDealer,
    rejected,
    run,
    start,
    tiles,
)

from boneyard.server.games.base import RandomDealer
from boneyard.server.games.straight import (
    Blocked,
    Domino,
    Draw,
    GameOver,
    HandDealt,
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
from boneyard.server.games.tiles import Tile

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
    assert StraightOptions(players=2).teams is False and StraightOptions(players=2).partnerships is None
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
    rejected(
        game,
        0,
        Play((4, 3), "left"),
        "illegal_action",
        "[4-3] fits no open end (left 2, right 6, up 2, down 2)",
    )


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
    rejected(game, 0, Play((2, 1)), "not_your_turn", "it is seat 1's turn, not yours (seat 0)")
    rejected(game, 7, Play((2, 1)), "not_your_turn")
    rejected(game, 1, Play((2, 1)), "illegal_action", "you do not hold [2-1]")
    rejected(game, 1, Play((6, 2), "left"), "illegal_action", "is the opening tile: it takes no end")
    rejected(game, 1, Draw(), "illegal_action", "you lead: play any of your tiles, you may not draw")
    rejected(game, 1, Pass(), "illegal_action", "you lead: play any of your tiles, you may not pass")
    rejected(game, 1, "play", "illegal_action", "not a Straight action")
    rejected(game, 1, Play((9, 9)), "illegal_action")
    run(game, "62")
    rejected(game, 0, Play((5, 3), "left"), "illegal_action", "[5-3] fits no open end (left 6, right 2)")
    rejected(game, 0, Play((6, 0)), "illegal_action", "name the end for [6-0]: left")
    rejected(
        game,
        0,
        Play((2, 1), "left"),
        "illegal_action",
        "[2-1] does not fit the left end (6): play it on the right",
    )
    rejected(
        game,
        0,
        Play((6, 0), "up"),
        "illegal_action",
        "there is no up end: no double (spinner) has been played yet",
    )
    rejected(game, 0, Play((6, 0), "middle"), "illegal_action")  # type: ignore[arg-type]
    run(game, "60L 22R")
    rejected(
        game,
        0,
        Play((2, 1), "up"),
        "illegal_action",
        "the up end opens only once both in-line sides of the spinner",
    )
    rejected(
        game,
        0,
        Draw(),
        "illegal_action",
        "you may not draw while you hold a tile that fits: play [1-0], [2-1] or [3-2]",
    )
    rejected(
        game,
        0,
        Pass(),
        "illegal_action",
        "you may not pass while you hold a tile that fits: play [1-0], [2-1] or [3-2]",
    )
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
