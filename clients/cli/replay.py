"""``boneyard replay RECORD.json``: step through a finished game, hand by hand, trick by trick.

A ``boneyard-record/1`` record holds the deals and every action, not what followed from
them, so the replayer works out the rest with the client's own rule knowledge: who took
each Moon trick (:func:`boneyard.clients.cli.core.rules.trick_winner`) and Straight's layout and
count (:mod:`boneyard.clients.cli.core.layout`). Everything is face up: the game is over.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.rules import pips, sort_moon_hand, sort_straight_hand, trick_winner, trump_word
from boneyard.clients.cli.tui.replay_states import positions
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol import RECORD_ADAPTER, MoonRecord, StraightRecord, StraightView
from boneyard.protocol.records import BaseRecord as AnyRecord


@dataclass(frozen=True)
class Step:
    """One screen of the replay."""

    hand: int
    title: str
    body: Fragments


def load_records(path: str | Path) -> list[AnyRecord]:
    """Every record in a file: one JSON object, a JSON array, or JSON Lines."""
    text = Path(path).read_text()
    try:
        data: Any = json.loads(text)
        items = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    # Fields added by a later 1.x writer are ignored, as the record format asks readers to.
    records = [RECORD_ADAPTER.validate_python(item, extra="ignore") for item in items]
    unknown = sorted({r.game for r in records if client_game(r.game) is None})
    if unknown:
        raise ValueError(f"this client does not replay {', '.join(unknown)} records")
    return list(records)


def _names(record: AnyRecord) -> list[str]:
    names = list(record.seat_names or ())
    return [names[s] if s < len(names) else f"seat {s}" for s in range(record.players)]


def _hands_rows(names: Sequence[str], hands: Sequence[Sequence[tuple[int, int]]]) -> Fragments:
    out: Fragments = []
    for seat, hand in enumerate(hands):
        out += [
            ("class:title", f"  {names[seat]:<12}"),
            *(render.tiles(hand) or [("class:dim", "-")]),
            ("", "\n"),
        ]
    return out


def _scores_row(names: Sequence[str], scores: Sequence[int], teams: bool = False) -> Fragments:
    labels = [f"team {t} ({names[t]}+{names[t + 2]})" for t in range(2)] if teams else list(names)
    text = " · ".join(f"{labels[i]} {v}" for i, v in enumerate(scores))
    return [("class:title", "Scores   "), ("class:score", text), ("", "\n")]


def moon_steps(record: MoonRecord) -> Iterator[Step]:
    names = _names(record)
    scores = [0] * 3
    for number, hand in enumerate(record.hands, 1):
        held = [list(d) for d in hand.deal]
        yield Step(number, f"Hand {number}: the deal ({names[hand.first]} bids first)",
                   [*_hands_rows(names, [sort_moon_hand(h, None) for h in held]),
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
                    body += _hands_rows(names, [sort_moon_hand(h, trump) for h in held])
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
        summary: Fragments = [("", f"  {verdict}Points: {gained}\n"), *_scores_row(names, scores)]
        yield Step(number, f"Hand {number}: scored", summary)


def straight_steps(record: StraightRecord) -> Iterator[Step]:
    names = _names(record)
    teams = bool(record.options.partnerships)
    scores = [0] * (2 if teams else record.players)
    for number, hand in enumerate(record.hands, 1):
        held = [list(d) for d in hand.deal]
        layout = layouts.EMPTY
        boneyard = len(hand.boneyard)
        yield Step(number, f"Hand {number}: the deal ({names[hand.first]} leads)",
                   [*_hands_rows(names, [sort_straight_hand(h) for h in held]),
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
            body = [*turn, *render.layout_lines(view), ("class:dim", "  hands:\n")]
            body += _hands_rows(names, [sort_straight_hand(h) for h in held])
            body += _scores_row(names, scores, teams)
            yield Step(number, f"Hand {number}: {who}", body)
            turn = []
        left = [sum(pips(t) for t in h) for h in held]
        scores = list(hand.scores)
        ended = "domino" if any(not h for h in held) else "blocked"
        yield Step(number, f"Hand {number}: {ended}",
                   [("", "  pips left: " + " · ".join(f"{names[s]} {p}" for s, p in enumerate(left)) + "\n"),
                    *_scores_row(names, scores, teams)])  # fmt: skip


def _display_view(
    record: StraightRecord, layout: Any, held: list[list[tuple[int, int]]], boneyard: int, scores: list[int]
) -> StraightView:
    return StraightView(
        game="straight", viewer=None, hand_number=0, players=record.players,
        partnerships=bool(record.options.partnerships), target=record.options.target, hand=(),
        tile_counts=tuple(len(h) for h in held), boneyard=boneyard, layout=layout, count=layout.count,
        scores=tuple(scores), leader=0, to_move=None, legal_actions=(), is_over=False, winner=None,
    )  # fmt: skip


def position_steps(record: AnyRecord) -> Iterator[Step]:
    """A game's replay as lines, from its table positions (:attr:`ClientGame.replay`): at each step the
    table as the line client draws it, then every seat's tiles face up."""
    game = client_game(record.game)
    if game is None:
        return
    names = _names(record)
    for position in positions(record):
        view = position.mirror.view
        if view is None or position.mirror.game_over is not None:
            continue
        body = [*game.line_board(position.mirror, view, None), ("class:dim", "  hands:\n")]
        body += _hands_rows(names, position.hands)
        yield Step(position.hand, position.title, body)


