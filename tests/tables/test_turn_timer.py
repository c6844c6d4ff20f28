"""A turn's timer on a manual clock: a player times out exactly their turn time after their turn began,
whatever deadlines came before (the timer armed for an earlier one waits again for the rest of the
new one), and a deadline that has gone never times anyone out."""

from __future__ import annotations

from table_kit import FakeHost, Player, play_turn, player

from boneyard.server.table import Table

TURN = 10
JUST = 1e-3
"""Less than a clock step of any test here, more than the timer's float tolerance."""


def humans(
    game: str, options: dict[str, object], count: int, turn_seconds: int | None
) -> tuple[FakeHost, Table, list[Player]]:
    host = FakeHost()
    table = host.table(game, options, turn_seconds=turn_seconds)
    players = [player(f"p{i}", i + 1) for i in range(count)]
    table.owner = players[0].session.player_id
    for seat, who in enumerate(players):
        table.seating.join(who.session, seat, reply_to=None)
    return host, table, players


def mover(table: Table) -> int:
    assert table.match is not None and table.match.engine is not None
    seat = table.match.engine.to_move
    assert seat is not None
    return seat


def quick_turns(host: FakeHost, table: Table, players: list[Player], turns: int, step: float) -> None:
    """``turns`` actions, each ``step`` seconds into its turn: each sets a later deadline than the last."""
    for _ in range(turns):
        host.clock.advance(step)
        play_turn(table, players[mover(table)])


def test_a_player_times_out_exactly_a_turn_time_after_their_turn_began_after_many_quick_turns() -> None:
    host, table, players = humans("straight", {"players": 2}, 2, TURN)
    quick_turns(host, table, players, 7, 3.0)
    seat, moves = mover(table), table.moves
    assert table.match.turns.time_left_ms() == TURN * 1000
    host.clock.advance(TURN - JUST)  # past the deadlines of every turn before: the timer waits on
    assert table.moves == moves and table.seats[seat].timeouts == 0
    assert table.match.turns.time_left_ms() in (0, 1)
    host.clock.advance(2 * JUST)
    assert table.seats[seat].timeouts == 1 and table.moves > moves  # the server played for them
    played = players[seat].last("event")
    assert played.auto and played.event.seat == seat


def test_a_shorter_deadline_than_the_armed_one_times_out_on_time() -> None:
    host, table, players = humans("straight", {"players": 2}, 2, TURN)
    quick_turns(host, table, players, 3, 1.0)
    seat, moves = mover(table), table.moves
    assert table.match is not None
    table.match.resume_turn(2.0)  # as after a restore: less time left than the timer is armed for
    assert table.match.turns.time_left_ms() == 2000
    host.clock.advance(2.0 - JUST)
    assert table.moves == moves
    host.clock.advance(2 * JUST)
    assert table.seats[seat].timeouts == 1 and table.moves > moves


def test_an_untimed_owner_is_never_timed_out_by_the_timer_armed_for_the_player_before() -> None:
    # An untimed open table: its owner (seat 0) has no timer, the players who joined it do.
    host, table, players = humans("moon", {}, 3, None)
    while mover(table) != 0:
        host.clock.advance(1.0)
        play_turn(table, players[mover(table)])
    moves = table.moves
    assert table.match.turns.time_left_ms() is None
    host.clock.advance(10 * 30.0)  # far past the last timed player's deadline
    assert table.moves == moves and table.seats[0].timeouts == 0 and table.match.turns.time_left_ms() is None
    play_turn(table, players[0])
    seat, moves = mover(table), table.moves
    assert seat != 0 and table.match.turns.time_left_ms() == host.settings.turn_seconds * 1000
    host.clock.advance(host.settings.turn_seconds + JUST)
    assert table.seats[seat].timeouts == 1 and table.moves > moves
