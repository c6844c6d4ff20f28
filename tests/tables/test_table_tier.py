"""The table tier on its own: no sockets, no event loop. A fake host and a manual clock drive tables
through joining, leaving, taking a bot's seat and its hand-over, turn timeouts, away players,
rematches and a restore; every frame the players get is decoded strictly."""

from __future__ import annotations

import pytest
from table_kit import ACTION, FakeHost, Player, act, play_turn, player, settings

from boneyard.server.errors import CommandError
from boneyard.server.games.registry import game_spec
from boneyard.server.host import ManualClock
from boneyard.server.lobby import Lobby
from boneyard.server.metrics import Metrics
from boneyard.server.record_store import MemoryRecordStore
from boneyard.server.storage.restore import restore
from boneyard.server.table import Table


def run_until(host: FakeHost, done: object, *, step: float = 0.5, limit: int = 2_000) -> None:
    """Advance the clock in steps until ``done()`` holds."""
    for _ in range(limit):
        if done():  # type: ignore[operator]
            return
        host.clock.advance(step)
    raise AssertionError("the table never got there")


def seat_to_move(table: Table) -> int | None:
    assert table.match is not None
    return table.match.engine.to_move


def test_join_starts_the_game_and_each_player_sees_only_their_own_tiles() -> None:
    host = FakeHost()
    table = host.table("straight", {"players": 2})
    ana, bo = player("ana", 1), player("bo", 2)
    table.seating.join(ana.session, 0, reply_to=7)
    seated, waiting = ana.new()
    assert (seated.type, seated.reply_to, seated.seat, seated.token) == ("seated", 7, 0, "token-of-player-p1")
    assert (waiting.type, waiting.table.status, waiting.view) == ("snapshot", "waiting", None)
    assert table.status == "waiting" and host.changes == ["t1"]

    table.seating.join(bo.session, 1, reply_to=None)
    assert table.status == "playing" and table.games == 1
    for who, seat in ((ana, 0), (bo, 1)):
        snapshot = who.last("snapshot")
        assert snapshot.table.status == "playing" and snapshot.view.viewer == seat
        dealt = {m.event.seat: m.event.tiles for m in who.of_type("event") if m.event.type == "hand_dealt"}
        assert sorted(dealt[seat]) == sorted(snapshot.view.hand)
        assert all(tiles is None for at, tiles in dealt.items() if at != seat)  # the other hand stays hidden
    mover = seat_to_move(table)
    assert mover is not None
    for who, seat in ((ana, 0), (bo, 1)):
        turn = who.last("turn")
        assert turn.seat == mover and turn.time_left_ms == 30_000
        assert bool(turn.legal_actions) == (seat == mover)  # legal actions go to the seat to move only

    with pytest.raises(CommandError) as refused:
        table.seating.join(player("cy", 3).session, 0, reply_to=None)
    assert refused.value.code == "seat_taken"
    with pytest.raises(CommandError) as refused:
        table.seating.join(ana.session, 1, reply_to=None)
    assert refused.value.code == "already_seated"


def test_acting_goes_through_the_engine_and_out_of_turn_is_refused() -> None:
    host = FakeHost()
    table = host.table("straight", {"players": 2})
    players = [player("ana", 1), player("bo", 2)]
    for seat, who in enumerate(players):
        table.seating.join(who.session, seat, reply_to=None)
    mover = seat_to_move(table)
    assert mover is not None
    waiting = players[1 - mover]
    with pytest.raises(CommandError) as refused:
        act(table, waiting, players[mover].last("turn").legal_actions[0].model_dump())
    assert refused.value.code == "not_your_turn"
    assert table.moves == 0 and host.table_log.actions.get("t1") in (None, [])

    play_turn(table, players[mover])
    assert table.moves == 1 and len(host.table_log.actions["t1"]) == 1  # written ahead
    assert host.metrics.counts == {"player": 1}
    assert waiting.last("turn").seat == seat_to_move(table)


