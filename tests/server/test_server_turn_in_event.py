"""Feature ``turn_in_event``: an opted-in connection learns exactly what a plain one does, in fewer frames.

The same seeded game is played twice over real sockets, once by connections that accepted the feature
and once by plain ones: every connection's messages, each folded event read as the event, the ``turn``
and the ``ok`` it stands for, are the plain connection's, message for message.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest
from durability_kit import durable
from server_oracle import check_connection
from server_testkit import Player, choose, running_server
from test_server_games import play_game

from boneyard.protocol import FEATURE_TURN_IN_EVENT, unfolded

FOLD = (FEATURE_TURN_IN_EVENT,)


def game_stream(log: list[Any]) -> list[dict[str, Any]]:
    """A connection's game messages (events, turns, ``ok``s) as the messages they stand for, without
    ``seq`` (numbered per connection), ``table_id`` and the record's id (each run has its own)."""
    out = []
    for part in (part for message in log for part in unfolded(message)):
        if part.type in ("event", "turn", "ok"):
            data = part.model_dump(exclude={"seq", "table_id"})
            if part.type == "event" and part.event.type == "game_over":
                data["event"]["record_id"] = None
            out.append(data)
    return out


def game_frames(log: list[Any]) -> int:
    return sum(m.type in ("event", "turn", "ok") for m in log)


def folds(log: list[Any]) -> tuple[int, int]:
    """How many events carried a ``turn``, and how many a ``reply_to``."""
    events = [m for m in log if m.type == "event"]
    return sum(m.turn is not None for m in events), sum(m.reply_to is not None for m in events)


@pytest.mark.parametrize(
    ("game", "options"),
    [("moon", {"target": 7}), ("straight", {"players": 4, "partnerships": True, "target": 61})],
)
async def test_an_opted_in_connection_learns_the_same_in_fewer_frames(
    game: str, options: dict[str, Any]
) -> None:
    runs = []
    for accept in ((), FOLD):
        async with running_server(seed=21) as server:
            runs.append(await play_game(server.url, game, options, seed=5, accept=accept, turn_seconds=30))
    plain, folded = runs
    assert plain["record"]["hands"] == folded["record"]["hands"], "the same game, deal for deal"
    pairs = zip(plain["connections"], folded["connections"], strict=True)
    for ((plain_log, seat), (folded_log, _)), raw in zip(pairs, plain["frames"], strict=True):
        # Everything the plain connection learnt, the opted-in one learnt too, in the same order:
        # the same events, the same turns with the same legal actions and time budgets, the same oks.
        assert game_stream(folded_log) == game_stream(plain_log), seat
        assert any(m.type == "turn" and m.time_left_ms == 30_000 for m in plain_log)
        # ...in fewer frames: every turn that followed events came inside the last of them.
        turns, replies = folds(folded_log)
        # (counted over game messages: how many lobby pushes a connection got before it sat is timing)
        assert turns > 20 and game_frames(folded_log) == game_frames(plain_log) - turns - replies, seat
        for before, message in itertools.pairwise(folded_log):
            assert not (message.type == "turn" and before.type == "event"), "a turn that could ride along"
        if seat is not None:  # a player's own acts were answered inside their events (the last one
            # ended the game: its ok comes after the game's end, as a message)
            assert replies > 5 and [m.type for m in folded_log].count("ok") <= 1
        else:
            assert replies == 0
        # The plain connection got exactly the frames of a server without the feature.
        assert folds(plain_log) == (0, 0)
        events = [data for data in map(msgpack.unpackb, raw) if data["type"] == "event"]
        assert events and not any("turn" in data or "reply_to" in data for data in events)
        checked = check_connection(folded_log, seat, folded["record"], folded["table_id"])
        assert checked > 0


async def test_the_oracle_catches_legal_actions_folded_into_another_seats_event() -> None:
    async with running_server(seed=22) as server:
        result = await play_game(server.url, "moon", {"target": 7}, seed=22, accept=FOLD)
    log, seat = result["connections"][1]
    check_connection(log, seat, result["record"], result["table_id"])
    index, folded = next(
        (i, m) for i, m in enumerate(log) if m.type == "event" and m.turn is not None and m.turn.seat != seat
    )
    mover = result["connections"][folded.turn.seat][0]
    theirs = next(
        m.turn.legal_actions for m in mover if m.type == "event" and m.turn and m.turn.legal_actions
    )
    leaked = folded.model_copy(update={"turn": folded.turn.model_copy(update={"legal_actions": theirs})})
    with pytest.raises(AssertionError):
        check_connection(
            [*log[:index], leaked, *log[index + 1 :]], seat, result["record"], result["table_id"]
        )


