"""Small pieces every game's view folding uses: a seat's count bumped, a tile taken out of a hand."""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.clients.cli.core.rules import Tile


def bump(values: Sequence[int], seat: int, delta: int) -> tuple[int, ...]:
    """``values`` with ``seat``'s entry changed by ``delta``."""
    out = list(values)
    out[seat] += delta
    return tuple(out)


def without(hand: Sequence[Tile], tile: Tile) -> tuple[Tile, ...]:
    """``hand`` less one ``tile`` (unchanged when it does not hold it)."""
    out = list(hand)
    if tile in out:
        out.remove(tile)
    return tuple(out)


def spoken(bids: Sequence[object], seat: int, word: object) -> tuple[object, ...]:
    """The auction's words with ``seat``'s replaced by ``word`` (a bid, or ``"pass"``)."""
    out = list(bids)
    out[seat] = word
    return tuple(out)