def test_leaving_mid_game_hands_the_seat_to_a_bot_and_the_last_human_out_removes_the_table() -> None:
    host = FakeHost(bot_delay_seconds=1.0)
    table = host.table("moon", bots=[2])
    ana, bo = player("ana", 1), player("bo", 2)
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    assert table.status == "playing"
    table.leave(bo.session)
    assert table.seats[1].bot and table.seats[1].name == "bot-1" and not bo.session.tables
    assert bo.session in host.in_lobby
    assert ana.last("turn").seat == seat_to_move(table)  # ana still gets the table's messages
    with pytest.raises(CommandError) as refused:
        table.leave(bo.session)
    assert refused.value.code == "not_seated"
    run_until(host, lambda: seat_to_move(table) == 0)  # the bot plays bo's seat now
    table.leave(ana.session)
    assert host.removed == ["t1"] and table.removed and not ana.session.tables
    assert host.clock.pending() == []  # the removed table's timer is gone


def test_taking_a_bots_seat_mid_hand_waits_for_the_hand_over() -> None:
    host = FakeHost(bot_delay_seconds=1.0)
    table = host.table("moon", {"target": 7}, bots=[1, 2])
    ana, cy = player("ana", 1), player("cy", 3)
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.take_seat(cy.session, 2, reply_to=3)
    seat = table.seats[2]
    assert seat.handing_over and seat.name == "cy"
    seated, snapshot, commitment = cy.new()
    assert (seated.type, seated.reply_to, seated.seat) == ("seated", 3, 2)
    assert (commitment.type, commitment.game_number) == ("deal_commitment", 1)  # what the deal is bound to
    assert snapshot.view.legal_actions == ()  # the bot plays on: no actions for cy yet
    with pytest.raises(CommandError) as refused:
        act(table, cy, {"type": "bid", "bid": 4})
    assert refused.value.code == "not_your_turn"

    # Ana passes her turns (times out) and bots play until the next hand starts: then cy has the seat.
    run_until(host, lambda: not seat.handing_over, step=1.0, limit=20_000)
    assert not seat.bot and seat.session is cy.session
    started = [m for m in cy.of_type("event") if m.event.type == "hand_started"]
    assert started, "the seat passed to cy as a hand started"
    run_until(host, lambda: seat_to_move(table) == 2, step=1.0)
    assert cy.last("turn").seat == 2 and cy.last("turn").legal_actions


def test_a_turn_that_times_out_is_played_by_the_server_and_repeated_timeouts_mean_auto_play() -> None:
    host = FakeHost(timeouts_before_auto=2, auto_turn_seconds=2.0)
    table = host.table("straight", {"players": 2}, bots=[1], turn_seconds=10)
    ana = player("ana")
    table.seating.join(ana.session, 0, reply_to=None)
    run_until(host, lambda: seat_to_move(table) == 0)
    moves, left = table.moves, table.match.turns.time_left_ms()
    assert left is not None and 9_500 <= left <= 10_000
    host.clock.advance(left / 1000 - 0.1)
    assert table.moves == moves
    host.clock.advance(0.2)  # ana's time is up: the server plays for her, marked auto
    assert table.moves > moves and table.seats[0].timeouts == 1 and not table.seats[0].auto
    played = [m for m in ana.of_type("event") if m.auto]
    assert played and host.metrics.counts.get("auto") == 1

    run_until(host, lambda: seat_to_move(table) == 0)
    host.clock.advance(10.0)
    assert table.seats[0].auto  # the second timeout in a row: the server plays her seat
    status = ana.last("seat_status")
    assert (status.seat, status.auto, status.connected) == (0, True, True)
    run_until(host, lambda: seat_to_move(table) == 0, step=0.1)
    moves = table.moves
    host.clock.advance(1.8)
    assert table.moves == moves  # auto-play waits auto_turn_seconds: time to take the seat back
    play_turn(table, ana)  # acting takes the seat back
    assert not table.seats[0].auto and table.seats[0].timeouts == 0
    assert not ana.last("seat_status").auto


