"""The score sheet: per hand, who bid what and whether it was made (Moon) or who won it (Straight), the
points, and the running scores.

>>> from boneyard.clients.cli.core.mirror import TableMirror
>>> from boneyard.protocol.game import MoonHandScored
>>> from boneyard.protocol import MoonView
>>> m = TableMirror("t1", view=MoonView.model_construct(game="moon"))  # the sheet of a Moon table
>>> m.hands.append(MoonHandScored(type="hand_scored", bidder=0, bid=5, tricks=(5, 1, 1),
...                               points=(5, 1, 1), scores=(5, 1, 1)))
>>> print(sheet_text(m, 30).plain)
         seat 0 seat 1 seat 2
 1 seat 0 bid 5: made
  points     +5     +1     +1
   total      5      1      1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from boneyard.clients.cli.core.games import ClientGame, client_game
from boneyard.clients.cli.core.mirror import TableMirror


def _teams(mirror: TableMirror) -> bool:
    view = mirror.view
    game = client_game(view.game) if view is not None else None
    return view is not None and game is not None and game.teams(view)


def _sides(mirror: TableMirror, n: int) -> list[str]:
    if _teams(mirror):  # who is in which team is on the players' lines
        return [f"team {t}" for t in range(2)]
    return [mirror.seat_name(s) for s in range(n)]


def header(sides: list[str], pad: int, col: int) -> list[str]:
    """The sides' names over their columns, right-aligned: on one line when each fits its column, else on
    two, every other name on each, so that a name may run into the blank column beside it.

    >>> header(["tester", "bot-1", "bot-2"], 8, 6)
    ['        tester       bot-2', '               bot-1']
    """
    if all(len(s) < col for s in sides):
        return [" " * pad + "".join(f"{s:>{col}}" for s in sides)]
    lines = []
    for parity in (0, 1):
        line = ""
        for i, side in enumerate(sides):
            end = pad + col * (i + 1)
            if i % 2 == parity:
                room = (col if i == 0 and pad < col else 2 * col if i else pad + col) - 1
                name = side[:room]
                line = line.ljust(end - len(name)) + name
        lines.append(line)
    return lines


def bid_words(mirror: TableMirror, bidder: int, bid: object, made: bool) -> tuple[str, bool]:
    """``ana bid 5: made``, and whether it was made (the trick games' line on the sheet)."""
    return f"{mirror.seat_name(bidder)} bid {bid}: {'made' if made else 'set'}", made


def hand_words(mirror: TableMirror, hand: object) -> tuple[str, bool | None]:
    """What happened in a hand, and whether the bid was made (``None`` where nobody bids), as its
    game says it."""
    game = _game(mirror)
    return game.hand_words(mirror, hand) if game is not None else ("hand scored", None)


def hand_points(mirror: TableMirror, hand: object) -> Sequence[int]:
    """The points (or marks) a hand gave each side, as its game counts them."""
    game = _game(mirror)
    return game.hand_points(hand) if game is not None else ()


def _totals(hand: object) -> Sequence[int]:
    """A scored hand's running scores, per side (every game's ``hand_scored`` has them)."""
    totals: Sequence[int] = getattr(hand, "scores", ())
    return totals


def _game(mirror: TableMirror) -> ClientGame[Any] | None:
    game = mirror.view.game if mirror.view is not None else mirror.table.game if mirror.table else ""
    return client_game(game)


def sheet_text(mirror: TableMirror, width: int = 40, last: int | None = None) -> Text:
    """The sheet, newest hand last (only the ``last`` few when given): per hand a line of words, then
    the points it gave each side and the running scores, in one column per side."""
    hands = list(mirror.hands)
    if not hands:
        return Text("No hand scored yet.", "dim")
    n = len(_totals(hands[0]))
    game = _game(mirror)
    unit = game.sheet_unit if game is not None else "points"
    col = max(5, min(8, (width - 7) // n))
    pad = max(0, width - col * n - 1)
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append("\n".join(header(_sides(mirror, n), pad, col)), "bold")
    shown = hands[-last:] if last else hands
    first = len(hands) - len(shown) + 1
    for i, hand in enumerate(shown, first):
        words, made = hand_words(mirror, hand)
        out.append("\n")
        out.append(f"{i:>2} ")
        out.append(words[: width - 3], "green" if made else ("red" if made is False else ""))
        points = hand_points(mirror, hand)
        out.append("\n" + f"{unit:>{pad}}" + "".join(f"{p:>+{col}d}" for p in points))
        out.append("\n")
        out.append(f"{'total':>{pad}}" + "".join(f"{t:>{col}}" for t in _totals(hand)), "dim")
    return out
