"""The per-hand log an engine keeps, and its ``boneyard-record/1`` form (PROTOCOL.md section 12).

>>> log = HandLog(((25,), (0,)), (3,), 0, [(0, 25 | 4 << 5, False), (1, -1, True)])
>>> for entry in hand_record(log, (10, 0))["actions"]:
...     print(entry)
{'seat': 0, 'type': 'play', 'tile': [6, 4], 'end': None}
{'seat': 1, 'type': 'draw', 'tile': [2, 0], 'auto': True}
"""

from __future__ import annotations

from typing import Any

from boneyard.server.games.straight.layout import DRAW, END_NAMES, OPENING, decode
from boneyard.server.games.tiles import ALL_TILES


class HandLog:
    """One hand as dealt and played: tile ids, and actions as ``(seat, code, auto)``.

    Drawn tiles are not stored: the k-th draw of a hand is always ``bone[k]``.
    """

    __slots__ = ("actions", "bone", "deal", "first", "scores")

    def __init__(
        self,
        deal: tuple[tuple[int, ...], ...],
        bone: tuple[int, ...],
        first: int,
        actions: list[tuple[int, int, bool]] | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        self.deal = deal
        self.bone = bone
        self.first = first
        self.actions: list[tuple[int, int, bool]] = [] if actions is None else actions
        self.scores = scores  # cumulative scores once the hand (or the game, mid-hand) is over

    def copy(self) -> HandLog:
        return HandLog(self.deal, self.bone, self.first, self.actions[:], self.scores)

    def plays(self) -> list[int]:
        """The placement codes of the hand, in order."""
        return [code for _, code, _ in self.actions if code >= 0]


def _tile(tid: int) -> list[int]:
    return list(ALL_TILES[tid])


def hand_record(log: HandLog, scores: tuple[int, ...]) -> dict[str, Any]:
    """One entry of a record's ``hands``; ``scores`` is used while the hand is still being played."""
    actions: list[dict[str, Any]] = []
    drawn = 0
    for seat, code, auto in log.actions:
        entry: dict[str, Any] = {"seat": seat}
        if code >= 0:
            tid, end = decode(code)
            entry.update(type="play", tile=_tile(tid), end=None if end == OPENING else END_NAMES[end])
        elif code == DRAW:
            entry.update(type="draw", tile=_tile(log.bone[drawn]))
            drawn += 1
        else:
            entry["type"] = "pass"
        if auto:
            entry["auto"] = True
        actions.append(entry)
    return {
        "deal": [[_tile(t) for t in seat_tiles] for seat_tiles in log.deal],
        "boneyard": [_tile(t) for t in log.bone],
        "first": log.first,
        "actions": actions,
        "scores": list(log.scores if log.scores is not None else scores),
    }