def test_a_finished_game_starts_again_when_every_player_asks_for_a_rematch() -> None:
    host = FakeHost(timeouts_before_auto=1, auto_turn_seconds=0.0, bot_delay_seconds=0.0)
    table = host.table("moon", {"target": 1}, bots=[1], turn_seconds=5)
    ana, bo = player("ana", 1), player("bo", 2)
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 2, reply_to=None)
    run_until(host, lambda: table.status == "finished", step=5.0, limit=10_000)
    over = ana.last("event").event
    assert over.type == "game_over" and over.record_id == "r1" and host.records.get("r1") is not None
    with pytest.raises(CommandError) as refused:
        act(table, ana, {"type": "pass"})
    assert refused.value.code in ("game_over", "not_your_turn", "illegal_action")
    assert host.clock.pending() == []  # nothing runs at a finished table

    table.cycle.request_rematch(table.seat_of(ana.session))
    assert table.status == "finished" and table.rematch == {0}
    table.cycle.request_rematch(table.seat_of(bo.session))
    assert table.status == "playing" and table.games == 2 and table.moves == 0 and table.rematch == set()
    assert all(seat.timeouts == 0 for seat in table.seats)


def test_rematch_before_the_end_is_refused_and_a_waiting_seat_left_is_empty_again() -> None:
    host = FakeHost()
    table = host.table("straight", {"players": 3})
    ana = player("ana")
    table.seating.join(ana.session, 1, reply_to=None)
    with pytest.raises(CommandError) as refused:
        table.cycle.request_rematch(table.seat_of(ana.session))
    assert refused.value.code == "game_in_progress"
    table.leave(ana.session)
    assert not table.seats[1].held and host.removed == ["t1"]  # nobody is left: removed


def lobby_with_clock(table_log: object = None, **overrides: object) -> tuple[Lobby, ManualClock]:
    clock = ManualClock()
    lobby = Lobby(settings(**overrides), Metrics(lambda: []), MemoryRecordStore(10), clock)
    if table_log is not None:
        lobby.table_log = table_log  # type: ignore[assignment]
    return lobby, clock


def test_an_away_player_is_played_for_after_the_grace_period_and_expires_to_a_bot() -> None:
    lobby, clock = lobby_with_clock(grace_seconds=30, session_seconds=60, bot_delay_seconds=1.0)
    ana, bo = Player(lobby.new_session("ana")), Player(lobby.new_session("bo"))
    moon = game_spec("moon")
    table = lobby.open_table(moon, moon.options_from_dict({}), 30, bots=[2])
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    assert table.status == "playing"

    bo.session.client = None
    lobby.session_dropped(bo.session)
    status = ana.last("seat_status")
    assert (status.seat, status.connected, status.auto) == (1, False, False)
    clock.advance(30.0)
    assert table.seats[1].auto  # away past the grace period: the server plays for bo
    assert ana.last("seat_status").auto

    back = Player(bo.session)  # bo resumes: his seat is his again
    table.seat_connected(1)
    assert not table.seats[1].auto and ana.last("seat_status").connected

    back.session.client = None
    lobby.session_dropped(back.session)
    clock.advance(30.0 + 60.0)  # grace, then the session expires: bo gives up the seat, a bot takes it
    assert table.seats[1].bot and table.seats[1].session is None
    assert back.session.token not in lobby.by_token


