"""What a table tells the people at it, through a real server on loopback: the engine's reason for a
refused action, the chat history, the per-table bot delay, the record id at game end; spectators capped and
sharing a chat limit."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack
from durability_kit import durable
from server_testkit import Player, running_server, too_early

from boneyard.protocol import CHAT_HISTORY_LINES, FEATURE_BOT_DELAY, ChatLine
from boneyard.protocol.values import MAX_BOT_DELAY_MS
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


# -- chat history ---------------------------------------------------------------------------------------


async def test_late_joiners_and_spectators_get_the_last_50_chat_lines() -> None:
    async with running_server(chat_per_minute=1000) as server:
        ana, wes, bo = [await Player.connect(server.url, n) for n in ("ana", "wes", "bo")]
        table_id = (await ana.request(type="create_table", game="moon", seat=0)).table.table_id
        first = await ana.until(lambda m: m.type == "snapshot")
        assert first.chat == ()
        for n in range(CHAT_HISTORY_LINES + 2):
            assert (await ana.request(type="chat", table_id=table_id, text=f"line {n}")).type == "ok"
        watched = await wes.request(type="spectate", table_id=table_id)
        said = [(line.seat, line.name, line.text) for line in watched.chat]
        assert said == [(0, "ana", f"line {n}") for n in range(2, CHAT_HISTORY_LINES + 2)]
        await wes.request(type="chat", table_id=table_id, text="hello from the rail")
        await bo.request(type="join", table_id=table_id, seat=1)
        joined = await bo.until(lambda m: m.type == "snapshot")
        assert len(joined.chat) == CHAT_HISTORY_LINES
        assert (joined.chat[0].text, joined.chat[-1]) == (
            "line 3",
            ChatLine(seat=None, name="wes", text="hello from the rail"),
        )
        # Chat is all that the history adds: the spectator's view still holds no tile.
        assert watched.view is None and joined.view is None
        # The game's start sends everyone a snapshot, with the history in it too.
        await (await Player.connect(server.url, "cy")).request(type="join", table_id=table_id, seat=2)
        started = await wes.until(lambda m: m.type == "snapshot")
        assert started.view is not None and started.view.hand == () and started.chat == joined.chat


async def test_chat_history_is_kept_in_memory_only_a_restart_forgets_it(tmp_path: Path) -> None:
    async with durable(tmp_path, chat_per_minute=1000) as server:
        ana = await Player.connect(server.url, "ana")
        table_id = (
            await ana.request(type="create_table", game="straight", options={"players": 2}, seat=0)
        ).table.table_id
        await ana.request(type="chat", table_id=table_id, text="anyone?")
        before = await (await Player.connect(server.url, "wes")).request(type="spectate", table_id=table_id)
        assert [line.text for line in before.chat] == ["anyone?"]
    async with durable(tmp_path) as server:
        wes = await Player.connect(server.url, "wes")
        watched = await wes.request(type="spectate", table_id=table_id)
        assert watched.type == "snapshot" and watched.table.seats[0].name == "ana" and watched.chat == ()


# -- the per-table bot delay ------------------------------------------------------------------------

MOVES = ("bid_made", "passed", "discarded", "trump_named", "tile_played")
"""The events of a Moon move."""


async def test_a_bots_only_table_made_to_be_watched_plays_at_its_creators_pace() -> None:
    delay_ms, moves = 300, 6
    async with running_server() as server:
        wes = await Player.connect(server.url, "wes")
        assert FEATURE_BOT_DELAY in wes.log[0].features
        created = await wes.request(
            type="create_table", game="moon", bots=[0, 1, 2], seat=None, bot_delay_ms=delay_ms
        )
        assert created.table.bot_delay_ms == delay_ms
        table_id = created.table.table_id
        loop = asyncio.get_running_loop()
        started = loop.time()
        watched = await wes.request(type="spectate", table_id=table_id)
        assert watched.table.bot_delay_ms == delay_ms and watched.table.status == "playing"
        # The bots wait between moves: the game is still at its first hand, and moves come at the pace.
        assert watched.view.hand_number == 0
        seen = []
        while len(seen) < moves:
            message = await wes.next()
            if message.type == "event" and message.event.type in MOVES:
                seen.append(loop.time())
        assert not too_early(started, seen, delay_ms / 1000), seen
        listed = await wes.request(type="list_tables")
        assert [t.bot_delay_ms for t in listed.tables] == [delay_ms]
        plain = await wes.request(type="create_table", game="moon", seat=None)
        assert plain.table.bot_delay_ms is None  # the server's default


async def test_a_bot_delay_out_of_bounds_is_refused_and_creates_nothing() -> None:
    async with running_server() as server:
        ana = await Player.connect(server.url, "ana")
        for bad in (MAX_BOT_DELAY_MS + 1, -1, 1.5, "500"):
            command = {"type": "create_table", "id": 1, "game": "moon", "seat": None, "bot_delay_ms": bad}
            await ana.ws.send(msgpack.packb(command))
            reply = await ana.next()
            assert (reply.type, reply.code, reply.reply_to) == ("error", "invalid_message", 1), bad
        assert (await ana.request(type="list_tables")).tables == ()


async def test_the_bot_delay_is_stored_and_restored_with_the_table(tmp_path: Path) -> None:
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], bot_delay_ms=2500)
        table_id = created.table.table_id
    async with durable(tmp_path) as server:
        assert server.lobby is not None and server.lobby.tables[table_id].bot_delay_ms == 2500
        wes = await Player.connect(server.url, "wes")
        listed = await wes.request(type="list_tables")
        assert [(t.table_id, t.bot_delay_ms) for t in listed.tables] == [(table_id, 2500)]


# -- the record id at game end ------------------------------------------------------------------------


async def test_everyone_at_the_table_learns_the_record_id_at_game_end() -> None:
    # Seed 2: ana leads, so nothing is played before the spectator arrives.
    async with running_server(seed=2) as server:
        ana, wes, late = [await Player.connect(server.url, n) for n in ("ana", "wes", "late")]
        created = await ana.request(
            type="create_table", game="straight", options={"players": 2, "target": 5}, seat=0, bots=[1]
        )
        table_id = created.table.table_id
        assert created.table.record_id is None
        await wes.request(type="spectate", table_id=table_id)
        ana.seat = 0
        over = await ana.play(table_id)
        assert over.record_id is not None
        # The spectator hears the same game_over, record id included.
        watched = (await wes.until(lambda m: m.type == "event" and m.event.type == "game_over")).event
        assert watched.record_id == over.record_id
        # The table's description names it from then on: in the update to those at the table...
        for player in (ana, wes):
            finished = await player.until(
                lambda m: m.type == "table_updated" and m.table.status == "finished"
            )
            assert finished.table.record_id == over.record_id
        # ...and to whoever comes later, who may fetch the record with it.
        snapshot = await late.request(type="spectate", table_id=table_id)
        assert snapshot.table.record_id == over.record_id and snapshot.view.is_over
        record = await late.request(type="get_record", record_id=snapshot.table.record_id)
        assert record.type == "record" and record.record.winner == over.winner


async def test_the_last_record_id_is_stored_and_restored_with_the_table(tmp_path: Path) -> None:
    async with durable(tmp_path, seed=3) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(
            type="create_table", game="straight", options={"players": 2, "target": 5}, seat=0, bots=[1]
        )
        ana.seat = 0
        over = await ana.play(created.table.table_id)
        await ana.until(lambda m: m.type == "table_updated" and m.table.status == "finished")
    async with durable(tmp_path) as server:
        wes = await Player.connect(server.url, "wes")
        (table,) = (await wes.request(type="list_tables")).tables
        assert (table.table_id, table.status, table.record_id) == (
            created.table.table_id,
            "finished",
            over.record_id,
        )
        assert (await wes.request(type="get_record", record_id=table.record_id)).type == "record"


# Spectators cannot amplify (issue #15, item 6): a cap per table, one count update for many joins, and a
# chat limit shared by a table's spectators.


async def seated_table(url: str) -> tuple[Player, str]:
    ana = await Player.connect(url, "ana")
    created = await ana.request(type="create_table", game="moon", seat=0, bots=[1], turn_seconds=None)
    return ana, created.table.table_id


async def test_a_table_takes_at_most_max_spectators_as_hello_announces() -> None:
    async with running_server(max_spectators=2) as server:
        ana, table_id = await seated_table(server.url)
        assert ana.log[0].limits.max_spectators == 2
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(3)]
        for watcher in watchers[:2]:
            assert (await watcher.request(type="spectate", table_id=table_id)).type == "snapshot"
        refused = await watchers[2].request(type="spectate", table_id=table_id)
        assert (
            refused.type == "error" and refused.code == "unavailable" and "max_spectators" in refused.message
        )
        assert (await watchers[0].request(type="leave", table_id=table_id)).type == "ok"
        assert (await watchers[2].request(type="spectate", table_id=table_id)).type == "snapshot"


async def test_many_spectators_joining_cost_the_table_one_count_update_not_one_per_join() -> None:
    async with running_server(lobby_push_seconds=0.2) as server:
        ana, table_id = await seated_table(server.url)
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(20)]
        await asyncio.gather(*(w.request(type="spectate", table_id=table_id) for w in watchers))
        update = await ana.until(lambda m: m.type == "table_updated" and m.table.spectators == 20, timeout=5)
        assert update.table.spectators == 20
        counts = [m.table.spectators for m in ana.log if m.type == "table_updated"]
        assert len(counts) <= 3, counts  # not 20: joins within a push interval are one update
        # Every spectator also hears the count (not every join): few table_updated each.
        last = watchers[0]
        await last.until(lambda m: m.type == "table_updated" and m.table.spectators == 20, timeout=5)
        assert len([m for m in last.log if m.type == "table_updated"]) <= 3


async def test_a_tables_spectators_share_a_chat_limit_and_players_keep_theirs() -> None:
    async with running_server(spectator_chat_per_minute=3) as server:
        ana, table_id = await seated_table(server.url)
        assert ana.log[0].limits.spectator_chat_per_minute == 3
        watchers = [await Player.connect(server.url, f"w{i}") for i in range(4)]
        for watcher in watchers:
            await watcher.request(type="spectate", table_id=table_id)
        for watcher in watchers[:3]:
            assert (await watcher.request(type="chat", table_id=table_id, text="hi")).type == "ok"
        refused = await watchers[3].request(type="chat", table_id=table_id, text="hi")
        assert refused.type == "error" and refused.code == "rate_limited", refused
        assert "spectator" in refused.message
        assert (await ana.request(type="chat", table_id=table_id, text="still mine")).type == "ok"
