"""A Texas 42 record as table positions, to step through (``boneyard replay``).

The record carries the deal, the auction, the contract and the plays; who took each trick and the
points it was worth come from the client's own rule knowledge (:mod:`.texas42_rules`), and the
record's result and marks are the authority for the score.
"""

from __future__ import annotations

from boneyard.clients.cli.core.rules import Tile, sort_moon_hand
from boneyard.clients.cli.games.texas42_rules import SEATS, bid_text, contract_text, count_of, team_of
from boneyard.clients.cli.games.texas42_rules import winner_index as decide
from boneyard.clients.cli.tui.replay_states import Position, Replay
from boneyard.protocol import Texas42Record, TexasView
from boneyard.protocol.records import Texas42Hand
from boneyard.protocol.texas42 import TexasHandScored

__all__ = ["Position", "positions"]


def _next(seat: int, out: int | None) -> int:
    """The seat after ``seat``, skipping nello's partner sitting out."""
    after = (seat + 1) % SEATS
    return (after + 1) % SEATS if after == out else after


class _Hand:
    """One hand being walked: the view as a spectator sees it, every seat's tiles face up."""

    def __init__(self, walk: Replay, hand: Texas42Hand, number: int, marks: tuple[int, ...]) -> None:
        self.walk = walk
        walk.held = [list(dealt) for dealt in hand.deal]
        record = walk.record
        self.view = TexasView(
            game="texas42", viewer=None, hand_number=number, phase="bidding", hand=(),
            tile_counts=(7,) * SEATS, first=hand.first, bids=(None,) * SEATS, high_bidder=None,
            high_bid=None, trump=None, out=None, trick=(), leader=None, played=(), tricks=(0,) * SEATS,
            points=(0, 0), scores=marks, target=record.options.target, to_move=hand.first,
            legal_actions=(), winner=None,
        )  # fmt: skip
        self.last: tuple[tuple[int, Tile], ...] = ()
        self.winner: int | None = None

    def show(self, title: str, **update: object) -> None:
        self.view = self.view.model_copy(update=update)
        self.walk.add(title, self.view, self.last, self.winner)

    def act(self, action: object) -> None:
        seat: int = getattr(action, "seat")  # noqa: B009 - every record entry names its seat
        name = self.walk.name(seat)
        view = self.view
        kind = getattr(action, "type")  # noqa: B009
        if kind in ("bid", "pass"):
            bids = list(view.bids)
            bid = getattr(action, "bid", None)
            bids[seat] = bid if kind == "bid" else "pass"
            high = {"high_bidder": seat, "high_bid": bid} if kind == "bid" else {}
            said = f"bids {bid_text(bid)}" if isinstance(bid, int) else "passes"
            self.show(f"{name} {said}", bids=tuple(bids), to_move=(seat + 1) % SEATS, **high)
        elif kind == "trump":
            trump = getattr(action, "trump")  # noqa: B009
            out = (seat + 2) % SEATS if trump == "nello" else None
            self.show(f"{name} names {contract_text(trump)}", phase="playing", trump=trump, out=out,
                      leader=seat, to_move=seat)  # fmt: skip
        else:
            self._play(seat, name, getattr(action, "tile"))  # noqa: B009

    def _play(self, seat: int, name: str, tile: Tile) -> None:
        view = self.view
        self.walk.held[seat].remove(tile)
        trick = (*view.trick, (seat, tile))
        counts = tuple(len(h) for h in self.walk.held)
        if len(trick) < SEATS - (view.out is not None):
            self.show(f"{name} plays", trick=trick, tile_counts=counts, to_move=_next(seat, view.out))
            return
        self.winner = taker = trick[decide(view.trump, [t for _, t in trick])][0]
        tricks, points = list(view.tricks), list(view.points)
        tricks[taker] += 1
        points[team_of(taker)] += 1 + sum(count_of(t) for _, t in trick)
        self.last = trick
        self.show(f"{self.walk.name(taker)} takes trick {sum(tricks)}", trick=(), tile_counts=counts,
                  tricks=tuple(tricks), points=tuple(points), played=(*view.played, trick), leader=taker,
                  to_move=taker)  # fmt: skip


def positions(record: Texas42Record) -> list[Position]:
    walk = Replay(record, sort_moon_hand)
    marks: tuple[int, ...] = (0, 0)
    for walk.number, hand in enumerate(record.hands, 1):
        walking = _Hand(walk, hand, walk.number - 1, marks)
        walk.add("the deal", walking.view)
        for action in hand.actions:
            walking.act(action)
        result = hand.result
        scored = tuple(hand.scores)
        if result is not None:
            walk.sheet.append(TexasHandScored(
                type="hand_scored", bidder=result.bidder, bid=result.bid, trump=result.trump,
                made=result.made, points=tuple(result.points), marks=tuple(result.marks), scores=scored,
            ))  # fmt: skip
            verdict = "made" if result.made else "set"
            gained = " · ".join(f"team {t} +{m}" for t, m in enumerate(result.marks))
            walking.show(f"{verdict}: {gained} marks", phase="scored", scores=scored,
                         points=tuple(result.points), to_move=None)  # fmt: skip
        else:
            walking.show("thrown in: everyone passed", phase="thrown_in", scores=scored, to_move=None)
        marks = scored
    return walk.finish()
