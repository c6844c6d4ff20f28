"""Duel, the test game: a tiny trick game that exists to prove the new-game seam, the rules engine
(``server/games``' part of the recipe in docs/ARCHITECTURE.md, "A new game").

Two players; the ten tiles whose both ends are 1 to 4; five each, every tile dealt. The leader plays a
tile, whose high end is the suit; the other must follow with a tile holding that number when they can.
The follower wins the trick when it followed with a higher tile of the suit (a double is the highest,
else the other end counts), otherwise the leader wins; the winner leads the next trick. A hand is five
tricks, each worth a point; the game ends after a hand when a player has ``target`` points and more
than the other. Chance picks the first hand's leader; after that the leader alternates.

>>> game = DuelGame(DuelOptions(target=1), RandomDealer(3))
>>> while game.to_move is not None:
...     _ = game.apply(game.to_move, choose(game.view(game.to_move), random.Random(1)))
>>> game.is_over, sum(game.scores) % 5, game.record()["winner"] == game.winner
(True, 0, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from duel_options import DuelOptions

from boneyard.server.games.base import Dealer, Event, IllegalAction, Viewer, either
from boneyard.server.games.events import GameOver, HandDealt, HandStarted, TilePlayed
from boneyard.server.games.tiles import Tile, normalize

GAME = "duel"
TILES: tuple[Tile, ...] = tuple((high, low) for high in range(1, 5) for low in range(1, high + 1))
HAND_SIZE = 5
SEATS = 2


@dataclass(frozen=True, slots=True)
class Play:
    """Play a tile to the trick: Duel's only action."""

    tile: Tile

    def as_dict(self) -> dict[str, Any]:
        return {"type": "play", "tile": list(self.tile)}


ALL_ACTIONS: tuple[Play, ...] = tuple(Play(tile) for tile in TILES)


