"""A finished game's record as a series of table positions, for the replay on the table screen.

Each :class:`Position` is a :class:`~boneyard.clients.cli.core.TableMirror` (a view as a spectator
sees it, and the score sheet so far), every seat's tiles face up (the game is over), and a title.
Who took each Moon trick and Straight's layout and count come from the client's own rule
knowledge, as in :mod:`boneyard.clients.cli.replay`; the record's scores are the authority.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import TableMirror, View
from boneyard.clients.cli.core.rules import (
    Tile,
    pips,
    sort_moon_hand,
    sort_straight_hand,
    tile_word,
    trick_winner,
    trump_word,
)
from boneyard.protocol import GameEvent, MoonRecord, MoonView, StraightRecord, StraightView, TableInfo
from boneyard.protocol.game import GameOver, MoonHandScored, StraightHandScored
from boneyard.protocol.records import BaseRecord as AnyRecord


@dataclass(frozen=True)
class Position:
    title: str
    mirror: TableMirror
    hands: tuple[tuple[Tile, ...], ...]
    """Every seat's tiles at this point."""
    hand: int
    """The hand's number, from 1."""


_TABLE: TypeAdapter[TableInfo] = TypeAdapter(TableInfo)


def replay_table(record: AnyRecord) -> TableInfo:
    """The finished table a record describes, as the lobby would list it (its seats named)."""
    names = list(record.seat_names or ())
    seats = [
        {"seat": s, "name": names[s] if s < len(names) else f"seat {s}", "bot": False, "connected": True,
         "auto": False}
        for s in range(record.players)
    ]  # fmt: skip
    return _TABLE.validate_python(
        {"table_id": "replay", "game": record.game, "options": record.options.model_dump(), "seats": seats,
         "status": "finished", "turn_seconds": None, "spectators": 0, "rematch": []}
    )  # fmt: skip


HandOrder = Callable[[Sequence[Tile], Any], list[Tile]]
"""How a seat's tiles are shown: its hand, and the view's trump (or ``None``)."""


class Replay:
    """Positions collected while walking through a record's hands (``order``: how hands are shown)."""

    def __init__(self, record: AnyRecord, order: HandOrder) -> None:
        self.record = record
        self.table = replay_table(record)
        self.order = order
        self.out: list[Position] = []
        self.sheet: list[GameEvent] = []
        self.held: list[list[Tile]] = []
        self.number = 0

    def name(self, seat: int) -> str:
        return self.table.seats[seat].name or f"seat {seat}"

    def add(self, title: str, view: View, trick: Any = (), won: int | None = None) -> None:
        mirror = TableMirror("replay", table=self.table, view=view, hands=list(self.sheet))
        mirror.last_trick, mirror.last_trick_winner = tuple(trick), won
        trump = getattr(view, "trump", None)
        hands = tuple(tuple(self.order(h, trump)) for h in self.held)
        self.out.append(Position(f"Hand {self.number}: {title}", mirror, hands, self.number))

    def finish(self) -> list[Position]:
        last = self.out[-1]
        over = GameOver(type="game_over", winner=self.record.winner, scores=tuple(self.record.final_scores))
        assert last.mirror.view is not None
        view = last.mirror.view.model_copy(update={"to_move": None})
        mirror = TableMirror("replay", table=self.table, view=view, hands=list(self.sheet), game_over=over)
        self.out.append(Position("Game over", mirror, last.hands, last.hand))
        return self.out


def moon_positions(record: MoonRecord) -> list[Position]:
    walk = Replay(record, sort_moon_hand)
    scores = [0] * 3
    for walk.number, hand in enumerate(record.hands, 1):
        walk.held = [list(d) for d in hand.deal]
        view = MoonView(
            game="moon", viewer=None, hand_number=walk.number - 1, phase="bidding", hand=(),
            tile_counts=(7, 7, 7), first=hand.first, bids=(None,) * 3, high_bidder=None, high_bid=None,
            trump=None, trick=(), leader=None, played=(), tricks=(0, 0, 0), scores=tuple(scores),
            target=record.options.target, to_move=hand.first, legal_actions=(), discard=None, winner=None,
        )  # fmt: skip
        last: tuple[tuple[int, Tile], ...] = ()
        winner: int | None = None
        walk.add(f"the deal (the widow {tile_word(hand.widow)})", view)
        for action in hand.actions:
            view, last, winner = _moon_step(walk, view, action, hand.widow, last, winner)
        points = tuple(after - before for after, before in zip(hand.scores, scores, strict=True))
        scores = list(hand.scores)
        if view.high_bidder is not None and view.high_bid is not None:
            walk.sheet.append(MoonHandScored(
                type="hand_scored", bidder=view.high_bidder, bid=view.high_bid, tricks=view.tricks,
                points=points, scores=tuple(scores),
            ))  # fmt: skip
        view = view.model_copy(update={"phase": "scored", "scores": tuple(scores), "to_move": None})
        walk.add("scored" if view.high_bidder is not None else "thrown in", view, last, winner)
    return walk.finish()


