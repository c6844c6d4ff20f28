"""The reference client and fair deals: it contributes a seed, checks the reveal and every deal it saw,
says so at game end, catches a server that lies; ``boneyard verify`` checks a saved record offline."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import client_support
import msgpack
import pytest
from client_support import auto_play
from websockets.asyncio.client import connect as websockets_connect
from websockets.asyncio.server import serve as websockets_serve

from boneyard.clients.cli.core import Client, Mirror
from boneyard.clients.cli.ui.describe import message_line, plain
from boneyard.protocol import SUBPROTOCOL, DealCommitment, DealRevealed, SeedContributed, Snapshot
from boneyard.protocol.game import HandDealt, HandStarted

server = client_support.server
url = client_support.url
connect = client_support.connect


async def recorded_game(connect: Any) -> dict[str, Any]:
    """ana and bob (seats 0 and 2) and a bot play a short Moon game, cy watches; everything each got."""
    ana, bob, cy = await connect("ana"), await connect("bob"), await connect("cy")
    streams = {c.name: c.listen() for c in (ana, bob, cy)}
    created = await ana.create_table("moon", bots=[1], seat=0, options={"target": 7}, turn_seconds=None)
    table_id = created.table.table_id
    await cy.spectate(table_id)
    await bob.join(table_id, 2)

    def revealed(mirror: Any) -> bool:
        return mirror.deals is not None and mirror.deals.verdict is not None

    await asyncio.gather(auto_play(ana, table_id, revealed), auto_play(bob, table_id, revealed, seed=1))
    await client_support.wait_for(cy, lambda: revealed(cy.mirror.tables[table_id]))
    seen = {}
    for name, stream in streams.items():
        items = []
        while not any(isinstance(m, DealRevealed) for m in items):
            items.append(await anext(stream))
        seen[name] = items
    over = ana.mirror.tables[table_id].game_over
    assert over is not None and over.record_id is not None
    record = (await ana.get_record(over.record_id)).record.model_dump(mode="json")
    return {"table_id": table_id, "clients": (ana, bob, cy), "seen": seen, "record": record}


async def test_each_client_contributes_checks_and_says_so(connect: Any) -> None:
    game = await recorded_game(connect)
    ana, bob, cy = game["clients"]
    table_id, record = game["table_id"], game["record"]
    proof = record["fairness"]
    for client in (ana, bob, cy):
        deals = client.mirror.tables[table_id].deals
        assert deals is not None and deals.verdict is not None
        assert deals.verdict.ok, deals.verdict.problems
        assert deals.verdict.hands == len(record["hands"])
        assert (
            deals.verdict.text()
            == f"deals verified ({len(record['hands'])} hand{'s' * (len(record['hands']) > 1)} seen)"
        )
        assert deals.commitment is not None and deals.commitment.commitment == proof["commitment"]
    # Both humans' seeds went in (the bot's did not), and each is the one its client sent.
    assert proof["player_seeds"][1] is None
    assert proof["player_seeds"][0] == ana.mirror.tables[table_id].deals.sent  # type: ignore[union-attr]
    assert proof["player_seeds"][2] == bob.mirror.tables[table_id].deals.sent  # type: ignore[union-attr]
    # The commitment came before anything was dealt, to the players and the spectator alike.
    for items in game["seen"].values():
        kinds = [getattr(m, "type", None) for m in items]
        first_event = kinds.index("event")
        assert "deal_commitment" in kinds[:first_event]
        assert kinds.count("seed_contributed") == 2
    # The line-mode output says it at the end.
    reveal = next(m for m in game["seen"]["ana"] if isinstance(m, DealRevealed))
    line = message_line(ana.mirror, reveal)
    assert line is not None and plain(line).startswith("deals verified (")


def lie(items: list[Any], change: Any, sent: str | None = None) -> str:
    """The verdict of a fresh mirror fed the messages a client got, some of them changed (or left out:
    :data:`DROP`), for a seat 0 that sent (and had acknowledged) the seed ``sent`` (``None``: none)."""
    mirror = Mirror()
    for item in items:
        if not hasattr(item, "seq"):
            continue
        changed = change(item)
        if changed is not DROP:
            mirror.apply(changed or item)
        if sent is not None and isinstance(item, DealCommitment):
            table = next(m for m in mirror.tables.values() if m.deals is not None)
            table.seat = 0
            assert table.deals is not None
            table.deals.seat, table.deals.sent = 0, sent
    deals = next(m for m in mirror.tables.values() if m.deals is not None).deals
    assert deals is not None and deals.verdict is not None
    return deals.verdict.text()


DROP = object()
"""What a change returns for a message the lying server does not send at all."""


async def test_the_client_catches_a_server_that_lies(connect: Any) -> None:
    game = await recorded_game(connect)
    items = game["seen"]["ana"]
    assert lie(items, lambda m: None).startswith("deals verified")

    def other_hand(m: Any) -> Any:  # the first hand ana was dealt is not the one the seeds give
        dealt = getattr(m, "type", None) == "event" and isinstance(m.event, HandDealt) and m.event.tiles
        if not dealt or changed:
            return None
        changed.append(m)
        tiles = list(m.event.tiles)
        tiles[0] = (0, 0) if tuple(tiles[0]) != (0, 0) else (6, 6)
        return m.model_copy(update={"event": m.event.model_copy(update={"tiles": tuple(tiles)})})

    changed: list[Any] = []
    verdict = lie(items, other_hand)
    assert verdict.startswith("deals NOT verified: hand 0: seat 0 was dealt "), verdict
    assert re.search(r"dealt \[\d\|\d\]", verdict), verdict  # tiles as the hand shows them

    def other_commitment(m: Any) -> Any:
        return m.model_copy(update={"commitment": "00" * 32}) if isinstance(m, DealCommitment) else None

    verdict = lie(items, other_commitment)
    assert f"the server committed to {'00' * 32} before the deal but reveals" in verdict

    def other_seed(m: Any) -> Any:
        return (
            m.model_copy(update={"seed": "ff" * 32})
            if isinstance(m, SeedContributed) and m.seat == 2
            else None
        )

    assert "seat 2's seed was announced as " + "ff" * 32 in lie(items, other_seed)

    def other_leader(m: Any) -> Any:
        if getattr(m, "type", None) == "event" and isinstance(m.event, HandStarted) and m.event.hand == 0:
            return m.model_copy(
                update={"event": m.event.model_copy(update={"first": (m.event.first + 1) % 3})}
            )
        return None

    assert "hand 0: seat" in lie(items, other_leader) and "the seeds chose seat" in lie(items, other_leader)


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard.clients.cli.main", "verify", str(path)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip


async def test_boneyard_verify_checks_a_saved_record(connect: Any, tmp_path: Path) -> None:
    record = (await recorded_game(connect))["record"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    hands = f"{len(record['hands'])} hand{'s' * (len(record['hands']) > 1)}"
    commitment = record["fairness"]["commitment"]
    assert done.stdout == f"{path}: deals verified ({hands}, moon) against commitment {commitment}\n"

    def tampered(change: Any) -> subprocess.CompletedProcess[str]:
        copy = json.loads(json.dumps(record))
        change(copy)
        path.write_text(json.dumps(copy))
        return verify(path)

    def seed(r: dict[str, Any]) -> None:
        r["fairness"]["player_seeds"][0] = "00" * 32

    def deal(r: dict[str, Any]) -> None:
        hand = r["hands"][0]
        hand["deal"][1][0], hand["widow"] = hand["widow"], hand["deal"][1][0]

    def commitment(r: dict[str, Any]) -> None:
        r["fairness"]["commitment"] = "ab" * 32

    for change, where in [
        (seed, f"{path}: hand 0, seat 0's deal: the record has "),
        (deal, f"{path}: hand 0, seat 1's deal: the record has "),
        (commitment, f"{path}: fairness.commitment: the server committed to '{'ab' * 32}'"),
    ]:
        done = tampered(change)
        assert done.returncode == 1, done.stdout
        lines = done.stdout.splitlines()
        assert lines and lines[0].startswith(where), lines
        assert all(line.startswith(f"{path}: ") for line in lines)
    swapped = tampered(deal).stdout
    assert "hand 0, widow" in swapped
    # The check's own words write tiles [a-b], as the server does; this client shows them as its hand does.
    assert re.search(r"\[\d\|\d\]", swapped) and not re.search(r"\[\d-\d\]", swapped), swapped

    path.write_text("not json")
    done = verify(path)
    assert done.returncode == 2 and done.stderr.startswith(f"boneyard: cannot read {path}")


@pytest.mark.parametrize("contribute", [True, False])
async def test_a_client_may_leave_the_seed_to_the_server(url: str, contribute: bool) -> None:
    async with Client(url, "solo", contribute_seeds=contribute) as solo:
        stream = solo.listen()
        # A game to 150 nearly always has a draw of ours (2 players: a 14-tile boneyard each hand), but
        # about 1 in 75 has none: then another game, at another table.
        for _ in range(3):
            created = await solo.create_table(
                "straight", bots=[1], seat=0, options={"players": 2, "target": 150}
            )
            table_id = created.table.table_id

            def revealed(mirror: Any) -> bool:
                return mirror.deals is not None and mirror.deals.verdict is not None

            await auto_play(solo, table_id, revealed)
            deals = solo.mirror.tables[table_id].deals
            assert deals is not None and deals.verdict is not None and deals.verdict.ok
            assert (deals.sent is not None) is contribute
            assert (deals.announced.get(0) is not None) is contribute
            items = []
            async for item in stream:
                items.append(item)
                if isinstance(item, DealRevealed):
                    break
            draws = [m for m in items if getattr(m, "type", None) == "event" and m.event.type == "tile_drawn"]
            mine = [m for m in draws if m.event.tile is not None]
            if mine:
                break
            await solo.leave(table_id)
    assert mine, "three games to 150 without a draw of ours"

    def other_draw(m: Any) -> Any:
        if m is mine[0]:
            tile = (0, 0) if tuple(m.event.tile) != (0, 0) else (6, 6)
            return m.model_copy(update={"event": m.event.model_copy(update={"tile": tile})})
        return None

    assert ": the draw from boneyard position " in lie(items, other_draw)


async def test_missed_messages_and_a_fresh_snapshot_give_no_false_alarm(connect: Any) -> None:
    """After a resume with a fresh snapshot, what was missed is not checked; the rest still is."""
    game = await recorded_game(connect)
    items = [m for m in game["seen"]["ana"] if hasattr(m, "seq")]
    hands = len(game["record"]["hands"])
    last = max(i for i, m in enumerate(items) if m.type == "event" and isinstance(m.event, HandStarted))
    end = max(i for i, m in enumerate(items) if m.type == "event" and m.event.type == "tile_played")
    snapshot = next(m for m in items if isinstance(m, Snapshot) and m.view is not None)
    fresh = snapshot.model_copy(update={"view": snapshot.view.model_copy(update={"hand_number": hands - 1})})
    middle = (last + end) // 2
    mirror = Mirror()
    for item in [*items[:last], fresh, *items[middle:]]:
        mirror.apply(item)
    deals = mirror.tables[game["table_id"]].deals
    assert deals is not None and deals.verdict is not None
    assert deals.verdict.ok, deals.verdict.problems
    assert deals.verdict.hands == hands - 1


async def test_a_reveal_that_drops_or_adds_seeds_is_not_verified(connect: Any) -> None:
    """A server that left out some of the seeds it had seen could deal from any subset of them (2^k deals
    to choose from): each seed announced, and the client's own acknowledged seed, must be in the reveal, a
    seed for each seat, no more, no fewer."""
    game = await recorded_game(connect)
    items = game["seen"]["ana"]
    ours = game["record"]["fairness"]["player_seeds"][0]
    assert lie(items, lambda m: None, sent=ours).startswith("deals verified")

    def reveal(change: Any) -> Any:
        def lying(m: Any) -> Any:
            if isinstance(m, DealRevealed):
                return m.model_copy(update={"player_seeds": change(list(m.player_seeds))})
            return None

        return lying

    def without(seat: int) -> Any:
        return lambda seeds: [*seeds[:seat], None, *seeds[seat + 1 :]]

    # bob's seed was announced to everyone, then left out.
    verdict = lie(items, reveal(without(2)), sent=ours)
    assert verdict.startswith("deals NOT verified: ") and "seat 2's seed was announced as " in verdict
    assert "but revealed as none" in verdict

    # ana's own seed, acknowledged but never announced, left out: only ana can tell, and she does.
    def unannounced(m: Any) -> Any:
        if isinstance(m, SeedContributed) and m.seat == 0:
            return DROP
        return reveal(without(0))(m)

    verdict = lie(items, unannounced, sent=ours)
    assert f"our seed {ours} was not used (the reveal has none)" in verdict
    # One seed fewer than the table has seats (bob's with it), or one more.
    verdict = lie(items, reveal(lambda seeds: seeds[:2]), sent=ours)
    assert "the reveal has 2 players' seeds for a table of 3 seats" in verdict
    assert (
        f"seat 2's seed was announced as {game['record']['fairness']['player_seeds'][2]} but is not in"
        in verdict
    )
    verdict = lie(items, reveal(lambda seeds: [*seeds, None]), sent=ours)
    assert "the reveal has 4 players' seeds for a table of 3 seats" in verdict


class LyingServer:
    """A real server behind a man in the middle that rewrites its ``deal_revealed`` frames with ``change``:
    what a client of a server that lies about its seeds receives."""

    def __init__(self, upstream: str, change: Any) -> None:
        self.upstream, self.change = upstream, change
        self.lies = 0

    async def _relay(self, client: Any) -> None:
        async with websockets_connect(self.upstream, subprotocols=[SUBPROTOCOL]) as server:

            async def down() -> None:
                async for frame in server:
                    data = msgpack.unpackb(frame)
                    if isinstance(data, dict) and data.get("type") == "deal_revealed":
                        self.change(data)
                        self.lies += 1
                        frame = msgpack.packb(data)
                    await client.send(frame)

            async def up() -> None:
                async for frame in client:
                    await server.send(frame)

            _, pending = await asyncio.wait(
                [asyncio.create_task(down()), asyncio.create_task(up())], return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()

    def serve(self) -> Any:
        return websockets_serve(self._relay, "127.0.0.1", 0, subprotocols=[SUBPROTOCOL])


async def play_through(*where: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``boneyard play straight --auto --line`` (``where``: ``--server URL``, or none for a server in the
    client; ``env``: extra environment): its exit status, output and errors."""
    program = [sys.executable, "-m", "boneyard.clients.cli.main", "play", "straight", "--players", "2"]
    # Its own config directory: `play --server` keeps its seat token there (seats.json), not in ~/.config.
    with tempfile.TemporaryDirectory() as config:
        process = await asyncio.create_subprocess_exec(
            *program, "--target", "30", "--auto", "--line", "--name", "robot", *where,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "BONEYARD_BOT_DELAY_SECONDS": "0", "XDG_CONFIG_HOME": config, **(env or {})},
        )  # fmt: skip
        async with asyncio.timeout(90):
            out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def verdict_after_game_over(out: str) -> str:
    lines = out.splitlines()
    over = next(i for i, line in enumerate(lines) if line.startswith("Game over:"))
    return next(line for line in lines[over:] if line.startswith("deals "))


