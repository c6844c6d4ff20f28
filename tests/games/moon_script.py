"""Scripted Moon deals and play helpers shared by the Moon game tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from boneyard.server.games.base import Event, IllegalAction, RandomDealer
from boneyard.server.games.moon import (
    Action,
    Bid,
    Discard,
    MoonGame,
    NameTrump,
    Pass,
    Play,
)
from boneyard.server.games.moon.rules import MOON_TILES
from boneyard.server.games.tiles import Tile


def T(text: str) -> list[Tile]:
    """Tiles written ``"64 31"``."""
    return [(int(w[0]), int(w[-1])) for w in text.split()]


def D(text: str) -> list[Tile]:
    """A deal written ``"seat 0 | seat 1 | seat 2 | widow"``, in the dealer's order."""
    return [t for part in text.split("|") for t in T(part)]


class ScriptedDealer:
    """Deals the given orders in turn (then seeded random ones); ``pick`` answers ``first``."""

    def __init__(self, deals: Sequence[list[Tile]] = (), first: int = 0) -> None:
        self.deals = [list(d) for d in deals]
        self.first = first
        self.shuffles = 0
        self.picks: list[int] = []

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        assert sorted(tiles) == sorted(MOON_TILES)
        self.shuffles += 1
        return self.deals.pop(0) if self.deals else RandomDealer(self.shuffles).shuffled(tiles)

    def pick(self, n: int) -> int:
        self.picks.append(n)
        return self.first


DOUBLES = "66 55 44 33 22 11 00"
NON_DOUBLES = T("65 64 63 62 61 54 53 52 51 43 42 41 32 31 21")


def sweep_deal(bidder: int) -> list[Tile]:
    """``bidder`` holds all seven doubles (and takes every trick with doubles trump)."""
    hands = [NON_DOUBLES[0:7], NON_DOUBLES[7:14]]
    hands.insert(bidder, T(DOUBLES))
    return [t for h in hands for t in h] + [NON_DOUBLES[14]]


def six_one_deal(bidder: int, other: int) -> list[Tile]:
    """``bidder`` takes six tricks with doubles; ``other`` spends [0-0] on one, wins the last with [6-2]."""
    hands: list[list[Tile]] = [[], [], []]
    hands[bidder] = T("66 55 44 33 22 11 21")
    hands[other] = T("00 62 31 32 41 42 43")
    hands[3 - bidder - other] = T("65 64 63 61 51 52 53")
    return [t for h in hands for t in h] + T("54")


def auction(game: MoonGame, bidder: int, bid: int) -> list[Event]:
    """Everyone passes except ``bidder``, who bids ``bid``."""
    out: list[Event] = []
    while game.phase == "bidding":
        seat = game.to_move
        assert seat is not None
        out += game.apply(seat, Bid(bid) if seat == bidder else Pass())
    return out


def doubles_hand(game: MoonGame, bidder: int, bid: int, leads: str, discard: Tile) -> list[Event]:
    """Bid, discard, name doubles, lead ``leads`` in order; the others play their first legal tile."""
    out = auction(game, bidder, bid)
    out += game.apply(bidder, Discard(discard))
    out += game.apply(bidder, NameTrump("doubles"))
    tiles = T(leads)
    hand = game.hand_number
    while game.hand_number == hand and not game.is_over:
        seat = game.to_move
        assert seat is not None
        action: Action = Play(tiles.pop(0)) if seat == bidder else game.legal_actions(seat)[0]
        out += game.apply(seat, action)
    return out


def sweep(game: MoonGame, bidder: int, bid: int) -> list[Event]:
    return doubles_hand(game, bidder, bid, DOUBLES, (2, 1))


def six_one(game: MoonGame, bidder: int, bid: int) -> list[Event]:
    return doubles_hand(game, bidder, bid, DOUBLES.replace("00", "21"), (5, 4))


def play_script(game: MoonGame, plays: str) -> list[Event]:
    out: list[Event] = []
    for tile in T(plays):
        seat = game.to_move
        assert seat is not None
        out += game.apply(seat, Play(tile))
    return out


def of(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def snapshot(game: MoonGame) -> Any:
    return (game.record(), [game.view(v) for v in (0, 1, 2, None)], game.to_move, game.phase, game.scores)


def assert_refused(game: MoonGame, seat: int, action: Any, code: str, match: str | None = None) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=match) as info:
        game.apply(seat, action)
    assert info.value.code == code
    assert str(info.value)
    assert snapshot(game) == before


# Found by a search with MoonState, frozen here. First bidder 0 bids, the others pass, the widow is discarded.
FOUR_THREE_ZERO = (  # bid 4, no trump: tricks 4 / 3 / 0
    D("55 43 11 41 00 64 63 | 21 52 32 51 54 53 22 | 62 61 42 66 33 44 31 | 65"),
    "00 21 62 11 51 31 55 53 33 41 54 42 22 61 43 52 66 64 32 44 63",
)
FOUR_TWO_ONE = (  # bid 5, trump 3: tricks 4 / 2 / 1
    D("44 65 63 33 00 64 51 | 21 22 43 32 41 31 62 | 54 66 55 61 42 11 53 | 52"),
    "00 22 61 51 43 55 32 53 63 65 62 66 54 33 21 64 41 11 44 31 42",
)
