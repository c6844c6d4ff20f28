"""Scripted Straight deals (found by random play, awards checked by hand) and play helpers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from boneyard.server.games.base import Event, IllegalAction
from boneyard.server.games.straight import (
    Draw,
    Pass,
    Play,
    StraightGame,
    StraightOptions,
)
from boneyard.server.games.tiles import Tile, normalize

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
    """``action`` is refused with ``code``, a message containing ``message``, and changes nothing."""
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
