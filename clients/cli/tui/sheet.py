"""The score sheet: per hand, who bid what and whether it was made (Moon) or who won it (Straight), the
points, and the running scores.

>>> from boneyard.clients.cli.core.mirror import TableMirror
>>> from boneyard.protocol.game import MoonHandScored
>>> m = TableMirror("t1")
>>> m.hands.append(MoonHandScored(type="hand_scored", bidder=0, bid=5, tricks=(5, 1, 1),
...                               points=(5, 1, 1), scores=(5, 1, 1)))
>>> print(sheet_text(m, 30).plain)
         seat 0 seat 1 seat 2
 1 seat 0 bid 5: made
  points     +5     +1     +1
   total      5      1      1
"""

from __future__ import annotations

from rich.text import Text

from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.protocol.game import MoonHandScored, StraightHandScored


def _sides(mirror: TableMirror, n: int) -> list[str]:
    teams = bool(getattr(mirror.view, "partnerships", False))
    if teams:  # who is in which team is on the players' lines
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


def hand_words(mirror: TableMirror, hand: MoonHandScored | StraightHandScored) -> tuple[str, bool | None]:
    """What happened in a hand, and whether the bid was made (None for Straight)."""
    if isinstance(hand, MoonHandScored):
        made = hand.points[hand.bidder] > 0
        return f"{mirror.seat_name(hand.bidder)} bid {hand.bid}: {'made' if made else 'set'}", made
    if not hand.winners:
        return "nobody scores the hand", None
    teams = bool(getattr(mirror.view, "partnerships", False))
    names = [f"team {w}" if teams else mirror.seat_name(w) for w in hand.winners]
    return f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'} +{max(hand.points)}", None


def sheet_text(mirror: TableMirror, width: int = 40, last: int | None = None) -> Text:
    """The sheet, newest hand last (only the ``last`` few when given): per hand a line of words, then
    the points it gave each side and the running scores, in one column per side."""
    hands = list(mirror.hands)
    if not hands:
        return Text("No hand scored yet.", "dim")
    n = len(hands[0].scores)
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
        points = hand.points if isinstance(hand, MoonHandScored) else _straight_points(hand)
        out.append("\n" + f"{'points':>{pad}}" + "".join(f"{p:>+{col}d}" for p in points))
        out.append("\n")
        out.append(f"{'total':>{pad}}" + "".join(f"{t:>{col}}" for t in hand.scores), "dim")
    return out


def _straight_points(hand: StraightHandScored) -> list[int]:
    """The end-of-hand award per side (points in play are already in the running scores)."""
    return list(hand.points)