@pytest.mark.parametrize("lies", [False, True])
async def test_boneyard_play_exits_three_when_the_deals_are_not_verified(url: str, lies: bool) -> None:
    def drop_our_seed(reveal: dict[str, Any]) -> None:
        if lies:
            reveal["player_seeds"][0] = None

    lying = LyingServer(url, drop_our_seed)
    async with lying.serve() as proxy:
        port = proxy.sockets[0].getsockname()[1]
        code, out, err = await play_through("--server", f"ws://127.0.0.1:{port}/")
    assert lying.lies == 1
    verdict = verdict_after_game_over(out)
    if not lies:
        assert code == 0 and verdict.startswith("deals verified ("), (verdict, err[-2000:])
        return
    assert code == 3, (code, err[-2000:])
    assert verdict.startswith("deals NOT verified: ") and "seat 0's seed was announced as " in verdict
    assert "our seed " in verdict
    assert err.splitlines()[-1].startswith("boneyard: table ") and "deals NOT verified: " in err


async def test_deals_from_a_fixed_seed_are_not_fair_and_play_exits_three() -> None:
    """``BONEYARD_SEED`` (a test setting) makes every deal predictable: the server's ``hello`` says so, and
    the client's check, however well the seeds match, says the deals are not fair."""
    code, out, err = await play_through(env={"BONEYARD_SEED": "7"})
    verdict = verdict_after_game_over(out)
    assert verdict.startswith("deals NOT verified: not fair: the server seed is fixed (a test setting)")
    assert code == 3, (code, err[-2000:])