def _moon_step(
    walk: Replay, view: MoonView, action: Any, widow: Tile, last: Any, winner: int | None
) -> tuple[MoonView, Any, int | None]:
    seat, held = action.seat, walk.held
    after = (seat + 1) % 3
    if action.type in ("bid", "pass"):
        bids = list(view.bids)
        bids[seat] = action.bid if action.type == "bid" else "pass"
        update: dict[str, Any] = {"bids": tuple(bids), "to_move": after}
        if action.type == "bid":
            update |= {"high_bidder": seat, "high_bid": action.bid}
        view = view.model_copy(update=update)
        walk.add(f"{walk.name(seat)} {'bids ' + str(action.bid) if action.type == 'bid' else 'passes'}", view)
    elif action.type == "discard":
        held[seat].append(widow)
        held[seat].remove(action.tile)
        # Everything is face up in a replay: the discard is shown as its bidder saw it.
        view = view.model_copy(update={"phase": "naming_trump", "to_move": seat, "discard": action.tile})
        walk.add(
            f"{walk.name(seat)} takes the widow {tile_word(widow)}, discards {tile_word(action.tile)}", view
        )
    elif action.type == "trump":
        view = view.model_copy(update={"phase": "playing", "trump": action.trump, "to_move": seat})
        walk.add(f"{walk.name(seat)} names trump: {trump_word(action.trump)}", view)
    else:
        held[seat].remove(action.tile)
        trick = (*view.trick, (seat, action.tile))
        counts = tuple(len(h) for h in held)
        if len(trick) < 3:
            view = view.model_copy(update={"trick": trick, "tile_counts": counts, "to_move": after})
            walk.add(f"{walk.name(seat)} plays", view, last, winner)
            return view, last, winner
        winner = trick[trick_winner(view.trump, [t for _, t in trick])][0]
        tricks = list(view.tricks)
        tricks[winner] += 1
        last = trick
        view = view.model_copy(update={"trick": (), "tile_counts": counts, "tricks": tuple(tricks),
                                       "to_move": winner})  # fmt: skip
        walk.add(f"{walk.name(winner)} takes trick {sum(tricks)}", view, last, winner)
    return view, last, winner


def straight_positions(record: StraightRecord) -> list[Position]:
    walk = Replay(record, lambda hand, trump: sort_straight_hand(hand))
    teams = bool(record.options.partnerships)
    n = record.players
    scores = [0] * (2 if teams else n)
    for walk.number, hand in enumerate(record.hands, 1):
        walk.held = held = [list(d) for d in hand.deal]
        layout, boneyard = layouts.EMPTY, len(hand.boneyard)

        def view_now(to_move: int | None, layout: Any, boneyard: int, totals: list[int] = scores) -> Any:
            return StraightView(
                game="straight", viewer=None, hand_number=walk.number - 1, players=n, partnerships=teams,
                target=record.options.target, hand=(), tile_counts=tuple(len(h) for h in walk.held),
                boneyard=boneyard, layout=layout, count=layout.count, scores=tuple(totals),
                leader=record.hands[walk.number - 1].first, to_move=to_move, legal_actions=(), is_over=False,
                winner=None,
            )  # fmt: skip

        walk.add("the deal", view_now(hand.first, layout, boneyard))
        for action in hand.actions:
            seat, name = action.seat, walk.name(action.seat)
            if action.type == "draw":
                held[seat].append(action.tile)
                boneyard -= 1
                walk.add(f"{name} draws", view_now(seat, layout, boneyard))
                continue
            if action.type == "play":
                layout = layouts.play(layout, action.tile, action.end)
                held[seat].remove(action.tile)
                if layout.count and layout.count % 5 == 0:
                    scores[seat % 2 if teams else seat] += layout.count
            what = "passes" if action.type == "pass" else "plays"
            walk.add(f"{name} {what}", view_now((seat + 1) % n, layout, boneyard))
        award = tuple(after - before for after, before in zip(hand.scores, scores, strict=True))
        scores = list(hand.scores)
        winners = tuple(i for i, a in enumerate(award) if a > 0)
        walk.sheet.append(StraightHandScored(
            type="hand_scored", winner=winners[0] if len(winners) == 1 else None, points=award,
            pips=tuple(sum(pips(t) for t in h) for h in held), hands=tuple(tuple(h) for h in held),
            scores=tuple(scores), winners=winners,
        ))  # fmt: skip
        walk.add("scored", view_now(None, layout, boneyard, scores))
    return walk.finish()


def positions(record: AnyRecord) -> list[Position]:
    """A record's positions, by its game's own walk (none for a game this client cannot show)."""
    game = client_game(record.game)
    return [p for p in game.replay(record) if isinstance(p, Position)] if game is not None else []
