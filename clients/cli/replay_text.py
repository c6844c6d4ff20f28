"""The pieces of ``boneyard replay`` as text: a :class:`Step` (one screen), and the rows every game's
replay prints (every seat's tiles face up, the scores)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.render import Fragments
from boneyard.protocol.records import BaseRecord as AnyRecord


@dataclass(frozen=True)
class Step:
    """One screen of the replay."""

    hand: int
    title: str
    body: Fragments


def seat_names(record: AnyRecord) -> list[str]:
    names = list(record.seat_names or ())
    return [names[s] if s < len(names) else f"seat {s}" for s in range(record.players)]


def hands_rows(names: Sequence[str], hands: Sequence[Sequence[tuple[int, int]]]) -> Fragments:
    out: Fragments = []
    for seat, hand in enumerate(hands):
        out += [
            ("class:title", f"  {names[seat]:<12}"),
            *(render.tiles(hand) or [("class:dim", "-")]),
            ("", "\n"),
        ]
    return out


def scores_row(names: Sequence[str], scores: Sequence[int], teams: bool = False) -> Fragments:
    labels = [f"team {t} ({names[t]}+{names[t + 2]})" for t in range(2)] if teams else list(names)
    text = " · ".join(f"{labels[i]} {v}" for i, v in enumerate(scores))
    return [("class:title", "Scores   "), ("class:score", text), ("", "\n")]