def steps(record: AnyRecord) -> list[Step]:
    """Every step of a game, ending with the result."""
    game = client_game(record.game)
    own = game.line_replay if game is not None else None
    said = own(record) if own is not None else position_steps(record)
    out = [step for step in said if isinstance(step, Step)]
    names = _names(record)
    teams = len(record.final_scores) < record.players  # scores per partnership
    winner = f"team {record.winner}" if teams else names[record.winner]
    out.append(Step(len(record.hands) + 1, "Game over",
                    [("class:title", f"  {winner} wins\n"),
                     *_scores_row(names, record.final_scores, teams)]))  # fmt: skip
    return out


HELP = "Enter: next · b: back · n/p: next/previous hand · a: all the rest · q: quit"


def run_replay(
    path: str, *, game: int = 1, all_steps: bool = False, colour: bool = True, full_screen: bool = False
) -> int:
    """Show a record's steps: on the table screen (``full_screen``), a step per Enter at a prompt when
    the terminal is one, or all at once."""
    import sys

    try:
        records = load_records(path)
    except (OSError, ValueError) as error:
        print(f"boneyard: cannot read {path}: {str(error).splitlines()[0]}", file=sys.stderr)
        return 1
    if not 1 <= game <= len(records):
        print(f"boneyard: {path} holds {len(records)} game(s)", file=sys.stderr)
        return 1
    record = records[game - 1]
    if full_screen:
        from boneyard.clients.cli.tui.replay import ReplayApp

        ReplayApp(record, colour=colour).run()
        return 0
    style = render.STYLE if colour else Style([])
    shown = steps(record)

    def show(i: int) -> None:
        step = shown[i]
        head: Fragments = [("class:title", f"[{i + 1}/{len(shown)}] {step.title}\n")]
        print_formatted_text(FormattedText([*head, *step.body]), style=style, end="")

    print(f"{record.game} game, {record.players} players, {len(record.hands)} hands")
    if all_steps or not sys.stdin.isatty():
        for i in range(len(shown)):
            show(i)
        return 0
    session: PromptSession[str] = PromptSession()
    i = 0
    show(i)
    while True:
        try:
            key = session.prompt(f"{HELP} > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return 0
        if key == "q":
            return 0
        if key == "a":
            for j in range(i + 1, len(shown)):
                show(j)
            return 0
        if key == "b":
            i = max(0, i - 1)
        elif key in ("n", "p"):
            hand = shown[i].hand + (1 if key == "n" else -1)
            i = next((j for j, s in enumerate(shown) if s.hand == hand), i)
        else:
            i = min(len(shown) - 1, i + 1)
        show(i)
