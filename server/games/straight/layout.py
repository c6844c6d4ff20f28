"""The line of play: its ends, the spinner, which ends are open, and the count (S4-S7).

Inside the engine a placement is a small int *code*: ``tile_id | end << 5`` with
``end`` 0..3 for left, right, up, down and 4 (:data:`OPENING`) for the first tile.
:data:`DRAW` and :data:`PASS` are negative so every code fits one list of ints.

>>> lay = Layout()
>>> lay.play(tile_id((6, 4)), OPENING), lay.play(tile_id((4, 4)), RIGHT), lay.play(tile_id((4, 1)), RIGHT)
(10, 14, 7)
>>> lay.open_ends()
{'left': 6, 'right': 1, 'up': 4, 'down': 4}
"""

from __future__ import annotations

from typing import Literal

from boneyard.server.games.base import either
from boneyard.server.games.tiles import ALL_TILES, MAX_PIP, fmt, tile_id

End = Literal["left", "right", "up", "down"]
END_NAMES: tuple[End, End, End, End] = ("left", "right", "up", "down")
END_INDEX: dict[str, int] = {name: i for i, name in enumerate(END_NAMES)}
LEFT, RIGHT, UP, DOWN, OPENING = 0, 1, 2, 3, 4
DRAW = -1
PASS = -2

HIGH: tuple[int, ...] = tuple(t[0] for t in ALL_TILES)
LOW: tuple[int, ...] = tuple(t[1] for t in ALL_TILES)
NUM_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(ALL_TILES) if n in t) for n in range(MAX_PIP + 1)
)
"""``NUM_MASK[n]``: the bitmask of the seven tiles carrying ``n``."""

_OPENING_CODES: tuple[int, ...] = tuple(i | OPENING << 5 for i in range(len(ALL_TILES)))


def _subsets(mask: int) -> list[int]:
    out = [0]
    while mask:
        low = mask & -mask
        out += [s | low for s in out]
        mask ^= low
    return out


# _END_CODES[end][n][hand & NUM_MASK[n]]: the codes placing those tiles on an end exposing n.
# One dict lookup per open end replaces a loop over bits in the hottest function of a playout.
_END_CODES: tuple[tuple[dict[int, tuple[int, ...]], ...], ...] = tuple(
    tuple(
        {
            sub: tuple(t | end << 5 for t in range(len(ALL_TILES)) if sub >> t & 1)
            for sub in _subsets(NUM_MASK[n])
        }
        for n in range(MAX_PIP + 1)
    )
    for end in range(4)
)


def encode(tid: int, end: int) -> int:
    """The code of placing tile ``tid`` on ``end`` (``OPENING`` for the first tile).

    >>> decode(encode(25, UP))
    (25, 2)
    """
    return tid | end << 5


def decode(code: int) -> tuple[int, int]:
    """``(tile_id, end)`` of a placement code."""
    return code & 31, code >> 5


