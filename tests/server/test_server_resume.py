"""Dropping and resuming: missed messages come back exactly once, in order; bad tokens are refused."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from server_testkit import Player, choose, is_event, running_server


def public_events(messages: list[Any], table_id: str) -> list[dict[str, Any]]:
    """A table's events as everyone may see them (private tiles blanked, deals left out), in order."""
    out = []
    for m in messages:
        if m.type == "event" and m.table_id == table_id:
            event = m.event.model_dump()
            if event["type"] == "hand_dealt":
                continue
            if event["type"] in ("widow_taken", "discarded", "tile_drawn"):
                event["tile"] = None
            out.append(event)
    return out


def content(message: Any) -> dict[str, Any]:
    """A message without its seq (replayed messages are renumbered)."""
    return message.model_dump(exclude={"seq"})


async def three_seat_table(url: str) -> tuple[list[Player], Player, str]:
    """Three humans at a Moon table and a spectator who watched from before the deal."""
    players = [await Player.connect(url, name) for name in ("ana", "bo", "cy")]
    created = await players[0].request(type="create_table", game="moon", seat=0, turn_seconds=None)
    table_id = created.table.table_id
    watcher = await Player.connect(url, "wes")
    await watcher.request(type="spectate", table_id=table_id)
    for seat in (1, 2):
        await players[seat].request(type="join", table_id=table_id, seat=seat)
    return players, watcher, table_id


async def play_turns(player: Player, table_id: str, turns: int) -> None:
    """Act on this player's next ``turns`` turns, then stop right after an act's ``ok`` that passed
    the turn to another seat (a Moon bidder discards and names trump in a row)."""
    rng = random.Random(player.name)
    while turns:
        message = await player.next()
        if message.type == "turn" and message.seat == player.seat and message.legal_actions:
            sent = await player.send(
                type="act", table_id=table_id, action=choose(message.legal_actions, rng).model_dump()
            )
            assert (await player.reply_to(sent)).type == "ok"
            last_turn = [m for m in player.log if m.type == "turn"][-1]
            if last_turn.seat != player.seat or turns > 1:
                turns -= 1


async def her_turn_again(watcher: Player, ana: Player, table_id: str) -> None:
    """The spectator saw the game go on past what Ana saw, to her next turn."""
    seen = len(public_events(ana.log, table_id))
    await watcher.until(
        lambda m: m.type == "turn" and m.seat == 0 and len(public_events(watcher.log, table_id)) > seen,
        timeout=10,
    )


async def test_a_resumed_player_gets_exactly_the_missed_messages_in_order() -> None:
    async with running_server(seed=11) as server:
        (ana, bo, cy), watcher, table_id = await three_seat_table(server.url)
        others = [asyncio.create_task(p.play(table_id)) for p in (bo, cy)]
        await play_turns(ana, table_id, 5)
        # Ana has been sent everything up to her act's ``ok`` but processed only up to last_seq.
        received, last_seq = ana.seq, ana.seq - 3
        unprocessed = [content(m) for m in ana.log if m.seq > last_seq]
        token = ana.token
        ana.ws.transport.abort()  # the connection drops: no closing handshake
        # The others play on until it is Ana's turn again; the table then waits for her.
        await her_turn_again(watcher, ana, table_id)

        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", resume={"token": token, "last_seq": last_seq}
        )
        assert welcome.type == "welcome" and welcome.resumed and welcome.seats[0].seat == 0
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert [m.seq for m in replayed] == list(range(welcome.seq + 1, welcome.seq + 1 + welcome.replayed))
        assert [content(m) for m in replayed[: received - last_seq]] == unprocessed
        missed_while_away = replayed[received - last_seq :]
        assert any(m.type == "event" for m in missed_while_away), "events happened while she was away"
        assert any(m.type == "seat_status" and not m.connected for m in missed_while_away)

        back.seat = 0
        over = await back.play(table_id)
        await asyncio.gather(*others)
        await watcher.until(is_event("game_over"))
        # Everything Ana processed: the first connection up to last_seq, then the new one.
        hers = [m for m in ana.log if m.seq <= last_seq] + back.log
        assert public_events(hers, table_id) == public_events(watcher.log, table_id)
        assert over.winner in (0, 1, 2)


async def test_a_player_too_far_behind_gets_a_fresh_snapshot() -> None:
    async with running_server(seed=12, resume_buffer_frames=16) as server:
        (ana, bo, cy), watcher, table_id = await three_seat_table(server.url)
        others = [asyncio.create_task(p.play(table_id)) for p in (bo, cy)]
        await play_turns(ana, table_id, 3)
        token = ana.token
        await ana.close()
        await her_turn_again(watcher, ana, table_id)

        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(type="identify", name="ana", resume={"token": token, "last_seq": 1})
        assert welcome.resumed and welcome.replayed == 0
        snapshot = await back.next()
        assert snapshot.type == "snapshot" and snapshot.table.table_id == table_id
        assert snapshot.view.viewer == 0 and len(snapshot.view.hand) > 0 and snapshot.view.to_move == 0
        assert snapshot.view.legal_actions, "she may act at once"
        back.seat = 0
        await back.play(table_id)
        await asyncio.gather(*others)


async def test_wrong_stale_and_replaced_tokens() -> None:
    timing = {"grace_seconds": 0.05, "session_seconds": 0.1, "bot_delay_seconds": 0.05}
    async with running_server(seed=13, **timing) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        seated = await ana.until(lambda m: m.type == "seated")
        token = seated.token

        wrong = await Player.connect(server.url, "x", identify=False)
        await wrong.send(type="identify", name="x", resume={"token": "A" * 32, "last_seq": 0})
        assert await wrong.closed_with() == 4002

        # A second connection resuming the session replaces the first, which is closed with 4003.
        second = await Player.connect(server.url, "ana", identify=False)
        welcome = await second.request(
            type="identify", name="ana", resume={"token": token, "last_seq": ana.seq}
        )
        assert welcome.resumed and welcome.seats[0].table_id == table_id
        assert await ana.closed_with() == 4003

        # Dropped past the grace period and the session time: the seat is given up, the token is stale.
        watcher = await Player.connect(server.url, "wes")
        await watcher.request(type="spectate", table_id=table_id)
        await second.close()
        update = await watcher.until(
            lambda m: m.type == "table_updated" and m.table.seats[0].name != "ana", timeout=5
        )
        assert update.table.seats[0].bot and update.table.seats[0].name == "bot-0"
        stale = await Player.connect(server.url, "ana", identify=False)
        await stale.send(type="identify", name="ana", resume={"token": token, "last_seq": 0})
        assert await stale.closed_with() == 4002
