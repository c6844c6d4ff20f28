"""The 42 bots' partnership play and judgement, in positions built on the lean state."""

from __future__ import annotations

from texas42_script import T

from boneyard.server.games.texas42.playout import greedy_move, play_out
from boneyard.server.games.texas42.search import bid_value, contract, outcome
from boneyard.server.games.texas42.state import HAND_OVER, TexasState
from boneyard.server.games.tiles import ALL_TILES, mask_of
from boneyard.server.games.tricks import NELLO, NO_TRUMP


def position(hands: list[str], bidder: int, trump: int, bid: int, played: str = "") -> TexasState:
    """``bidder``'s contract with ``hands`` (one string a seat), after the tiles ``played`` in turn."""
    st = TexasState()
    st.hands = [mask_of(T(h)) for h in hands]
    contract(st, bidder, trump, bid)
    for tile in T(played):
        st.push(mask_of([tile]).bit_length() - 1)
    return st


def test_a_seat_gives_count_to_its_partners_sure_trick() -> None:
    # Sixes trump; seat 0 leads [6-6], seat 1 throws off: seat 2 (void in sixes) smears [5-5] onto it.
    st = position(["66 65 64 63", "10 20 30 40", "55 21 43 31", "11 22 33 44"], 0, 6, 30, "66 10")
    assert ALL_TILES[greedy_move(st)] == (5, 5)


def test_an_opponent_keeps_its_count_from_a_trick_it_cannot_win() -> None:
    st = position(["66 65 64 63", "55 21 43 31", "10 20 30 40", "11 22 33 44"], 0, 6, 30, "66")
    assert ALL_TILES[greedy_move(st)] != (5, 5)


def test_a_nello_bidder_ducks_under_the_trick_with_its_highest_loser() -> None:
    # Nello by seat 0 (seat 2 sits out): seat 3 leads [5-5]; seat 0 must follow doubles, [4-4] loses and
    # [6-6] would win, so [4-4].
    st = position(["66 44 61", "11 21 31", "10 20 30", "55 32 54"], 0, NELLO, 42)
    st.leader = st.to_move = 3
    st.push(mask_of([(5, 5)]).bit_length() - 1)
    assert st.to_move == 0 and ALL_TILES[greedy_move(st)] == (4, 4)


def test_outcome_weighs_marks_first_then_the_points_between_the_teams() -> None:
    hands = ["66 65 64 63 62 61 60", "55 54 53 52 51 50 11", "44 43 42 41 40 33 32", "22 21 20 31 30 10 00"]
    st = TexasState()
    st.hands = [mask_of(T(h)) for h in hands]
    contract(st, 0, 6, 30)
    play_out(st)  # seat 0 holds every six: it draws trumps and takes the hand
    assert st.phase == HAND_OVER and st.made == 1
    ours, theirs = outcome(st, 0), outcome(st, 1)
    assert ours > 10 > 0 > -10 > theirs and ours == -theirs


def test_a_bid_is_worth_its_marks_when_made_and_costs_them_when_set() -> None:
    assert bid_value([42, 42, 42], 84) == 2.0
    assert bid_value([41, 42], 42) == 0.0
    assert bid_value([29, 29, 35, 35], 30) == 0.0
    assert bid_value([29, 29, 29, 35], 30) == -0.5


def test_no_trump_and_doubles_contracts_play_out_to_a_decision() -> None:
    hands = ["66 65 64 63 62 61 60", "55 54 53 52 51 50 11", "44 43 42 41 40 33 32", "22 21 20 31 30 10 00"]
    for trump in (NO_TRUMP, 7, NELLO):
        st = TexasState()
        st.hands = [mask_of(T(h)) for h in hands]
        contract(st, 1, trump, 42)
        play_out(st)
        assert st.phase == HAND_OVER and st.made in (1, -1)
