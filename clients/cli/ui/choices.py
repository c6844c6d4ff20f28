"""What the numbers a player types mean: hand positions while tiles are played, else the offered actions.

The hand is shown in hand order, numbered 1..n left to right, so a number always names the same
tile whatever is legal; the legal ones are highlighted. When no action involves a tile (the Moon
auction, naming trump, a Straight draw or pass), the numbers go to the offered actions instead.

>>> from boneyard.protocol import PlayAction, PassAction
>>> legal = [PlayAction(type="play", tile=(6, 4), end=end) for end in ("left", "right")]
>>> [(c.number, c.label, len(c.actions)) for c in choices([(6, 4), (2, 1)], legal)]
[(1, '[6|4]', 2), (2, '[2|1]', 0)]
>>> [c.label for c in choices([(6, 4)], [PassAction(type="pass")])]
['pass']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.clients.cli.core.rules import Tile, tile_word


@dataclass(frozen=True)
class Choice:
    """One numbered thing to choose: a hand tile (with its legal actions, maybe none) or an action."""

    number: int
    label: str
    actions: tuple[Any, ...]
    tile: Tile | None = None

    @property
    def legal(self) -> bool:
        return bool(self.actions)


def action_text(action: Any, bid_words: Callable[[int], str] = str) -> str:
    """A legal action in words: ``bid 5``, ``[6|4] left``, ``trump doubles`` (``bid_words``: a bid as
    its game says it, e.g. Texas 42's ``bid 84 (2 marks)``)."""
    kind = action.type
    if kind == "bid":
        return f"bid {bid_words(action.bid)}"
    if kind == "trump":
        return f"trump {action.trump}"  # as typed: trump 6, trump doubles, trump none
    if kind == "discard":
        return f"discard {tile_word(action.tile)}"
    if kind == "play":
        end = getattr(action, "end", None)
        return tile_word(action.tile) + (f" {end}" if end else "")
    return str(kind)


def tile_actions(legal: Sequence[Any]) -> bool:
    """Whether the offered actions are about tiles (play or discard)."""
    return any(getattr(a, "tile", None) is not None for a in legal)


def choices(
    hand: Sequence[Tile], legal: Sequence[Any], bid_words: Callable[[int], str] = str
) -> list[Choice]:
    """The numbered choices: the hand while tiles are played, the offered actions otherwise."""
    if tile_actions(legal):
        out = []
        for i, tile in enumerate(hand, 1):
            mine = tuple(a for a in legal if tuple(getattr(a, "tile", ()) or ()) == tuple(tile))
            out.append(Choice(i, tile_word(tile), mine, tuple(tile)))  # type: ignore[arg-type]
        return out
    return [Choice(i, action_text(a, bid_words), (a,)) for i, a in enumerate(legal, 1)]


def extra_actions(legal: Sequence[Any]) -> list[Any]:
    """Offered actions that are not tiles, when tiles are being played (e.g. none in Moon; kept general)."""
    return [a for a in legal if getattr(a, "tile", None) is None] if tile_actions(legal) else []
