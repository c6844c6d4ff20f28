"""What a table tells the people at it, through a real server on loopback: the engine's reason for a
refused action, the chat history, the per-table bot delay, the record id at game end."""

from __future__ import annotations

from server_testkit import Player, running_server

from boneyard.server.games.base import either
from boneyard.server.games.moon.rules import BIDS


async def test_a_refused_bid_gets_the_engines_reason_in_the_error_reply() -> None:
    async with running_server(seed=11) as server:
        ana = await Player.connect(server.url, "ana")
        table_id = (await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2])).table.table_id
        turn = await ana.until(lambda m: m.type == "turn" and bool(m.legal_actions))
        legal = turn.legal_actions
        bids = [a.bid for a in legal if a.type == "bid"]
        allowed = either([str(b) for b in bids] + ["pass"])
        if bids[0] > 4:  # a bot bid before ana: bidding the high bid again is too low
            high = BIDS[BIDS.index(bids[0]) - 1]
            reply = await ana.request(type="act", table_id=table_id, action={"type": "bid", "bid": high})
            expected = f"the high bid is {high}: bid {allowed}"
        else:  # nobody has bid yet: a discard is out of place
            reply = await ana.request(
                type="act", table_id=table_id, action={"type": "discard", "tile": [6, 6]}
            )
            expected = f"the bidding is not over: bid {allowed}"
        assert (reply.type, reply.code, reply.message) == ("error", "illegal_action", expected)
        # Said once: the error is the only reply, and nothing else names it.
        assert [m for m in ana.log if m.type == "error"] == [reply]
