"""``boneyard replay RECORD.json``: step through a finished game, hand by hand, trick by trick.

A ``boneyard-record/1`` record holds the deals and every action, not what followed from
them, so each game's module works out the rest with the client's own rule knowledge (who took
each trick, Straight's layout and count): its table positions, or its own steps in words
(``ClientGame.replay``, ``line_replay``). Everything is face up: the game is over.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.replay_text import Step, hands_rows, scores_row, seat_names
from boneyard.clients.cli.tui.replay_states import positions
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol import RECORD_ADAPTER
from boneyard.protocol.records import BaseRecord as AnyRecord


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


def position_steps(record: AnyRecord) -> Iterator[Step]:
    """A game's replay as lines, from its table positions (:attr:`ClientGame.replay`): at each step the
    table as the line client draws it, then every seat's tiles face up."""
    game = client_game(record.game)
    if game is None:
        return
    names = seat_names(record)
    for position in positions(record):
        view = position.mirror.view
        if view is None or position.mirror.game_over is not None:
            continue
        body = [*game.line_board(position.mirror, view, None), ("class:dim", "  hands:\n")]
        body += hands_rows(names, position.hands)
        yield Step(position.hand, position.title, body)


def steps(record: AnyRecord) -> list[Step]:
    """Every step of a game, ending with the result."""
    game = client_game(record.game)
    own = game.line_replay if game is not None else None
    said = own(record) if own is not None else position_steps(record)
    out = [step for step in said if isinstance(step, Step)]
    names = seat_names(record)
    teams = len(record.final_scores) < record.players  # scores per partnership
    winner = f"team {record.winner}" if teams else names[record.winner]
    out.append(Step(len(record.hands) + 1, "Game over",
                    [("class:title", f"  {winner} wins\n"),
                     *scores_row(names, record.final_scores, teams)]))  # fmt: skip
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
