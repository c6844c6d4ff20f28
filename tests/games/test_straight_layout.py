"""Straight layout: ends, spinner, count (docs/RULES.md S4-S8, "Naming the ends", examples 13-17)."""

from __future__ import annotations

import pytest

from boneyard.server.games.straight.layout import (
    DOWN,
    END_INDEX,
    LEFT,
    OPENING,
    RIGHT,
    UP,
    Layout,
    decode,
    encode,
)
from boneyard.server.games.straight.scoring import play_points
from boneyard.server.games.straight.view import layout_view
from boneyard.server.games.tiles import mask_of, normalize, tile_id

END_LETTER = {"L": LEFT, "R": RIGHT, "U": UP, "D": DOWN}


def code(step: str) -> int:
    """``"64"`` is the opening [6-4]; ``"41R"`` is [4-1] on the right end."""
    tile = normalize((int(step[0]), int(step[1])))
    return encode(tile_id(tile), END_LETTER[step[2]] if len(step) > 2 else OPENING)


def counts(*steps: str) -> list[int]:
    """The count after each step, each checked legal first."""
    lay = Layout()
    out = []
    for step in steps:
        c = code(step)
        assert lay.fits(*decode(c)), step
        out.append(lay.play(*decode(c)))
    return out


def build(*steps: str) -> Layout:
    lay = Layout()
    for step in steps:
        lay.play(*decode(code(step)))
    return lay


# ----- the worked examples -------------------------------------------------------------------------


def test_naming_the_ends_example() -> None:
    lay = build("64", "44R", "41R")
    assert lay.open_ends() == {"left": 6, "right": 1, "up": 4, "down": 4}
    assert lay.count == 7


@pytest.mark.parametrize(
    ("opening", "count", "points"), [("55", 10, 10), ("64", 10, 10), ("41", 5, 5), ("66", 12, 0)]
)
def test_example_13_openings(opening: str, count: int, points: int) -> None:
    assert counts(opening) == [count]
    assert play_points(count) == points


def test_example_13_three_two_opening_scores_five() -> None:
    # S4's own example: [3-2] scores 5.
    assert play_points(counts("32")[0]) == 5


def test_example_14_spinner_five_five_all_four_ends() -> None:
    assert counts("55", "50R", "00R", "65L", "40R", "51U", "54D") == [10, 10, 10, 6, 10, 11, 15]


def test_example_15_double_on_a_plain_opening_becomes_the_spinner() -> None:
    assert counts("42", "43L") == [6, 5]
    assert counts("42", "44L") == [6, 10]
    assert build("42", "44L").spinner == 4


@pytest.mark.parametrize(("steps", "count"), [(("66", "63R"), 15), (("22", "21R"), 5), (("00", "50R"), 5)])
def test_example_16_lone_spinner_plus_one_tile(steps: tuple[str, str], count: int) -> None:
    assert counts(*steps)[-1] == count
    # The same on the other in-line side.
    assert counts(steps[0], steps[1][:2] + "L")[-1] == count


def test_example_17_spinner_in_the_middle_of_the_line() -> None:
    assert counts("64", "44R", "41R", "43U") == [10, 14, 7, 10]


# ----- naming the ends -------------------------------------------------------------------------------


def test_opening_high_number_is_left() -> None:
    assert build("64").open_ends() == {"left": 6, "right": 4}
    assert build("46").open_ends() == {"left": 6, "right": 4}  # [4-6] is [6-4]


def test_left_and_right_stay_the_line_ends_when_a_mid_line_double_becomes_spinner() -> None:
    lay = build("64", "66L")
    assert lay.open_ends() == {"left": 6, "right": 4}
    lay.play(*decode(code("62L")))
    assert lay.open_ends() == {"left": 2, "right": 4, "up": 6, "down": 6}


def test_opening_double_is_the_spinner_and_up_down_wait_for_both_sides() -> None:
    lay = build("33")
    assert lay.spinner == 3
    assert lay.open_ends() == {"left": 3, "right": 3}
    lay.play(*decode(code("31L")))
    assert lay.open_ends() == {"left": 1, "right": 3}
    assert not lay.is_open(UP) and not lay.is_open(DOWN)
    lay.play(*decode(code("32R")))
    assert lay.open_ends() == {"left": 1, "right": 2, "up": 3, "down": 3}


# ----- S5 spinner, S6 opening it, S7 the count ---------------------------------------------------


def test_s5_only_the_first_double_is_the_spinner() -> None:
    lay = build("64", "44R", "41R", "11R")
    assert lay.spinner == 4
    # [1-1] is crosswise at the right end: both halves count, but it has no up/down of its own.
    assert lay.count == 6 + 2
    assert lay.open_ends() == {"left": 6, "right": 1, "up": 4, "down": 4}


def test_s5_crosswise_double_takes_tiles_on_two_sides_only() -> None:
    lay = build("55", "50R", "00R")
    hand = mask_of([(3, 0), (6, 0)])
    # Only the line end past [0-0] takes a 0; the [0-0] opens no ends of its own.
    assert sorted(decode(c) for c in lay.play_codes(hand)) == [
        (tile_id((3, 0)), RIGHT),
        (tile_id((6, 0)), RIGHT),
    ]
    assert counts("55", "50R", "00R", "30R") == [10, 10, 10, 13]


def test_s6_up_and_down_closed_until_both_in_line_sides_are_covered() -> None:
    lay = build("55", "51L")
    assert not lay.fits(tile_id((5, 2)), UP)
    assert "in-line sides" in lay.explain(tile_id((5, 2)), UP)
    assert not build("64").fits(tile_id((4, 2)), UP)
    assert "no double (spinner)" in build("64").explain(tile_id((4, 2)), UP)


