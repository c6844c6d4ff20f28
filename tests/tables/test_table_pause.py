"""The pause between hands in the table tier, on a manual clock: the next hand waits for the pause's end
or for every human's ``ready``; no turn and no clock run meanwhile; away seats count as ready; a table
of bots only is not slowed unless its creator asks; a restore resumes the pause with its time left."""

from __future__ import annotations

from typing import Any

import pytest
from table_kit import FakeHost, Player, act, play_turn, player, ready
from test_table_tier import lobby_with_clock

from boneyard.protocol import decode_server_message
from boneyard.server.errors import CommandError
from boneyard.server.games.registry import game_spec
from boneyard.server.storage.restore import restore
from boneyard.server.table import Table
from boneyard.server.wire import stamp


def to_the_pause(table: Table, clock: Any, humans: dict[int, Player], *, limit: int = 5_000) -> None:
    """Play (humans: their first legal action; bots: on the clock) until the table pauses after a hand."""
    for _ in range(limit):
        match = table.match
        if match is not None and match.pause is not None:
            return
        mover = match.engine.to_move if match is not None and match.engine is not None else None
        if mover in humans and humans[mover].of_type("turn") and humans[mover].last("turn").legal_actions:
            play_turn(table, humans[mover])
        else:
            clock.advance(0.5)
    raise AssertionError("the hand never ended")


def started(who: Player) -> int:
    return sum(1 for m in who.of_type("event") if m.event.type == "hand_started")


def moon_for_two(host: FakeHost, **kwargs: Any) -> tuple[Table, Player, Player]:
    table = host.table("moon", bots=[2], **kwargs)
    ana, bo = player("ana", 1), player("bo", 2)
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    return table, ana, bo


def test_the_next_hand_waits_until_every_human_is_ready() -> None:
    host = FakeHost(hand_pause_seconds=8.0)
    table, ana, bo = moon_for_two(host)
    to_the_pause(table, host.clock, {0: ana, 1: bo})
    assert table.match is not None and table.engine is not None
    engine, moves = table.engine, table.moves
    for who in (ana, bo):
        pause = who.last("hand_pause").pause
        assert (pause.hand_number, pause.time_left_ms, pause.ready, pause.waiting) == (0, 8000, (), (0, 1))
    assert engine.to_move is None and table.match.turns.time_left_ms() is None  # no turn, no clock
    hands, turns = started(ana), len(ana.of_type("turn"))
    # A snapshot taken now carries the pause, and shows the hand that ended.
    host.clock.advance(3.0)
    snapshot = decode_server_message(stamp(table.snapshot_body(0), 1))
    assert snapshot.pause is not None and snapshot.pause.time_left_ms == 5000
    assert snapshot.view.to_move is None and snapshot.view.phase in ("scored", "thrown_in")
    assert snapshot.view.hand_number == 0 and snapshot.time_left_ms is None
    with pytest.raises(CommandError) as refused:
        act(table, ana, {"type": "pass"})
    assert (refused.value.code, refused.value.message) == (
        "not_your_turn",
        "the hand is over: the next one is not dealt yet",
    )

    ana.new(), bo.new()
    ready(table, ana)
    (told,) = bo.new()
    assert (told.type, told.pause.ready, told.pause.waiting) == ("hand_pause", (0,), (1,))
    ready(table, ana)  # again: nothing changes, nobody is told
    assert bo.new() == [] and table.match.pause is not None
    ready(table, bo)  # the last human: the next hand at once
    assert table.match.pause is None
    assert started(ana) == hands + 1 and len(ana.of_type("turn")) == turns + 1
    assert table.moves == moves and engine.to_move is not None and engine.hand_number == 1
    ready(table, ana)  # outside a pause: nothing
    assert table.match.pause is None


def test_the_pause_ends_on_time_and_no_turn_clock_runs_in_it() -> None:
    host = FakeHost(hand_pause_seconds=30.0)
    table, ana, bo = moon_for_two(host, turn_seconds=10)
    to_the_pause(table, host.clock, {0: ana, 1: bo})
    moves, hands = table.moves, started(ana)
    host.clock.advance(29.9)  # three turn times: nothing is played for anyone
    assert table.match is not None and table.match.pause is not None
    assert table.moves == moves and started(ana) == hands
    assert [s.timeouts for s in table.seats] == [0, 0, 0] and not any(s.auto for s in table.seats)
    host.clock.advance(0.2)
    assert table.match.pause is None and started(ana) == hands + 1
    assert table.engine is not None and table.engine.to_move is not None


def test_an_away_player_counts_as_ready() -> None:
    host = FakeHost(hand_pause_seconds=8.0)
    table, ana, bo = moon_for_two(host)
    to_the_pause(table, host.clock, {0: ana, 1: bo})
    hands = started(ana)
    ready(table, ana)
    bo.session.client = None
    table.seat_disconnected(1)  # dropped, within the grace period: still waited for
    assert table.match is not None and table.match.pause is not None
    table.seat_away(1)  # away now: the server plays for bo, so nobody is left to wait for
    assert table.match.pause is None and started(ana) == hands + 1