async def act_on_turns(player: Player, table_id: str, turns: int, seen: list[Any] | None = None) -> None:
    """Act on this player's next ``turns`` turns (folded or not; ``seen``: messages already read),
    each answered (inside its last event) before the next."""
    rng = random.Random(player.name)
    pending = [part for message in seen or [] for part in unfolded(message)]
    while turns:
        if not pending:
            pending.extend(unfolded(await player.next()))
        part = pending.pop(0)
        if part.type == "turn" and part.seat == player.seat and part.legal_actions:
            action = choose(part.legal_actions, rng).model_dump()
            sent = await player.send(type="act", table_id=table_id, action=action)
            reply = await player.reply_to(sent)
            assert reply.type == "event" and reply.turn is not None, "the ok rode in the event"
            pending.extend(unfolded(reply)[1:])  # the turn it carries (the ok is the reply itself)
            turns -= 1


async def test_an_opted_in_session_resumes_with_a_replay_in_its_shape_or_a_snapshot() -> None:
    async with running_server(seed=23) as server:
        ana = await Player.connect(server.url, "ana", accept=FOLD)
        bo, cy = await Player.connect(server.url, "bo"), await Player.connect(server.url, "cy")
        created = await ana.request(type="create_table", game="moon", seat=0, turn_seconds=None)
        table_id = created.table.table_id
        for seat, player in ((1, bo), (2, cy)):
            await player.request(type="join", table_id=table_id, seat=seat)
        others = [asyncio.create_task(p.play(table_id)) for p in (bo, cy)]
        await act_on_turns(ana, table_id, 3)

        # Same features: the missed messages come back exactly as they were sent, folded.
        last_seq = ana.seq - 2
        unprocessed = [m.model_dump(exclude={"seq"}) for m in ana.log if m.seq > last_seq]
        token = ana.token
        ana.ws.transport.abort()
        back = await Player.connect(server.url, "ana", identify=False)
        welcome = await back.request(
            type="identify", name="ana", accept=list(FOLD), resume={"token": token, "last_seq": last_seq}
        )
        assert welcome.resumed and welcome.accepted == FOLD and welcome.replayed >= len(unprocessed)
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert [m.model_dump(exclude={"seq"}) for m in replayed[: len(unprocessed)]] == unprocessed
        assert any(m.type == "event" and m.turn is not None for m in replayed), "folded as first sent"
        back.seat = 0
        await act_on_turns(back, table_id, 1)  # a fresh turn follows the replay if she is to move

        # Other features than the lost connection's: no replay (its messages have the other shape), a
        # snapshot, and from then on the plain shape.
        token = back.token or token
        back.ws.transport.abort()
        plain = await Player.connect(server.url, "ana", identify=False)
        welcome = await plain.request(
            type="identify", name="ana", resume={"token": token, "last_seq": back.seq}
        )
        assert welcome.resumed and welcome.accepted == () and welcome.replayed == 0
        snapshot = await plain.next()
        assert snapshot.type == "snapshot" and snapshot.view.viewer == 0
        plain.seat = 0
        await plain.play(table_id)
        await asyncio.gather(*others)
        assert not any(m.type == "event" and (m.turn or m.reply_to) for m in plain.log)
        assert any(m.type == "ok" for m in plain.log)


@pytest.mark.parametrize("again", [FOLD, ()], ids=["opted-in-again", "plain"])
async def test_after_a_restart_an_opted_in_session_never_gets_folded_messages_replayed_plain(
    tmp_path: Path, again: tuple[str, ...]
) -> None:
    """Its log (folded messages) is not kept over a restart: whatever it asks for then, it gets no message
    in a shape it did not accept: the restart's own messages, or a snapshot, then its turn."""
    async with durable(tmp_path) as server:
        ana = await Player.connect(server.url, "ana", accept=FOLD)
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        await act_on_turns(ana, table_id, 2)
        assert any(m.type == "event" and m.turn is not None for m in ana.log)
    async with durable(tmp_path) as server:
        back = await Player.connect(server.url, "ana", identify=False)
        resume = {"token": ana.token, "last_seq": ana.seq}
        fields = {"accept": list(again)} if again else {}
        welcome = await back.request(type="identify", name="ana", resume=resume, **fields)
        assert welcome.resumed and welcome.accepted == again
        replayed = [await back.next() for _ in range(welcome.replayed)]
        assert not any(m.type == "event" for m in replayed), replayed
        if not replayed:
            assert (await back.next()).type == "snapshot"
        await back.until(  # her turn, a reminder or the next one: the game goes on
            lambda m: any(p.type == "turn" and p.seat == 0 and p.legal_actions for p in unfolded(m))
        )
        assert all(m.turn is None for m in back.log if m.type == "event") or again == FOLD


@pytest.mark.parametrize(
    "accept",
    [["turn_in_events"], "turn_in_event", [FEATURE_TURN_IN_EVENT] * 9, [7]],
    ids=["unknown", "not-a-list", "too-many", "not-a-name"],
)
async def test_a_bad_accept_is_an_invalid_identify(accept: Any) -> None:
    async with running_server(seed=24) as server:
        player = await Player.connect(server.url, "x", identify=False)
        await player.ws.send(msgpack.packb({"type": "identify", "id": 1, "name": "x", "accept": accept}))
        error = await player.next()
        assert error.type == "error" and error.code == "invalid_message" and error.reply_to == 1
        assert "accept" in error.message
        assert await player.closed_with() == 4001
