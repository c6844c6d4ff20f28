"""The client core against a real server on loopback: lobby, joining, whole games, dropped connections."""

from __future__ import annotations

import asyncio
from typing import Any

import client_support
import pytest
from client_support import auto_play, public, wait_for

from boneyard.clients.cli import bots
from boneyard.clients.cli.core import CommandError, ConnectionLost, NotConnected, Notice
from boneyard.clients.cli.replay import steps
from boneyard.protocol import ChatMessage, TableCreated

# Fixtures from client_support (a conftest.py here would clash with tests/conftest.py).
server = client_support.server
url = client_support.url
proxy = client_support.proxy
connect = client_support.connect


async def test_lobby_join_chat_spectate_errors(connect: Any) -> None:
    ana, bob, cy = await connect("ana"), await connect("bob"), await connect("cy")
    assert ana.welcome is not None and not ana.welcome.resumed and ana.welcome.seats == ()
    created = await ana.create_table("moon", bots=[1], seat=0, turn_seconds=60)
    assert isinstance(created, TableCreated) and created.table.status == "waiting"
    table_id = created.table.table_id
    await wait_for(bob, lambda: table_id in bob.mirror.lobby)  # pushed to everyone in the lobby

    seated = await bob.join(table_id, 2)
    assert seated.seat == 2 and bob.token == seated.token
    await wait_for(ana, lambda: ana.mirror.tables[table_id].view is not None)
    await wait_for(bob, lambda: bob.mirror.tables[table_id].view is not None)
    assert ana.mirror.tables[table_id].view.viewer == 0  # type: ignore[union-attr]
    assert len(bob.mirror.tables[table_id].view.hand) == 7  # type: ignore[union-attr]

    snapshot = await cy.spectate(table_id)
    assert snapshot.view is not None and snapshot.view.viewer is None and snapshot.view.hand == ()
    await ana.chat(table_id, "good luck")
    await wait_for(bob, lambda: any(m.text == "good luck" for m in bob.mirror.tables[table_id].chat))
    await wait_for(cy, lambda: any(isinstance(m, ChatMessage) for m in cy.mirror.tables[table_id].chat))

    for attempt, code in [
        (bob.join(table_id, 0), {"seat_taken", "already_seated"}),
        (cy.join("no-such-table", 0), {"no_such_table"}),
        (cy.get_record("nothing-here"), {"no_such_record"}),
    ]:
        with pytest.raises(CommandError) as error:
            await attempt
        assert error.value.code in code and error.value.explain()
    mover = ana if ana.mirror.tables[table_id].my_turn else bob
    idle = bob if mover is ana else ana
    if not idle.mirror.tables[table_id].my_turn:
        with pytest.raises(CommandError) as error:
            await idle.act(table_id, {"type": "pass"})
        assert error.value.code == "not_your_turn"
    await cy.leave(table_id)
    assert table_id not in cy.mirror.tables
    assert (await ana.ping()).type == "pong"


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [
        ("moon", {"target": 7}, 3),
        ("straight", {"players": 2, "target": 60}, 2),
        ("straight", {"players": 4, "partnerships": True, "target": 60}, 4),
    ],
)
async def test_whole_game_mirror_matches_the_server(
    connect: Any, game: str, options: dict[str, Any], players: int
) -> None:
    player, watcher = await connect("ana"), await connect("watcher")
    created = await player.create_table(game, options=options, bots=list(range(1, players)), turn_seconds=60)
    table_id = created.table.table_id
    await watcher.spectate(table_id)
    await auto_play(player, table_id, lambda m: m.game_over is not None)

    mirror = player.mirror.tables[table_id]
    over = mirror.game_over
    assert over is not None and mirror.view is not None and mirror.view.to_move is None
    assert tuple(mirror.view.scores) == tuple(over.scores)
    assert mirror.view.winner == over.winner
    await wait_for(watcher, lambda: watcher.mirror.tables[table_id].game_over is not None)
    assert public(watcher.mirror.tables[table_id]) == public(mirror)  # two mirrors, two streams, one game
    fresh = await (await connect("late")).spectate(table_id)  # and what the server says now
    assert fresh.view is not None and fresh.view.scores == mirror.view.scores

    assert over.record_id is not None
    record = (await player.get_record(over.record_id)).record
    assert tuple(record.final_scores) == tuple(over.scores) and record.winner == over.winner
    assert steps(record)[-1].title == "Game over"  # the replayer reads what the server wrote


async def test_reconnects_and_resumes_after_the_connection_drops(connect: Any, proxy: Any) -> None:
    ana = await connect("ana", f"ws://127.0.0.1:{proxy.port}/")
    notices: list[Notice] = []

    async def collect() -> None:
        async for item in ana.listen():
            if isinstance(item, Notice):
                notices.append(item)

    collector = asyncio.create_task(collect())
    created = await ana.create_table("moon", options={"target": 9}, bots=[1, 2], turn_seconds=60)
    table_id = created.table.table_id
    for round_ in range(3):
        plays = (
            sum(len(t) for t in ana.mirror.tables[table_id].view.played)
            if ana.mirror.tables[table_id].view
            else 0
        )  # type: ignore[union-attr]
        await auto_play(
            ana,
            table_id,
            lambda m, p=plays: (
                m.game_over is not None
                or (m.view is not None and sum(len(t) for t in getattr(m.view, "played", ())) >= p + 2)
            ),
        )
        proxy.drop()
        await wait_for(ana, lambda: ana.welcome is not None and ana.welcome.resumed and ana.connected)
        assert [s.table_id for s in ana.welcome.seats] == [table_id], round_  # type: ignore[union-attr]
    await auto_play(ana, table_id, lambda m: m.game_over is not None)
    collector.cancel()

    kinds = [n.kind for n in notices]
    assert kinds.count("disconnected") == 3 and kinds.count("resumed") == 3
    assert all(n.code == 1006 for n in notices if n.kind == "disconnected")
    mirror = ana.mirror.tables[table_id]
    assert mirror.seat == 0 and mirror.game_over is not None
    watcher = await connect("watcher")
    fresh = await watcher.spectate(table_id)
    assert fresh.view is not None and mirror.view is not None
    assert fresh.view.scores == mirror.view.scores and fresh.view.hand_number == mirror.view.hand_number


