"""What one viewer may know of a Straight game: :class:`StraightView` and the drawable :class:`LayoutView`.

>>> from boneyard.server.games.straight.layout import encode, tile_id, OPENING, RIGHT
>>> lv = layout_view([encode(tile_id((6, 4)), OPENING), encode(tile_id((4, 4)), RIGHT),
...                   encode(tile_id((4, 1)), RIGHT)])
>>> lv.open_ends, lv.count, lv.spinner, lv.spinner_arm, lv.spinner_index
((('left', 6), ('right', 1), ('up', 4), ('down', 4)), 7, (4, 4), 'right', 0)
>>> lv.count_after((4, 3), "up")
10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.server.games.straight.actions import Action
from boneyard.server.games.straight.layout import END_INDEX, END_NAMES, OPENING, Layout, decode, oriented
from boneyard.server.games.tiles import ALL_TILES, IS_DOUBLE, TILE_IDS, Tile, normalize


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile in an arm: ``inner`` touches the tile nearer the centre, ``outer`` faces outward.

    Doubles lie crosswise (``inner == outer``).
    """

    tile: Tile
    inner: int
    outer: int
    crosswise: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "tile": list(self.tile),
            "inner": self.inner,
            "outer": self.outer,
            "crosswise": self.crosswise,
        }


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The layout as a client draws it.

    The ``opening`` tile is the centre, its high number facing left. ``left``/``right``
    hold the line's arms outward from it; ``up``/``down`` the spinner's crosswise arms
    outward from the spinner. The spinner is the opening (``spinner_arm == "centre"``)
    or ``left``/``right``'s tile at ``spinner_index``.
    """

    opening: Tile | None = None
    spinner: Tile | None = None
    spinner_arm: str | None = None
    spinner_index: int | None = None
    left: tuple[PlacedTile, ...] = ()
    right: tuple[PlacedTile, ...] = ()
    up: tuple[PlacedTile, ...] = ()
    down: tuple[PlacedTile, ...] = ()
    open_ends: tuple[tuple[str, int], ...] = ()
    count: int = 0
    snapshot: tuple[int, ...] = field(default=(), repr=False)

    def count_after(self, tile: Tile, end: str | None) -> int:
        """The count if ``tile`` were placed on ``end`` (assumed legal), for bots."""
        lay = Layout.from_snapshot(self.snapshot) if self.snapshot else Layout()
        return lay.count_after(TILE_IDS[normalize(tile)], OPENING if end is None else END_INDEX[end])

    def as_dict(self) -> dict[str, Any]:
        return {
            "opening": None if self.opening is None else list(self.opening),
            "spinner": None if self.spinner is None else list(self.spinner),
            "spinner_arm": self.spinner_arm,
            "spinner_index": self.spinner_index,
            "arms": {name: [p.as_dict() for p in getattr(self, name)] for name in END_NAMES},
            "open_ends": dict(self.open_ends),
            "count": self.count,
        }


def layout_view(codes: Sequence[int]) -> LayoutView:
    """Rebuild the drawable layout from a hand's placement codes, through the rules' own :class:`Layout`."""
    lay = Layout()
    arms: tuple[list[PlacedTile], ...] = ([], [], [], [])
    opening = spinner = None
    spinner_arm: str | None = None
    spinner_index: int | None = None
    for code in codes:
        tid, end = decode(code)
        tile = ALL_TILES[tid]
        if end == OPENING:
            opening = tile
            lay.play(tid, end)
            if IS_DOUBLE[tid]:
                spinner, spinner_arm = tile, "centre"
            continue
        inner, outer = oriented(tid, lay.ends[end])
        had_spinner = lay.spinner >= 0
        lay.play(tid, end)
        arms[end].append(PlacedTile(tile, inner, outer, IS_DOUBLE[tid]))
        if not had_spinner and lay.spinner >= 0:
            spinner, spinner_arm, spinner_index = tile, END_NAMES[end], len(arms[end]) - 1
    return LayoutView(
        opening,
        spinner,
        spinner_arm,
        spinner_index,
        left=tuple(arms[0]),
        right=tuple(arms[1]),
        up=tuple(arms[2]),
        down=tuple(arms[3]),
        open_ends=tuple(lay.open_ends().items()),
        count=lay.count,
        snapshot=lay.snapshot(),
    )


@dataclass(frozen=True, slots=True)
class StraightView:
    """The game as ``viewer`` (a seat, or ``None`` for a spectator) may know it."""

    viewer: int | None
    hand_number: int
    players: int
    partnerships: bool
    target: int
    hand: tuple[Tile, ...]  # the viewer's own tiles, sorted; empty for a spectator
    tile_counts: tuple[int, ...]
    boneyard: int
    layout: LayoutView
    count: int
    scores: tuple[int, ...]
    leader: int
    to_move: int | None
    legal_actions: tuple[Action, ...]
    is_over: bool = False
    winner: int | None = None
    history: tuple[tuple[int, int], ...] = ()
    """This hand's actions so far as ``(seat, code)`` (:mod:`.layout` codes; a draw is only ``DRAW``):
    public knowledge a bot reasons from (who drew or passed on which ends). Not part of ``as_dict``."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": "straight",
            "viewer": self.viewer,
            "hand_number": self.hand_number,
            "players": self.players,
            "partnerships": self.partnerships,
            "target": self.target,
            "hand": [list(t) for t in self.hand],
            "tile_counts": list(self.tile_counts),
            "boneyard": self.boneyard,
            "layout": self.layout.as_dict(),
            "count": self.count,
            "scores": list(self.scores),
            "leader": self.leader,
            "to_move": self.to_move,
            "legal_actions": [a.as_dict() for a in self.legal_actions],
            "is_over": self.is_over,
            "winner": self.winner,
        }
