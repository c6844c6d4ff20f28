"""The little rule knowledge a client needs to *show* a game: Moon trumps and tricks, tile order.

The server decides everything that matters (legality, scores); a client only needs enough
to sort a hand sensibly and, when replaying a record (which carries no trick winners),
to say who took each trick. Straight's layout lives in :mod:`boneyard.clients.cli.core.layout`.

>>> is_trump((6, 4), 4), is_trump((6, 4), "doubles"), is_trump((5, 5), "doubles")
(True, False, True)
>>> trick_winner(6, [(4, 2), (5, 4), (4, 4)])
2
>>> sort_moon_hand([(2, 1), (6, 6), (3, 3), (6, 3)], 3)
[(3, 3), (6, 3), (6, 6), (2, 1)]
>>> tile_word((6, 4)), in_our_notation("you do not hold [6-4]; play [1-0] or [2-1]")
('[6|4]', 'you do not hold [6|4]; play [1|0] or [2|1]')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Tile = tuple[int, int]
"""A tile as ``(high, low)``, as the wire has it."""

TrumpName = int | str
"""Moon trump: ``0..6``, ``"doubles"`` or ``"none"``."""


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


def is_trump(tile: Tile, trump: TrumpName | None) -> bool:
    """docs/RULES.md M8: a number trump takes every tile carrying it; ``doubles`` the seven doubles."""
    if trump is None or trump == "none":
        return False
    if trump == "doubles":
        return is_double(tile)
    return trump in tile


def _rank_in_suit(tile: Tile, suit: int) -> int:
    """M2: the double heads its suit (7); the others rank by their other number."""
    if is_double(tile):
        return 7
    return tile[1] if tile[0] == suit else tile[0]


def led_suit(tile: Tile, trump: TrumpName | None) -> int | str:
    """M9: ``"trump"`` for a trump lead, else the double's number or the higher number."""
    return "trump" if is_trump(tile, trump) else tile[0]


def power(tile: Tile, trump: TrumpName | None, led: int | str) -> int:
    """How strongly ``tile`` bids for a trick led in ``led``; -1 when it can never win (M10)."""
    if is_trump(tile, trump):
        # Doubles-as-trump rank by their number; a number trump ranks like its own suit.
        return 100 + (tile[0] if trump == "doubles" else _rank_in_suit(tile, int(trump)))  # type: ignore[arg-type]
    if led != "trump" and isinstance(led, int) and led in tile:
        return _rank_in_suit(tile, led)
    return -1


def trick_winner(trump: TrumpName | None, tiles: Sequence[Tile]) -> int:
    """The index (in play order) of the tile that takes the trick."""
    led = led_suit(tiles[0], trump)
    strengths = [power(t, trump, led) for t in tiles]
    return strengths.index(max(strengths))


def moon_key(tile: Tile, trump: TrumpName | None) -> tuple[int, int, int]:
    """Sort key for a Moon hand: trumps first, strongest first; then suits high to low."""
    if is_trump(tile, trump):
        return (0, -power(tile, trump, "trump"), 0)
    # Within a suit the double first, then by the other number: the order players hold them in.
    return (1, -tile[0], -_rank_in_suit(tile, tile[0]))


def sort_moon_hand(hand: Iterable[Tile], trump: TrumpName | None) -> list[Tile]:
    return sorted(hand, key=lambda t: moon_key(t, trump))


def sort_straight_hand(hand: Iterable[Tile]) -> list[Tile]:
    """Heaviest first: the tiles a player wants to shed before a hand is counted."""
    return sorted(hand, key=lambda t: (-pips(t), -t[0]))


def trump_word(trump: TrumpName | None) -> str:
    """A trump in words, for people."""
    if trump is None:
        return "not named yet"
    if trump == "none":
        return "no trump"
    if trump == "doubles":
        return "doubles"
    return f"{trump}s"


def tile_word(tile: Sequence[int]) -> str:
    """A tile as this client shows it everywhere: ``[6|4]``, its halves side by side as on the table."""
    return f"[{tile[0]}|{tile[1]}]"


_WRITTEN_TILE = re.compile(r"\[([0-6])-([0-6])\]")
"""A tile as the server's messages and the rule book write it: ``[6-4]``."""


def in_our_notation(text: str) -> str:
    """Text the server wrote (a refusal) or a record check made, with its tiles written as this client
    shows them (``[6-4]`` -> ``[6|4]``): one notation on the screen. The wire keeps the server's."""
    return _WRITTEN_TILE.sub(r"[\1|\2]", text)
