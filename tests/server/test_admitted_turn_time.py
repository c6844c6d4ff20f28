"""An invite admits a player to a private untimed table, it does not stop their clock (issue #25): a
stranger the creator admitted to a bot's seat plays on the server's turn time, times out and is played
for like any timed seat, while the creator's own seat stays untimed (a real server over loopback)."""

from __future__ import annotations

import random

from server_testkit import Player, choose, running_server
from test_bot_seats import untimed


async def test_an_invited_stranger_in_a_bots_seat_times_out_and_the_creator_stays_untimed() -> None:
    async with running_server(turn_seconds=5) as server:  # the shortest turn time the server allows
        ana, bob = await Player.connect(server.url, "ana"), await Player.connect(server.url, "bob")
        table_id = await untimed(ana, private=True)
        invite = next(m.invite for m in ana.log if m.type == "table_created")
        assert (
            await bob.request(type="take_seat", table_id=table_id, seat=1, invite=invite)
        ).type == "seated"
        assert (await ana.request(type="join", table_id=table_id, seat=0)).type == "seated"
        # Ana plays her turns (untimed); Bob never acts, on the server's 5 s.
        rng = random.Random(4)
        while (turn := await ana.until(lambda m: m.type == "turn" and m.seat in (0, 1))).seat == 0:
            assert turn.time_left_ms is None, "the creator's own turns have no timer"
            if turn.legal_actions:
                action = choose(turn.legal_actions, rng).model_dump()
                await ana.send(type="act", table_id=table_id, action=action)
        assert turn.time_left_ms == 5_000, "the admitted stranger's turn runs on the server's turn time"
        played = await ana.until(lambda m: m.type == "event" and getattr(m.event, "seat", None) == 1, 10)
        assert played.auto, "his time ran out: the server played his turn for him"
        mine = await ana.until(lambda m: m.type == "turn" and m.seat == 0)
        assert mine.time_left_ms is None, "and the creator's turn after it is still untimed"
