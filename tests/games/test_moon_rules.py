"""Moon rule tables and scoring: docs/RULES.md worked examples 1-12 and rules M1, M2, M8-M10, M12, M13."""

from __future__ import annotations

import pytest

from boneyard.server.games.moon.rules import (
    LED_TRUMP,
    MOON_MASK,
    MOON_TILES,
    POWER,
    SUIT_MASK,
    TRUMP_MASK,
    ids_of,
    is_trump,
    led_suit,
    legal_follows,
    settle,
    trick_winner,
    trump_index,
    trump_order,
)
from boneyard.server.games.tiles import ALL_TILES, TILE_IDS, Tile


def T(text: str) -> list[Tile]:
    """Tiles written ``"6-4 3-1"`` or ``"64 31"``."""
    return [(int(w[0]), int(w[-1])) for w in text.split()]


def suit(trump: object, number: int) -> list[Tile]:
    """The tiles that follow a lead in suit ``number``, highest first."""
    t = trump_index(trump)
    power = POWER[t * 8 + number]
    return sorted(
        (ALL_TILES[i] for i in ids_of(SUIT_MASK[t * 8 + number])), key=lambda x: -power[TILE_IDS[x]]
    )


# -- worked examples 1-12 ----------------------------------------------------------------------------


def test_example_01_no_plain_five_held_so_all_three_are_legal() -> None:
    assert led_suit((5, 3), 6) == 5
    assert legal_follows(6, (5, 3), T("65 42 21")) == T("65 42 21")


def test_example_02_a_non_trump_follows_in_both_suits_but_a_trump_never_follows() -> None:
    assert legal_follows(6, (4, 2), T("54 64 31")) == T("54")


def test_example_03_a_trump_lead_must_be_followed_with_trump() -> None:
    assert led_suit((5, 1), 5) == "trump"
    assert legal_follows(5, (5, 1), T("53 32")) == T("53")


def test_example_04_double_heads_its_suit_and_any_trump_beats_it() -> None:
    assert trick_winner(6, T("42 54 44")) == 2
    assert trick_winner(6, T("42 54 61")) == 2


def test_example_05_trump_order_for_threes() -> None:
    assert trump_order(3) == T("33 63 53 43 32 31")


def test_example_06_doubles_trump_number_suits_hold_only_non_doubles() -> None:
    assert legal_follows("doubles", (5, 3), T("55 51")) == T("51")
    assert legal_follows("doubles", (5, 3), T("55 21")) == T("55 21")
    assert trick_winner("doubles", T("53 55 21")) == 1


def test_example_07_doubles_trump_lead_must_be_followed_with_a_double() -> None:
    assert led_suit((2, 2), "doubles") == "trump"
    assert legal_follows("doubles", (2, 2), T("66 62 21")) == T("66")
    assert legal_follows("doubles", (2, 2), T("62 21")) == T("62 21")
    assert trick_winner("doubles", T("22 66 21")) == 1


def test_example_08_no_trump_double_wins_its_suit_and_an_off_suit_double_cannot_win() -> None:
    assert trick_winner("none", T("62 66 65")) == 1
    assert trick_winner("none", T("62 65 66")) == 2
    assert trick_winner("none", T("62 22 61")) == 0
    assert trick_winner("none", T("62 61 22")) == 0


def test_example_09_blank_double_lead_cannot_be_followed() -> None:
    everything_else = [t for t in MOON_TILES if t != (0, 0) and not is_trump(t, 3)]
    assert legal_follows(3, (0, 0), everything_else) == everything_else
    assert trick_winner(3, T("00 66 55")) == 0
    assert trick_winner(3, T("00 66 31")) == 2
    assert trick_winner(3, T("00 32 31")) == 1


def test_example_10_bids_of_five() -> None:
    assert settle(5, 0, (6, 1, 0), (0, 0, 0), 21)[0] == (5, 1, 0)
    assert settle(5, 0, (4, 2, 1), (0, 0, 0), 21)[0] == (-5, 2, 1)


def test_example_11_bid_of_21() -> None:
    points, scores, winner = settle(21, 0, (7, 0, 0), (0, 0, 0), 21)
    assert (points, scores, winner) == ((21, 0, 0), (21, 0, 0), 0)
    points, scores, winner = settle(21, 0, (6, 1, 0), (0, 0, 0), 21)
    assert (points, scores, winner) == ((-21, 1, 0), (-21, 1, 0), None)


