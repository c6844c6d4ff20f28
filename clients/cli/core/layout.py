"""Straight's layout, rebuilt on the client from the plays it sees (docs/RULES.md S5-S7, "Naming the ends").

A ``snapshot`` hands the client a whole :class:`protocol.Layout`; after that, each
``tile_played`` event says only which tile went on which end. :func:`play` turns the
layout before a play into the layout after it, so the mirror can keep drawing the
table without asking the server again. The event's ``count`` stays the authority;
:func:`count` computes the same number (a replayed record carries no counts).

Everything here is a pure function of a :class:`protocol.Layout`:

>>> lay = play(play(play(EMPTY, (6, 4), None), (4, 4), "right"), (4, 1), "right")
>>> dict(lay.open_ends), lay.count
({'left': 6, 'right': 1, 'up': 4, 'down': 4}, 7)
>>> play(lay, (4, 3), "up").count
10
"""

from __future__ import annotations

from boneyard.clients.cli.core.rules import Tile, is_double, tile_word
from boneyard.protocol import Layout
from boneyard.protocol.views import PlacedTile

END_NAMES: tuple[str, ...] = ("left", "right", "up", "down")

EMPTY = Layout(
    opening=None,
    spinner=None,
    spinner_arm=None,
    spinner_index=None,
    arms={"left": (), "right": (), "up": (), "down": ()},
    open_ends={},
    count=0,
)
"""The layout before the hand's first tile."""


def _arm(layout: Layout, end: str) -> tuple[PlacedTile, ...]:
    return tuple(layout.arms.get(end, ()))  # type: ignore[call-overload]


def spinner_covered(layout: Layout) -> bool:
    """S6: both in-line sides of the spinner are covered, so ``up`` and ``down`` are open."""
    if layout.spinner is None:
        return False
    if layout.spinner_arm == "centre":
        return bool(_arm(layout, "left")) and bool(_arm(layout, "right"))
    assert layout.spinner_arm is not None and layout.spinner_index is not None
    # In an arm the inner side touches the line already; the outer side needs one more tile.
    return len(_arm(layout, layout.spinner_arm)) > layout.spinner_index + 1


def open_ends(layout: Layout) -> dict[str, int]:
    """Every open end and the number it exposes."""
    if layout.opening is None:
        return {}
    left, right = _arm(layout, "left"), _arm(layout, "right")
    ends = {
        "left": left[-1].outer if left else layout.opening[0],
        "right": right[-1].outer if right else layout.opening[1],
    }
    if spinner_covered(layout):
        assert layout.spinner is not None
        for end in ("up", "down"):
            arm = _arm(layout, end)
            ends[end] = arm[-1].outer if arm else layout.spinner[0]
    return ends


def _weight(layout: Layout, end: str) -> int:
    """How many times an end's number counts (S7)."""
    arm = _arm(layout, end)
    if arm:
        return 2 if arm[-1].crosswise else 1  # a double at the end of an arm counts both halves
    if end in ("up", "down"):
        return 0  # the spinner's crosswise ends count only once played on
    assert layout.opening is not None
    if is_double(layout.opening):
        # The lone opening spinner counts both halves: once per side while both are bare,
        # twice on the bare side once the other is covered.
        other = _arm(layout, "right" if end == "left" else "left")
        return 2 if other else 1
    return 1


def count(layout: Layout) -> int:
    """The count of the layout (S7)."""
    return sum(value * _weight(layout, end) for end, value in open_ends(layout).items())


def fits(layout: Layout, tile: Tile, end: str | None) -> bool:
    """Whether ``tile`` may go on ``end`` (``None``: the opening tile)."""
    if layout.opening is None:
        return end is None
    value = open_ends(layout).get(end) if end is not None else None
    return value is not None and value in tile


def play(layout: Layout, tile: Tile, end: str | None) -> Layout:
    """The layout after ``tile`` is placed on ``end`` (``None`` for the opening tile).

    Raises ValueError when the tile does not fit there: the caller's picture of the
    table is then wrong, which a mirror must not hide.
    """
    tile = (max(tile), min(tile))
    if not fits(layout, tile, end):
        raise ValueError(f"{tile_word(tile)} does not fit {end or 'an empty table'}")
    if end is None:
        double = is_double(tile)
        after = layout.model_copy(
            update={
                "opening": tile,
                "spinner": tile if double else None,
                "spinner_arm": "centre" if double else None,
            }
        )
    else:
        exposed = open_ends(layout)[end]
        placed = PlacedTile(tile=tile, inner=exposed, outer=sum(tile) - exposed, crosswise=is_double(tile))
        arms = {name: _arm(layout, name) for name in END_NAMES}
        arms[end] = (*arms[end], placed)
        update: dict[str, object] = {"arms": arms}
        if layout.spinner is None and is_double(tile):
            update.update(spinner=tile, spinner_arm=end, spinner_index=len(arms[end]) - 1)
        after = layout.model_copy(update=update)
    # model_copy does not validate: recompute the derived fields from the new tiles.
    return after.model_copy(update={"open_ends": open_ends(after), "count": count(after)})


def count_after(layout: Layout, tile: Tile, end: str | None) -> int:
    """The count if ``tile`` were placed on ``end`` (for bots choosing a scoring play)."""
    return play(layout, tile, end).count