def test_a_restored_table_is_the_same_game_with_the_same_players_and_deadline() -> None:
    host = FakeHost(bot_delay_seconds=1.0)
    log = host.table_log
    lobby, clock = lobby_with_clock(log, bot_delay_seconds=1.0)
    ana = Player(lobby.new_session("ana"))
    moon = game_spec("moon")
    table = lobby.open_table(moon, moon.options_from_dict({}), 20, bots=[1, 2])
    table.seating.join(ana.session, 0, reply_to=None)
    for _ in range(200):
        if seat_to_move(table) == 0 and table.moves >= 3:
            break
        if seat_to_move(table) == 0:
            play_turn(table, ana)
        else:
            clock.advance(1.0)
    assert seat_to_move(table) == 0 and table.moves >= 3
    clock.advance(5.0)
    before = table.match.engine.view(0) if table.match else None  # type: ignore[union-attr]

    again, clock2 = lobby_with_clock(log, bot_delay_seconds=1.0, grace_seconds=5)
    clock2.wall_offset = clock.wall() - clock2.time()  # the same wall clock: the restart took no time
    tables, sessions = log.load()
    assert restore(again, tables, sessions, clock2.wall(), again.settings.grace_seconds) == 1
    back = again.tables[table.table_id]
    assert (back.status, back.games, back.moves, back.seed) == ("playing", 1, table.moves, table.seed)
    assert back.match is not None and back.match.engine.view(0) == before
    assert [s.name for s in back.seats] == ["ana", "bot-1", "bot-2"]
    restored_ana = back.seats[0].session
    assert (
        restored_ana is not None
        and restored_ana.player_id == ana.session.player_id
        and restored_ana.client is None
    )
    assert restored_ana.tables == {back: 0} and again.by_token[restored_ana.token or ""] is restored_ana
    left = back.match.turns.time_left_ms()
    assert left is not None and abs(left - 15_000) <= 1_000  # the stored deadline, not a fresh turn
    assert (
        again.new_session("cy").player_id != restored_ana.player_id
    )  # new ids never clash with restored ones


def test_a_game_commits_to_its_deal_and_waits_for_the_players_seeds_on_the_clock() -> None:
    host = FakeHost(deal_seed_wait_ms=1000)
    table = host.table("straight", {"players": 2})
    ana, bo = player("ana", 1), player("bo", 2)
    table.seating.join(ana.session, 0, reply_to=None)
    table.seating.join(bo.session, 1, reply_to=None)
    commitment = ana.last("deal_commitment")
    assert (commitment.game_number, list(commitment.seats), commitment.wait_ms) == (1, [0, 1], 1000)
    assert table.status == "playing" and table.engine is None and not ana.of_type("turn")
    table.cycle.contribute(table.seat_of(ana.session), "ab" * 32)
    assert bo.last("seed_contributed").seat == 0 and table.engine is None  # bo's seed may still come
    host.clock.advance(0.999)
    assert table.engine is None
    host.clock.advance(0.002)  # the wait is over: dealt with the seeds that came
    assert table.engine is not None and ana.last("turn").seat == seat_to_move(table)
    with pytest.raises(CommandError) as refused:
        table.cycle.contribute(table.seat_of(bo.session), "cd" * 32)
    assert refused.value.code == "seed_closed"


def test_the_last_seed_deals_at_once() -> None:
    host = FakeHost(deal_seed_wait_ms=5000)
    table = host.table("straight", {"players": 2}, bots=[1])
    ana = player("ana")
    table.seating.join(ana.session, 0, reply_to=None)
    assert table.engine is None
    table.cycle.contribute(table.seat_of(ana.session), "ef" * 32)  # the only human seat: no need to wait
    assert table.engine is not None and host.clock.now == 0.0


def test_listeners_who_neither_acted_nor_move_next_share_one_folded_event() -> None:
    # turn_in_event: the actor's event carries its ok, the mover's its legal actions; everyone else gets
    # the same public event with the public turn inside: one body, one copy in every resume log.
    host = FakeHost()
    table = host.table("straight", {"players": 4}, turn_seconds=None)
    people = [player(name, n) for n, name in enumerate(("ana", "bo", "cy", "di"), 1)]
    for seat, who in enumerate(people):
        who.session.folds = True
        who.session.start_log()
        table.seating.join(who.session, seat, reply_to=None)
    actor = seat_to_move(table)
    assert actor is not None
    legal = people[actor].last("event").turn.legal_actions
    table.act(people[actor].session, ACTION.validate_python(legal[0].model_dump()), reply_to=5)
    mover = seat_to_move(table)
    others = [who for seat, who in enumerate(people) if seat not in (actor, mover)]
    assert len(others) == 2
    last = [who.session.log[-1] for who in others]  # type: ignore[index]
    assert last[0] is last[1]
    for who in people:
        event = who.last("event")
        assert event.turn.seat == mover and bool(event.turn.legal_actions) == (who is people[mover])
        assert (event.reply_to == 5) == (who is people[actor])