def test_example_12_tie_on_top_plays_on() -> None:
    points, scores, winner = settle(4, 0, (4, 3, 0), (19, 20, 5), 21)
    assert points == (4, 3, 0)
    assert scores == (23, 23, 5)
    assert winner is None


# -- M1, M2, M8-M10 ----------------------------------------------------------------------------------


def test_m1_the_set_is_double_six_without_blanks_except_double_blank() -> None:
    assert len(MOON_TILES) == 22
    assert (0, 0) in MOON_TILES
    assert not [t for t in MOON_TILES if t[1] == 0 and t[0] > 0]
    assert len(ids_of(MOON_MASK)) == 22


def test_m2_rank_in_a_suit_is_double_then_other_number() -> None:
    assert suit("none", 6) == T("66 65 64 63 62 61")
    assert suit("none", 1) == T("11 61 51 41 31 21")
    assert suit("none", 0) == T("00")


def test_m8_number_trump_is_only_a_trump() -> None:
    # [6-3] is a trump under 3 and so is no longer in suit 6.
    assert suit(3, 6) == T("66 65 64 62 61")
    assert len(trump_order(6)) == 6
    assert trump_order(0) == T("00")
    assert suit(0, 0) == []


def test_m8_doubles_trump_ranks_doubles_by_number_and_empties_suit_zero() -> None:
    assert trump_order("doubles") == T("66 55 44 33 22 11 00")
    assert suit("doubles", 0) == []
    assert suit("doubles", 6) == T("65 64 63 62 61")


def test_m8_no_trump_has_no_trumps() -> None:
    assert trump_order("none") == []
    assert TRUMP_MASK[trump_index("none")] == 0


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5, 6, "doubles", "none"])
def test_m9_every_tile_follows_its_own_lead(trump: object) -> None:
    t = trump_index(trump)
    for tile in MOON_TILES:
        led = led_suit(tile, trump)  # type: ignore[arg-type]
        index = LED_TRUMP if led == "trump" else led
        assert SUIT_MASK[t * 8 + index] >> TILE_IDS[tile] & 1


def test_m9_led_suit_is_the_higher_number_of_a_non_trump() -> None:
    assert led_suit((6, 2), 4) == 6
    assert led_suit((6, 2), 6) == "trump"
    assert led_suit((6, 2), 2) == "trump"
    assert led_suit((3, 3), "none") == 3
    assert led_suit((6, 5), "doubles") == 6


def test_m10_a_tile_that_neither_follows_nor_trumps_never_wins() -> None:
    for trump in (0, 1, 2, 3, 4, 5, 6, "doubles", "none"):
        t = trump_index(trump)
        for led in range(8):
            power = POWER[t * 8 + led]
            members = SUIT_MASK[t * 8 + led] | TRUMP_MASK[t]
            for i in ids_of(MOON_MASK):
                assert (power[i] >= 0) == bool(members >> i & 1)


def test_trump_index_refuses_what_is_not_a_trump() -> None:
    for bad in (7, -1, True, "all", None, 3.0):
        with pytest.raises(ValueError):
            trump_index(bad)


# -- M12, M13 ----------------------------------------------------------------------------------------


def test_m12_nothing_extra_for_overtricks_and_scores_may_go_negative() -> None:
    assert settle(4, 1, (0, 7, 0), (0, 0, 0), 21)[0] == (0, 4, 0)
    assert settle(7, 2, (1, 0, 6), (3, 0, 2), 21)[1] == (4, 0, -5)


def test_m12_a_made_21_wins_even_when_another_score_is_higher() -> None:
    assert settle(21, 2, (0, 0, 7), (20, 20, -30), 100)[2] == 2


def test_m13_a_lone_top_score_at_the_target_wins() -> None:
    assert settle(4, 1, (3, 4, 0), (10, 17, 20), 21) == ((3, 4, 0), (13, 21, 20), 1)
    assert settle(4, 1, (3, 4, 0), (10, 16, 20), 21)[2] is None
    assert settle(4, 1, (3, 4, 0), (10, 16, 20), 20)[2] is None  # 20 / 20: a tie plays on
    assert settle(4, 1, (3, 4, 0), (10, 15, 20), 20)[2] == 2  # target option