def action_from_record(entry: Mapping[str, Any]) -> Play:
    if entry.get("type") != "play":
        raise ValueError(f"duel has no {entry.get('type')!r} action")
    return Play(normalize(entry["tile"]))


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    type: ClassVar[str] = "trick_won"
    recurs: ClassVar[bool] = False
    seat: int
    tiles: tuple[Tile, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    type: ClassVar[str] = "hand_scored"
    recurs: ClassVar[bool] = False
    tricks: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DuelView:
    """The game as one seat (or a spectator, ``None``) may know it: its own tiles only."""

    viewer: Viewer
    hand_number: int
    hand: tuple[Tile, ...]
    tile_counts: tuple[int, ...]
    trick: tuple[tuple[int, Tile], ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    to_move: int | None
    legal_actions: tuple[Play, ...]
    winner: int | None

    def as_dict(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in self.__dataclass_fields__}
        out["legal_actions"] = [action.as_dict() for action in self.legal_actions]
        return out


def rank(tile: Tile, suit: int) -> int:
    """A tile's rank in a suit: a double is highest, else its other end; -1 if it is not of the suit."""
    if suit not in tile:
        return -1
    return 7 if tile[0] == tile[1] else tile[0] + tile[1] - suit


class DuelGame:
    """The engine (the ``Engine`` shape of ``server/games/base.py``)."""

    game: ClassVar[str] = GAME

    def __init__(self, options: DuelOptions, dealer: Dealer, *, hold_deals: bool = False) -> None:
        self.options = options
        self._dealer = dealer
        self._hold = hold_deals
        self.hands: list[set[Tile]] = [set(), set()]
        self.scores: tuple[int, ...] = (0, 0)
        self.hand_number = -1
        self.first = 0  # chance picks the first hand's leader, at the deal
        self.trick: list[tuple[int, Tile]] = []
        self.tricks = [0, 0]
        self.leader = 0
        self.winner: int | None = None
        self.between_hands = False
        self._log: list[dict[str, Any]] = []
        self._opening = self._deal()

    @property
    def players(self) -> int:
        return SEATS

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        if self.is_over or self.between_hands:
            return None
        return self.leader if not self.trick else 1 - self.leader

    def opening_events(self) -> list[Event]:
        return list(self._opening)

    def deal_next(self) -> list[Event]:
        if not self.between_hands:
            raise ValueError("no deal is held back")
        self.between_hands = False
        return self._deal()

    def _deal(self) -> list[Event]:
        order = self._dealer.shuffled(TILES)
        self.hand_number += 1
        self.first = self._dealer.pick(SEATS) if self.hand_number == 0 else 1 - self.first
        self.hands = [set(order[:HAND_SIZE]), set(order[HAND_SIZE:])]
        self.leader, self.tricks, self.trick = self.first, [0, 0], []
        deal = [sorted(hand, reverse=True) for hand in self.hands]
        self._log.append({"deal": deal, "first": self.first, "actions": [], "scores": None})
        started = HandStarted(self.hand_number, self.first, (HAND_SIZE, HAND_SIZE))
        return [started, *(HandDealt(seat, tuple(tiles)) for seat, tiles in enumerate(deal))]

    def legal_actions(self, seat: int) -> list[Any]:
        if seat != self.to_move:
            return []
        held = sorted(self.hands[seat], reverse=True)
        if self.trick:
            suit = self.trick[0][1][0]
            following = [tile for tile in held if suit in tile]
            held = following or held
        return [Play(tile) for tile in held]

    def check_turn(self, seat: int) -> None:
        if self.is_over:
            raise IllegalAction("the game is over", "game_over")
        if seat != self.to_move:
            raise IllegalAction(f"it is seat {self.to_move}'s turn", "not_your_turn")

    def apply(self, seat: int, action: Any, *, auto: bool = False) -> list[Event]:
        self.check_turn(seat)
        legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(f"play {either([f'{a.tile[0]}-{a.tile[1]}' for a in legal])}")
        tile = action.tile
        self.hands[seat].discard(tile)
        self.trick.append((seat, tile))
        entry = {"seat": seat, "type": "play", "tile": list(tile), **({"auto": True} if auto else {})}
        self._log[-1]["actions"].append(entry)
        events: list[Event] = [TilePlayed(seat, tile)]
        if len(self.trick) == SEATS:
            events += self._trick_done()
        return events

    def _trick_done(self) -> list[Event]:
        (lead_seat, led), (other, answer) = self.trick
        won = other if rank(answer, led[0]) > rank(led, led[0]) else lead_seat
        self.tricks[won] += 1
        self.leader, self.trick = won, []
        events: list[Event] = [TrickWon(won, (led, answer), tuple(self.tricks))]
        if self.hands[0] or self.hands[1]:
            return events
        worth = 2 if self.options.double_points else 1
        self.scores = tuple(s + worth * t for s, t in zip(self.scores, self.tricks, strict=True))
        self._log[-1]["scores"] = list(self.scores)
        events.append(HandScored(tuple(self.tricks), self.scores))
        best = max(self.scores)
        if best >= self.options.target and self.scores[0] != self.scores[1]:
            self.winner = self.scores.index(best)
            return [*events, GameOver(self.winner, self.scores)]
        if self._hold:
            self.between_hands = True
            return events
        return events + self._deal()

    def view(self, viewer: Viewer) -> DuelView:
        return DuelView(
            viewer=viewer,
            hand_number=self.hand_number,
            hand=tuple(sorted(self.hands[viewer], reverse=True)) if viewer is not None else (),
            tile_counts=tuple(len(hand) for hand in self.hands),
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            scores=self.scores,
            target=self.options.target,
            to_move=self.to_move,
            legal_actions=tuple(self.legal_actions(viewer)) if viewer is not None else (),
            winner=self.winner,
        )

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        hands = [{**hand, "scores": hand["scores"] or list(self.scores)} for hand in self._log]
        out: dict[str, Any] = {"format": "boneyard-record/1", "game": GAME, "players": SEATS}
        out["options"] = self.options.as_dict()
        if seat_names is not None:
            out["seat_names"] = list(seat_names)
        out.update(hands=hands, final_scores=list(self.scores), winner=self.winner)
        return out


def choose(view: DuelView, rng: random.Random) -> Play:
    """The basic bot: the lowest tile that wins the trick when it follows, else the lowest it may play."""
    legal = list(view.legal_actions)
    if view.trick:
        led = view.trick[0][1]
        winning = [a for a in legal if rank(a.tile, led[0]) > rank(led, led[0])]
        legal = winning or legal
    low = min(sum(a.tile) for a in legal)
    return rng.choice([a for a in legal if sum(a.tile) == low])
