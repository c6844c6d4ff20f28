"""Scripted Texas 42 deals and play helpers shared by the 42 tests."""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.games.base import Event, RandomDealer
from boneyard.server.games.texas42 import Action, Bid, NameTrump, Pass, Play, Texas42Game, TexasOptions
from boneyard.server.games.tiles import ALL_TILES, Tile


def T(text: str) -> list[Tile]:
    """Tiles written ``"64 31"``."""
    return [(int(w[0]), int(w[-1])) for w in text.split()]


def D(text: str) -> list[Tile]:
    """A deal written ``"seat 0 | seat 1 | seat 2 | seat 3"``, in the dealer's order."""
    order = [t for part in text.split("|") for t in T(part)]
    assert sorted(order) == sorted(ALL_TILES), "a 42 deal is the whole set"
    return order


class ScriptedDealer:
    """Deals the given orders in turn (then seeded random ones); ``pick`` answers ``first``."""

    def __init__(self, deals: Sequence[list[Tile]] = (), first: int = 0) -> None:
        self.deals = [list(d) for d in deals]
        self.first = first
        self.shuffles = 0

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        assert sorted(tiles) == sorted(ALL_TILES)
        self.shuffles += 1
        return self.deals.pop(0) if self.deals else RandomDealer(self.shuffles).shuffled(tiles)

    def pick(self, n: int) -> int:
        assert n == 4
        return self.first


def game_of(deal: str, first: int, options: TexasOptions | None = None) -> Texas42Game:
    return Texas42Game(options or TexasOptions(), ScriptedDealer([D(deal)], first))


def act(game: Texas42Game, *moves: tuple[int, Action]) -> list[Event]:
    """Apply ``(seat, action)`` pairs in order; the events of the last one."""
    events: list[Event] = []
    for seat, action in moves:
        events = game.apply(seat, action)
    return events


def auction(game: Texas42Game, bidder: int, bid: int, trump: object) -> None:
    """From ``game.to_move``, everyone passes but ``bidder``, who bids ``bid`` and names ``trump``."""
    first = game.to_move
    assert first is not None
    for k in range(4):
        seat = (first + k) % 4
        game.apply(seat, Bid(bid) if seat == bidder else Pass())
    game.apply(bidder, NameTrump(trump))  # type: ignore[arg-type]


def trick(game: Texas42Game, *tiles: str) -> list[Event]:
    """Play one trick from the seat to move, one tile written ``"64"`` per seat in turn."""
    events: list[Event] = []
    for text in tiles:
        seat = game.to_move
        assert seat is not None
        events = game.apply(seat, Play(T(text)[0]))
    return events