class Layout:
    """The tiles on the table, reduced to what the rules need.

    ``ends[e]`` is the number exposed at end ``e`` (-1 while that end does not
    exist) and ``mult[e]`` how often it counts (S7): 2 for a double lying at the
    end of an arm, 1 for a plain tile, 0 for an up/down end with no tile on it
    yet. The lone opening spinner has both in-line ends at weight 1, which makes
    it count both halves once; ``spin`` holds the in-line ends (bits 0, 1) where
    the spinner itself is still the end tile.

    >>> lay = Layout()
    >>> [lay.play(tile_id(t), e) for t, e in [((5, 5), OPENING), ((5, 0), RIGHT), ((6, 5), LEFT)]]
    [10, 10, 6]
    >>> lay.is_open(UP), lay.count
    (True, 6)
    """

    __slots__ = ("count", "ends", "mult", "spin", "spinner", "tiles")

    def __init__(self) -> None:
        self.ends: list[int] = [-1, -1, -1, -1]
        self.mult: list[int] = [0, 0, 0, 0]
        self.spinner = -1  # the spinner's number, -1 until a double is played (S5)
        self.spin = 0
        self.count = 0
        self.tiles = 0  # bitmask of the tiles on the table

    def copy(self) -> Layout:
        new = Layout.__new__(Layout)
        new.ends = self.ends[:]
        new.mult = self.mult[:]
        new.spinner = self.spinner
        new.spin = self.spin
        new.count = self.count
        new.tiles = self.tiles
        return new

    def snapshot(self) -> tuple[int, ...]:
        """Everything about the layout as a flat tuple of ints (public information)."""
        return (*self.ends, *self.mult, self.spinner, self.spin, self.count, self.tiles)

    @classmethod
    def from_snapshot(cls, snap: tuple[int, ...]) -> Layout:
        """The layout a :meth:`snapshot` was taken of.

        >>> lay = Layout(); _ = lay.play(tile_id((3, 2)), OPENING)
        >>> Layout.from_snapshot(lay.snapshot()).snapshot() == lay.snapshot()
        True
        """
        new = cls()
        new.ends = list(snap[0:4])
        new.mult = list(snap[4:8])
        new.spinner, new.spin, new.count, new.tiles = snap[8:12]
        return new

    @property
    def empty(self) -> bool:
        return self.ends[0] < 0

    def is_open(self, end: int) -> bool:
        """Whether a tile may be placed on ``end`` (up/down exist only after S6)."""
        return self.ends[end] >= 0

    def open_ends(self) -> dict[str, int]:
        """The open ends by name with the number each exposes."""
        return {END_NAMES[e]: v for e, v in enumerate(self.ends) if v >= 0}

    def playable(self, hand: int) -> int:
        """The tiles of ``hand`` (a bitmask) that fit some open end."""
        ends = self.ends
        if ends[0] < 0:
            return hand
        mask = NUM_MASK[ends[0]] | NUM_MASK[ends[1]]
        if ends[2] >= 0:  # up and down open together and expose the same number until played on
            mask |= NUM_MASK[ends[2]] | NUM_MASK[ends[3]]
        return hand & mask

    def play_codes(self, hand: int) -> list[int]:
        """Every placement of a tile of ``hand``: one code per (tile, end), nothing deduplicated.

        >>> lay = Layout(); _ = lay.play(tile_id((4, 4)), OPENING)
        >>> [decode(c) for c in lay.play_codes(1 << tile_id((4, 1)))]
        [(11, 0), (11, 1)]
        """
        ends = self.ends
        if ends[0] < 0:
            out = []
            while hand:
                low = hand & -hand
                out.append(_OPENING_CODES[low.bit_length() - 1])
                hand ^= low
            return out
        v = ends[0]
        w = ends[1]
        out = [*_END_CODES[0][v][hand & NUM_MASK[v]], *_END_CODES[1][w][hand & NUM_MASK[w]]]
        v = ends[2]
        if v >= 0:
            w = ends[3]
            out += _END_CODES[2][v][hand & NUM_MASK[v]]
            out += _END_CODES[3][w][hand & NUM_MASK[w]]
        return out

    def fits(self, tid: int, end: int) -> bool:
        """Whether tile ``tid`` may be placed on ``end`` now (the predicate behind :meth:`play_codes`).

        >>> lay = Layout(); lay.fits(3, OPENING), lay.fits(3, LEFT)
        (True, False)
        """
        ends = self.ends
        if ends[0] < 0:
            return end == OPENING
        return end < OPENING and ends[end] >= 0 and bool(NUM_MASK[ends[end]] >> tid & 1)

    def play(self, tid: int, end: int) -> int:
        """Place tile ``tid`` on ``end`` (already known to fit) and return the count after it (S7)."""
        a = HIGH[tid]
        b = LOW[tid]
        ends = self.ends
        mult = self.mult
        self.tiles |= 1 << tid
        if end == OPENING:
            # [a-b] with a >= b lies with a on the left ("Naming the ends").
            ends[0] = a
            ends[1] = b
            mult[0] = mult[1] = 1
            if a == b:
                self.spinner = a
                self.spin = 3
        else:
            ends[end] = a + b - ends[end]
            mult[end] = 2 if a == b else 1
            if end < 2:
                spin = self.spin
                if spin >> end & 1:
                    spin ^= 1 << end
                    if spin:  # the lone opening spinner got its first neighbour: its other side counts double
                        mult[spin - 1] = 2
                    else:  # both in-line sides covered: the crosswise ends open (S6)
                        ends[2] = ends[3] = self.spinner
                    self.spin = spin
                elif a == b and self.spinner < 0:
                    self.spinner = a
                    self.spin = 1 << end
        count = ends[0] * mult[0] + ends[1] * mult[1] + ends[2] * mult[2] + ends[3] * mult[3]
        self.count = count
        return count

    def count_after(self, tid: int, end: int) -> int:
        """The count if tile ``tid`` were placed on ``end``; the layout is unchanged.

        >>> lay = Layout(); _ = lay.play(tile_id((4, 2)), OPENING)
        >>> lay.count_after(tile_id((4, 3)), LEFT), lay.count_after(tile_id((4, 4)), LEFT), lay.count
        (5, 10, 6)
        """
        return self.copy().play(tid, end)

    def explain(self, tid: int, end: int | None) -> str:
        """Why placing ``tid`` on ``end`` is not allowed, in words (for error messages only).

        >>> lay = Layout(); _ = lay.play(tile_id((6, 4)), OPENING)
        >>> lay.explain(tile_id((5, 3)), LEFT)
        '[5-3] fits no open end (left 6, right 4)'
        >>> lay.explain(tile_id((4, 1)), LEFT)
        '[4-1] does not fit the left end (6): play it on the right'
        >>> lay.explain(tile_id((4, 1)), None)
        'name the end for [4-1]: right'
        """
        tile = fmt(ALL_TILES[tid])
        if self.empty:
            return f"{tile} is the opening tile: it takes no end" if end is not None else ""
        fitting = [END_NAMES[e] for e in range(4) if self.fits(tid, e)]
        if not fitting:
            shown = ", ".join(f"{name} {number}" for name, number in self.open_ends().items())
            return f"{tile} fits no open end ({shown})"
        if end is None or end == OPENING:
            return f"name the end for {tile}: {either(fitting)}"
        name = END_NAMES[end]
        if not self.is_open(end):
            if self.spinner < 0:
                return f"there is no {name} end: no double (spinner) has been played yet"
            return f"the {name} end opens only once both in-line sides of the spinner are covered"
        if not NUM_MASK[self.ends[end]] >> tid & 1:
            return f"{tile} does not fit the {name} end ({self.ends[end]}): play it on the {either(fitting)}"
        return ""


def oriented(tid: int, exposed: int) -> tuple[int, int]:
    """``(inner, outer)`` of tile ``tid`` joined to an end exposing ``exposed``.

    >>> oriented(tile_id((6, 4)), 4)
    (4, 6)
    """
    return exposed, HIGH[tid] + LOW[tid] - exposed


__all__ = [
    "DOWN",
    "DRAW",
    "END_INDEX",
    "END_NAMES",
    "LEFT",
    "NUM_MASK",
    "OPENING",
    "PASS",
    "RIGHT",
    "UP",
    "End",
    "Layout",
    "decode",
    "encode",
    "oriented",
    "tile_id",
]