@pytest.mark.parametrize("asked", [None, 2000])
def test_a_bots_only_table_pauses_only_when_asked(asked: int | None) -> None:
    host = FakeHost(hand_pause_seconds=8.0, bots_only_move_seconds=0.0, bot_delay_seconds=0.0)
    table = host.table("moon", bots=[0, 1, 2])
    table.hand_pause_ms = asked
    wes = player("wes", 4)
    table.seating.spectate(wes.session, reply_to=None)
    table.cycle.maybe_start()
    run = 0
    while started(wes) < 2 and run < 10_000:
        host.clock.advance(0.001)
        run += 1
    scored = next(
        i for i, m in enumerate(wes.messages) if m.type == "event" and m.event.type == "hand_scored"
    )
    if asked is None:
        assert wes.of_type("hand_pause") == []
        assert host.clock.now <= 0.001  # hand after hand, at the bots' pace (here: at once)
        return
    pause = wes.last("hand_pause").pause
    assert (pause.time_left_ms, pause.waiting) == (2000, ())  # nobody to wait for: it runs its length
    assert scored < wes.messages.index(wes.last("hand_pause"))
    assert host.clock.now >= 2.0


def test_a_restored_table_resumes_its_pause_with_its_time_left_and_ready_seats() -> None:
    log = FakeHost().table_log
    lobby, clock = lobby_with_clock(log, hand_pause_seconds=40.0, grace_seconds=10)
    moon = game_spec("moon")
    table = lobby.open_table(moon, moon.options_from_dict({}), 30, bots=[2])
    ana, bo = Player(lobby.new_session("ana")), Player(lobby.new_session("bo"))
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    to_the_pause(table, clock, {0: ana, 1: bo})
    ready(table, ana)
    clock.advance(6.0)
    assert table.match is not None and table.match.pause is not None
    before = table.match.engine.view(0) if table.match.engine else None

    again, clock2 = lobby_with_clock(log, hand_pause_seconds=40.0, grace_seconds=10)
    clock2.wall_offset = clock.wall() - clock2.time()  # the restart took no time
    tables, sessions = log.load()
    assert restore(again, tables, sessions, clock2.wall(), again.settings.grace_seconds) == 1
    back = again.tables[table.table_id]
    assert back.match is not None and back.match.pause is not None and back.engine is not None
    assert back.engine.view(0) == before and back.engine.between_hands
    assert back.match.pause.ready == {0} and back.hand_ready == [0]
    info = back.match.breaks.info()
    assert info is not None and info["waiting"] == [1]  # bo has dropped, but within the grace period
    assert abs(int(info["time_left_ms"]) - 34_000) <= 10  # type: ignore[call-overload]
    clock2.advance(9.9)
    assert back.match.pause is not None and back.moves == table.moves
    clock2.advance(0.2)  # bo did not come back within the grace period: away, so ready
    assert back.seats[1].auto and back.match.pause is None and back.engine.hand_number == 1


@pytest.mark.parametrize("pause_seconds", [0.0, 40.0])
@pytest.mark.parametrize(("game", "options"), [("moon", {}), ("straight", {"players": 3})])
def test_a_table_restored_after_the_next_deal_resumes_that_hand_not_a_pause(
    game: str, options: dict[str, Any], pause_seconds: float
) -> None:
    """Stopped between a hand's deal and its first action: the next hand was dealt (at once, or at the
    pause's end), so it comes back dealt, its first turn to its stored deadline, with no pause."""
    log = FakeHost().table_log
    lobby, clock = lobby_with_clock(log, hand_pause_seconds=pause_seconds, grace_seconds=10)
    spec = game_spec(game)
    table = lobby.open_table(spec, spec.options_from_dict(options), 30, bots=[2])
    ana, bo = Player(lobby.new_session("ana")), Player(lobby.new_session("bo"))
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    for _ in range(5_000):
        if started(ana) >= 2:
            break
        if table.match is not None and table.match.pause is not None:
            ready(table, ana), ready(table, bo)
            continue
        engine = table.engine
        mover = engine.to_move if engine is not None else None
        who = {0: ana, 1: bo}.get(mover) if mover is not None else None
        if who is not None and who.of_type("turn") and who.last("turn").legal_actions:
            play_turn(table, who)
        else:
            clock.advance(0.5)
    live = table.engine
    assert live is not None and live.hand_number == 1 and live.to_move is not None
    assert table.match is not None and table.match.pause is None
    moves = table.moves
    if live.to_move in (0, 1):
        clock.advance(2.0)  # some of the human's turn goes by (a bot to move would move meanwhile)
    assert table.moves == moves  # nobody has acted in hand 1
    left = table.match.turns.time_left_ms()

    again, clock2 = lobby_with_clock(log, hand_pause_seconds=pause_seconds, grace_seconds=10)
    clock2.wall_offset = clock.wall() - clock2.time()  # the restart took no time
    tables, sessions = log.load()
    assert restore(again, tables, sessions, clock2.wall(), again.settings.grace_seconds) == 1
    back = again.tables[table.table_id]
    assert back.match is not None and back.engine is not None
    assert back.match.pause is None and back.hand_ready is None and not back.engine.between_hands
    assert (back.engine.hand_number, back.engine.to_move) == (1, live.to_move)
    assert back.engine.view(0) == live.view(0) and back.moves == table.moves
    if live.to_move in (0, 1):  # a human's first turn goes on to its stored deadline
        assert left is not None and abs((back.match.turns.time_left_ms() or 0) - left) <= 10
