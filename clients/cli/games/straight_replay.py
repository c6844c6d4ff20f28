"""A Straight record replayed: as table positions (the full-screen replay) and as steps in words
(``--line``, ``--all``). The layout and the count come from the client's own layout rules; the record's
scores are the authority."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.rules import pips, sort_straight_hand
from boneyard.clients.cli.games.straight_board import layout_lines
from boneyard.clients.cli.replay_text import Step, hands_rows, scores_row, seat_names
from boneyard.clients.cli.tui.replay_states import Position, Replay
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol import StraightRecord, StraightView
from boneyard.protocol.game import StraightHandScored


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


def straight_steps(record: StraightRecord) -> Iterator[Step]:
    names = seat_names(record)
    teams = bool(record.options.partnerships)
    scores = [0] * (2 if teams else record.players)
    for number, hand in enumerate(record.hands, 1):
        held = [list(d) for d in hand.deal]
        layout = layouts.EMPTY
        boneyard = len(hand.boneyard)
        yield Step(number, f"Hand {number}: the deal ({names[hand.first]} leads)",
                   [*hands_rows(names, [sort_straight_hand(h) for h in held]),
                    ("class:dim", f"  boneyard {boneyard} tiles\n")])  # fmt: skip
        turn: Fragments = []
        for action in hand.actions:
            who = names[action.seat]
            if action.type == "draw":
                held[action.seat].append(action.tile)
                boneyard -= 1
                turn += [("class:dim", f"  {who} draws "), *render.tile(action.tile, "class:dim"), ("", "\n")]
                continue
            if action.type == "pass":
                turn.append(("class:dim", f"  {who} passes\n"))
            else:
                layout = layouts.play(layout, action.tile, action.end)
                held[action.seat].remove(action.tile)
                count = layout.count
                scored = count if count and count % 5 == 0 else 0
                scores[action.seat % 2 if teams else action.seat] += scored
                where = f" on the {action.end} end" if action.end else " to open"
                turn += [("", f"  {who} plays "), *render.tile(action.tile), ("", f"{where}"),
                         ("class:good" if scored else "class:dim", f"   count {count}"
                          + (f", scores {scored}" if scored else "")), ("", "\n")]  # fmt: skip
            view = _display_view(record, layout, held, boneyard, scores)
            body = [*turn, *layout_lines(view), ("class:dim", "  hands:\n")]
            body += hands_rows(names, [sort_straight_hand(h) for h in held])
            body += scores_row(names, scores, teams)
            yield Step(number, f"Hand {number}: {who}", body)
            turn = []
        left = [sum(pips(t) for t in h) for h in held]
        scores = list(hand.scores)
        ended = "domino" if any(not h for h in held) else "blocked"
        yield Step(number, f"Hand {number}: {ended}",
                   [("", "  pips left: " + " · ".join(f"{names[s]} {p}" for s, p in enumerate(left)) + "\n"),
                    *scores_row(names, scores, teams)])  # fmt: skip


def _display_view(
    record: StraightRecord, layout: Any, held: list[list[tuple[int, int]]], boneyard: int, scores: list[int]
) -> StraightView:
    return StraightView(
        game="straight", viewer=None, hand_number=0, players=record.players,
        partnerships=bool(record.options.partnerships), target=record.options.target, hand=(),
        tile_counts=tuple(len(h) for h in held), boneyard=boneyard, layout=layout, count=layout.count,
        scores=tuple(scores), leader=0, to_move=None, legal_actions=(), is_over=False, winner=None,
    )  # fmt: skip