async def test_a_rejected_resume_identifies_afresh(connect: Any, proxy: Any) -> None:
    ana = await connect("ana", f"ws://127.0.0.1:{proxy.port}/")
    created = await ana.create_table("moon", bots=[1, 2], turn_seconds=60)
    table_id = created.table.table_id
    await wait_for(ana, lambda: ana.mirror.tables[table_id].view is not None)
    ana.token = "not-a-token-the-server-knows"  # as if the server had forgotten us
    rejected: list[Notice] = []

    async def watch() -> None:
        async for item in ana.listen():
            if isinstance(item, Notice) and item.kind == "resume_rejected":
                rejected.append(item)

    watcher = asyncio.create_task(watch())
    proxy.drop()
    await wait_for(ana, lambda: bool(rejected) and ana.connected)
    watcher.cancel()
    assert not ana.welcome.resumed  # type: ignore[union-attr]
    assert ana.mirror.tables[table_id].seat is None and ana.token is None
    assert (await ana.list_tables()).tables  # a working session again


async def test_closing_ends_listening_and_commands(connect: Any) -> None:
    ana = await connect("ana")
    stream = ana.listen()
    await ana.close()
    items = [item async for item in stream]
    assert isinstance(items[-1], Notice) and items[-1].kind == "closed" and ana.close_code == 1000
    with pytest.raises(NotConnected):
        await ana.list_tables()


async def test_the_example_bot_plays_a_whole_game(url: str) -> None:
    from boneyard.clients.cli.examples.random_bot import play

    over = await asyncio.wait_for(play(url, "straight", {"players": 2}, seed=3), 40)
    assert over.winner in (0, 1) and over.record_id


async def test_a_command_in_flight_when_the_connection_drops(connect: Any, proxy: Any) -> None:
    ana = await connect("ana", f"ws://127.0.0.1:{proxy.port}/")
    created = await ana.create_table("moon", options={"target": 5}, bots=[1, 2], turn_seconds=60)
    table_id = created.table.table_id
    outcomes: list[str] = []
    for _ in range(3):
        await auto_play(ana, table_id, lambda m: m.my_turn or m.game_over is not None)
        mirror = ana.mirror.tables[table_id]
        if mirror.game_over is not None:
            break
        assert mirror.view is not None
        act = asyncio.create_task(ana.act(table_id, bots.choose(mirror.view)))
        await asyncio.sleep(0)  # the frame is on its way...
        proxy.drop()  # ...and the connection goes
        try:
            await act
            outcomes.append("ok")  # the reply came first, or was replayed after the resume
        except ConnectionLost:
            outcomes.append("lost")  # it may or may not have happened: the mirror will tell
        await wait_for(ana, lambda: ana.connected and ana.welcome is not None and ana.welcome.resumed)
    await auto_play(ana, table_id, lambda m: m.game_over is not None)
    assert outcomes and ana.mirror.tables[table_id].seat == 0


async def test_the_folded_shape_reaches_listeners_as_the_messages_it_stands_for(connect: Any) -> None:
    """Feature ``turn_in_event``: a client that opts in (the default) and one that does not see the same
    game, message for message, the first in fewer frames; its acts are answered all the same."""
    ana, bo = await connect("ana"), await connect("bo", fold_turns=False)
    folded_watch, plain_watch = await connect("fw"), await connect("pw", fold_turns=False)
    assert ana.welcome is not None and ana.welcome.accepted == ("turn_in_event",)
    assert bo.welcome is not None and bo.welcome.accepted == ()
    created = await ana.create_table("moon", options={"target": 7}, bots=[2], seat=0, turn_seconds=60)
    table_id = created.table.table_id
    await folded_watch.spectate(table_id)
    await plain_watch.spectate(table_id)
    streams: dict[str, list[Any]] = {"folded": [], "plain": []}

    async def collect(client: Any, into: list[Any]) -> None:
        async for item in client.listen():
            if getattr(item, "table_id", None) == table_id and item.type in ("event", "turn"):
                into.append(item)
                if item.type == "event" and item.event.type == "game_over":
                    return

    collectors = [
        asyncio.create_task(collect(folded_watch, streams["folded"])),
        asyncio.create_task(collect(plain_watch, streams["plain"])),
    ]
    await bo.join(table_id, 1)
    done = lambda m: m.game_over is not None  # noqa: E731
    await asyncio.gather(auto_play(ana, table_id, done), auto_play(bo, table_id, done, seed=1))
    async with asyncio.timeout(10):
        await asyncio.gather(*collectors)
    folded, plain = streams["folded"], streams["plain"]
    assert [m.model_dump(exclude={"seq"}) for m in folded] == [m.model_dump(exclude={"seq"}) for m in plain]
    assert sum(m.type == "turn" for m in plain) > 20
    # A turn that rode in an event reached the listener with the event's seq: one frame for both.
    assert len({m.seq for m in folded}) < len({m.seq for m in plain}) == len(plain)
    assert public(folded_watch.mirror.tables[table_id]) == public(plain_watch.mirror.tables[table_id])
