"""What the trick-taking games' bots share: the basic reading of a hand, and how the playout policy leads.

Their searching bots answer a view the same way (:func:`choose_by_phase`: the only legal action at once,
else the game's own choice for the phase). Moon's and Texas 42's bots read a hand the same way (its
unbroken run of top trumps is sure, a lower trump wins once those are drawn, an off-suit double heads its
suit unless trumped) and their greedy playouts lead the same way (the side that named trump draws trumps,
then doubles are cashed, else the cheapest tile goes); each game weighs and orders tiles by its own
measures.

>>> from boneyard.server.games.tiles import TILE_IDS
>>> ids = [TILE_IDS[x] for x in [(6, 6), (6, 5), (6, 4), (5, 5), (3, 1), (2, 1), (4, 2)]]
>>> estimate_tricks(ids, 6, lower_trump=0.5)
(3.7, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeVar

from boneyard.server.games.base import forced
from boneyard.server.games.tiles import IS_DOUBLE, Tile
from boneyard.server.games.trickactions import Contract, NameTrump, Play
from boneyard.server.games.tricks import LED_TRUMP, NO_TRUMP, POWER, TRUMP_MASK, ids_of

A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)

TRUMP_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(ids_of(TRUMP_MASK[t]), key=POWER[t * 8 + LED_TRUMP].__getitem__, reverse=True))
    for t in range(NO_TRUMP + 1)
)
"""Per trump index (nello aside): its trumps, highest first."""

DOUBLE_TRICK = 0.7
"""The tricks an off-suit double is worth in a basic reading: it heads its suit unless trumped."""


def sure_tricks(hand: Sequence[int], t: int) -> int:
    """How many of trump ``t``'s highest tiles ``hand`` holds in an unbroken run: tricks nobody can beat."""
    held = set(hand)
    sure = 0
    for tid in TRUMP_ORDER[t]:
        if tid not in held:
            break
        sure += 1
    return sure


def off_suit_doubles(hand: Sequence[int], t: int) -> int:
    """The doubles of ``hand`` that are not trumps under ``t``."""
    return sum(1 for i in hand if IS_DOUBLE[i] and not TRUMP_MASK[t] >> i & 1)


def estimate_tricks(hand: Sequence[int], t: int, *, lower_trump: float) -> tuple[float, int]:
    """``(expected, sure)`` tricks of tile ids ``hand`` if its holder names trump ``t`` and leads; a
    trump below the sure run counts ``lower_trump`` of a trick (the game's own reading)."""
    sure = sure_tricks(hand, t)
    trumps = sum(1 for i in hand if TRUMP_MASK[t] >> i & 1)
    return round(sure + lower_trump * (trumps - sure) + DOUBLE_TRICK * off_suit_doubles(hand, t), 2), sure


def greedy_lead(moves: Sequence[int], t: int, low: Sequence[int], *, draws_trumps: bool) -> int:
    """The playout policy's lead among ``moves`` under trump ``t``: its highest trump when its side
    draws trumps (``draws_trumps``), else its best off-suit double, else its cheapest tile by ``low``."""
    tmask = TRUMP_MASK[t]
    if draws_trumps:
        trumps = [m for m in moves if tmask >> m & 1]
        if trumps:
            return max(trumps, key=POWER[t * 8 + LED_TRUMP].__getitem__)
    doubles = [m for m in moves if IS_DOUBLE[m] and not tmask >> m & 1]
    if doubles:
        return max(doubles, key=low.__getitem__)
    return min(moves, key=low.__getitem__)


class PhaseView(Protocol[A_co]):
    """What :func:`choose_by_phase` reads of a view: its phase and the viewer's legal actions."""

    @property
    def phase(self) -> str: ...
    @property
    def legal_actions(self) -> Sequence[A_co]: ...


def choose_by_phase(
    view: PhaseView[A],
    *,
    bid: Callable[[], A],
    contract: Callable[[], Contract],
    play: Callable[[], Tile],
    others: Mapping[str, Callable[[], A]] | None = None,
) -> A | NameTrump | Play:
    """A searching bot's answer to ``view`` (of the seat to move): its only legal action at once, else
    ``bid()`` in the auction, the contract ``contract()`` names, the tile ``play()`` picks, or the game's
    own phases' choices (``others``, by phase name)."""
    if (only := forced(view.legal_actions)) is not None:
        return only
    phase = view.phase
    if phase == "bidding":
        return bid()
    if others is not None and phase in others:
        return others[phase]()
    if phase == "naming_trump":
        return NameTrump(contract())
    return Play(play())
