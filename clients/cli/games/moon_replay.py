"""A Moon record replayed: as table positions (the full-screen replay) and as steps in words (``--line``,
``--all``). Who took each trick comes from the client's own rules; the record's scores are the authority."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.clients.cli.core.rules import Tile, sort_moon_hand, tile_word, trick_winner, trump_word
from boneyard.clients.cli.replay_text import Step, hands_rows, scores_row, seat_names
from boneyard.clients.cli.tui.replay_states import Position, Replay
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol import MoonRecord, MoonView
from boneyard.protocol.game import MoonHandScored


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


def moon_steps(record: MoonRecord) -> Iterator[Step]:
    names = seat_names(record)
    scores = [0] * 3
    for number, hand in enumerate(record.hands, 1):
        held = [list(d) for d in hand.deal]
        yield Step(number, f"Hand {number}: the deal ({names[hand.first]} bids first)",
                   [*hands_rows(names, [sort_moon_hand(h, None) for h in held]),
                    ("class:dim", "  widow "), *render.tile(hand.widow), ("", "\n")])  # fmt: skip
        auction: Fragments = []
        trump: int | str | None = None
        bidder: int | None = None
        trick: list[tuple[int, tuple[int, int]]] = []
        tricks = [0] * 3
        for action in hand.actions:
            who = names[action.seat]
            if action.type == "bid":
                bidder = action.seat
                auction.append(("", f"  {who} bids {action.bid}\n"))
            elif action.type == "pass":
                auction.append(("class:dim", f"  {who} passes\n"))
            elif action.type == "discard":
                held[action.seat].append(hand.widow)
                held[action.seat].remove(action.tile)
                auction += [("", f"  {who} takes the widow "), *render.tile(hand.widow),
                            ("", " and discards "), *render.tile(action.tile), ("", "\n")]  # fmt: skip
            elif action.type == "trump":
                trump = action.trump
                auction.append(("class:trump", f"  {who} names trump: {trump_word(trump)}\n"))
                yield Step(number, f"Hand {number}: the auction", auction)
            elif action.type == "play":
                trick.append((action.seat, action.tile))
                held[action.seat].remove(action.tile)
                if len(trick) == 3:
                    won = trick[trick_winner(trump, [t for _, t in trick])][0]
                    tricks[won] += 1
                    body: Fragments = []
                    for seat, t in trick:
                        style = "class:good" if seat == won else "class:tile"
                        body += [("", f"  {names[seat]:<12}"), *render.tile(t, style), ("", "\n")]
                    taken = " · ".join(f"{names[s]} {n}" for s, n in enumerate(tricks))
                    body += [
                        ("class:title", f"  {names[won]} takes it"),
                        ("class:dim", f"   tricks: {taken}\n"),
                    ]
                    body += [("class:dim", "  left in hand:\n")]
                    body += hands_rows(names, [sort_moon_hand(h, trump) for h in held])
                    title = f"Hand {number}, trick {sum(tricks)} (trump {trump_word(trump)})"
                    yield Step(number, title, body)
                    trick = []
        if trump is None:
            yield Step(
                number, f"Hand {number}: thrown in", [*auction, ("class:notice", "  Everyone passed\n")]
            )
        points = [after - before for after, before in zip(hand.scores, scores, strict=True)]
        scores = list(hand.scores)
        verdict = "" if bidder is None else f"{names[bidder]} bid, took {tricks[bidder]} tricks. "
        gained = " · ".join(f"{names[s]} {p:+d}" for s, p in enumerate(points))
        summary: Fragments = [("", f"  {verdict}Points: {gained}\n"), *scores_row(names, scores)]
        yield Step(number, f"Hand {number}: scored", summary)
