"""Issue #24 item 7: a bots-only table somebody watches moves at a pace a person can follow."""

from __future__ import annotations

from table_kit import FakeHost, player

from boneyard.server.table import Table

FLOOR = 0.05
"""``bots_only_move_seconds``: the server's pace for tables of bots only."""
PACE = 0.5
"""``bot_delay_seconds``: the pace of bots at a table where a person sits."""


def bots_table(host: FakeHost, delay_ms: int | None = None) -> Table:
    table = host.table("moon", bots=[0, 1, 2])
    table.bot_delay_ms = delay_ms
    return table


def moves_by(table: Table, host: FakeHost, seconds: float) -> int:
    """Actions accepted once the clock has moved on ``seconds`` (in steps of a millisecond)."""
    steps = round(seconds * 1000)
    for _ in range(steps):
        host.clock.advance(0.001)
    assert table.match is not None
    return table.match.moves


def test_nobody_watching_the_bots_move_at_the_server_s_floor() -> None:
    host = FakeHost(bots_only_move_seconds=FLOOR, bot_delay_seconds=PACE)
    table = bots_table(host)
    table.cycle.maybe_start()
    assert moves_by(table, host, 1.0) >= 15  # one move per floor, give or take the millisecond steps


def test_a_watched_table_moves_at_the_pace_of_a_table_with_people() -> None:
    host = FakeHost(bots_only_move_seconds=FLOOR, bot_delay_seconds=PACE)
    table = bots_table(host)
    wes = player("wes", 4)
    table.seating.spectate(wes.session, reply_to=None)
    table.cycle.maybe_start()
    assert moves_by(table, host, PACE - 0.01) == 0
    assert moves_by(table, host, 0.02) == 1
    assert moves_by(table, host, 2 * PACE) == 3
    table.seating.leave(wes.session)  # nobody watches any more: after the move due, back to the floor
    moved = table.match.moves if table.match is not None else 0
    assert moves_by(table, host, 2 * PACE) >= moved + 1 + 6


def test_the_floor_holds_and_a_creator_s_pace_is_kept_while_watched() -> None:
    host = FakeHost(bots_only_move_seconds=0.8, bot_delay_seconds=PACE)  # the floor above the pace
    table = bots_table(host)
    wes = player("wes", 4)
    table.seating.spectate(wes.session, reply_to=None)
    table.cycle.maybe_start()
    assert moves_by(table, host, 0.79) == 0 and moves_by(table, host, 0.02) == 1

    asked = FakeHost(bots_only_move_seconds=FLOOR, bot_delay_seconds=PACE)
    own = bots_table(asked, delay_ms=1200)  # the watcher's own watch table: its creator's pace
    ana = player("ana", 5)
    own.seating.spectate(ana.session, reply_to=None)
    own.cycle.maybe_start()
    assert moves_by(own, asked, 1.19) == 0 and moves_by(own, asked, 0.02) == 1