def test_s7_spinner_counts_both_halves_until_both_sides_covered_then_nothing() -> None:
    assert counts("66") == [12]
    assert counts("66", "62L") == [12, 2 + 12]
    assert counts("66", "62L", "63R") == [12, 14, 5]


def test_s7_up_and_down_count_only_once_a_tile_is_on_them() -> None:
    lay = build("55", "51L", "52R")
    assert lay.count == 3
    lay.play(*decode(code("53U")))
    assert lay.count == 6
    lay.play(*decode(code("54D")))
    assert lay.count == 10


def test_s7_crosswise_double_at_the_end_of_an_up_arm_counts_both_halves() -> None:
    assert counts("55", "51L", "52R", "53U", "33U")[-1] == 1 + 2 + 6


def test_s8_only_positive_multiples_of_five_score() -> None:
    assert [play_points(c) for c in (0, 5, 7, 10, 12, 15, 20)] == [0, 5, 0, 10, 0, 15, 20]
    # A count of 0 ([0-0] opening) scores nothing.
    assert play_points(counts("00")[0]) == 0


# ----- placements -------------------------------------------------------------------------------


END_NAME = {v: k for k, v in END_INDEX.items()}


def test_a_tile_that_fits_several_ends_gives_one_code_per_end() -> None:
    hand = mask_of([(5, 4)])
    assert [END_NAME[decode(c)[1]] for c in build("55", "51L", "53R").play_codes(hand)] == ["up", "down"]
    assert [END_NAME[decode(c)[1]] for c in build("44").play_codes(mask_of([(4, 2)]))] == ["left", "right"]
    # [6-1] fits the left end by its 6 and the right end by its 1.
    assert [END_NAME[decode(c)[1]] for c in build("62", "21R").play_codes(mask_of([(6, 1)]))] == [
        "left",
        "right",
    ]
    assert build("41").play_codes(0) == []


def test_opening_codes_are_every_tile_in_hand() -> None:
    hand = mask_of([(6, 4), (0, 0), (3, 2)])
    assert sorted(decode(c) for c in Layout().play_codes(hand)) == sorted(
        (tile_id(t), OPENING) for t in [(6, 4), (0, 0), (3, 2)]
    )


def test_play_codes_agree_with_fits_on_every_tile_and_end() -> None:
    lay = build("55", "51L", "52R", "53U")
    everything = (1 << 28) - 1
    listed = set(lay.play_codes(everything))
    for tid in range(28):
        for end in range(5):
            assert (encode(tid, end) in listed) == lay.fits(tid, end)


def test_playable_and_count_after_leave_the_layout_unchanged() -> None:
    lay = build("64")
    before = lay.snapshot()
    assert lay.count_after(tile_id((4, 4)), RIGHT) == 14
    assert lay.playable(mask_of([(4, 4), (3, 2)])) == mask_of([(4, 4)])
    assert lay.snapshot() == before


def test_explain_messages() -> None:
    lay = build("64")
    assert lay.explain(tile_id((5, 3)), LEFT) == "[5-3] fits no open end (left 6, right 4)"
    assert lay.explain(tile_id((4, 3)), LEFT) == "[4-3] does not fit the left end (6): play it on the right"
    assert lay.explain(tile_id((6, 4)), None) == "name the end for [6-4]: left or right"
    assert lay.explain(tile_id((6, 3)), None) == "name the end for [6-3]: left"
    assert lay.explain(tile_id((6, 3)), UP) == "there is no up end: no double (spinner) has been played yet"
    assert Layout().explain(tile_id((6, 3)), LEFT) == "[6-3] is the opening tile: it takes no end"
    lay = build("64", "44R")
    expected = "the down end opens only once both in-line sides of the spinner are covered"
    assert lay.explain(tile_id((4, 2)), DOWN) == expected
    assert build("64", "44R", "41R").explain(tile_id((5, 1)), UP) == (
        "[5-1] does not fit the up end (4): play it on the right"
    )


# ----- the drawable layout ------------------------------------------------------------------------


def test_layout_view_arms_orientation_and_spinner_position() -> None:
    lv = layout_view([code(s) for s in ("64", "44R", "41R", "43U", "62L")])
    assert lv.opening == (6, 4)
    assert lv.spinner == (4, 4) and lv.spinner_arm == "right" and lv.spinner_index == 0
    assert [(p.tile, p.inner, p.outer, p.crosswise) for p in lv.right] == [
        ((4, 4), 4, 4, True),
        ((4, 1), 4, 1, False),
    ]
    assert [(p.tile, p.inner, p.outer) for p in lv.left] == [((6, 2), 6, 2)]
    assert [(p.tile, p.inner, p.outer) for p in lv.up] == [((4, 3), 4, 3)]
    assert lv.down == ()
    assert dict(lv.open_ends) == {"left": 2, "right": 1, "up": 3, "down": 4}
    assert lv.count == 2 + 1 + 3
    assert lv.as_dict()["arms"]["right"][0] == {"tile": [4, 4], "inner": 4, "outer": 4, "crosswise": True}


def test_layout_view_of_an_opening_spinner_and_empty_layout() -> None:
    lv = layout_view([code("55")])
    assert lv.spinner == (5, 5) and lv.spinner_arm == "centre" and lv.spinner_index is None
    empty = layout_view([])
    assert empty.opening is None and empty.open_ends == () and empty.count == 0
    assert empty.count_after((5, 5), None) == 10
