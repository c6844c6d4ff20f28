"""What a rated seat promises outlives the server: a signed-in player who leaves a rated game in progress
is rated for it as its loss (issue #25) even when the server is killed with ``kill -9`` and restarted
before the game ends (a real ``boneyard-server serve`` on a real SQLite file)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from durability_kit import query, server_on
from server_testkit import Player
from test_accounts import connect_and_sign

from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.server.ratings.book import Change, RatingBook

# Bob's seat is played for him at once after the restart (no grace): the bots finish the game.
QUICK = {"BONEYARD_GRACE_SECONDS": "0"}


def signers(folder: Path) -> dict[str, Signer]:
    """New accounts ana and bob, each with its key file in ``folder``."""
    return {name: Signer(name, KeyPair.create(folder / name), create=True) for name in ("ana", "bob")}


async def ana_leaves_a_rated_game(ana: Player, bob: Player) -> str:
    """A rated Moon game to 3 (ana at seat 0, bob at seat 1, a bot at seat 2) that ana leaves on her
    first turn; the table's id, once her ``ok`` came (what she left is stored by then)."""
    created = await ana.request(
        type="create_table", game="moon", seat=0, bots=[2], turn_seconds=60, rated=True,
        options={"target": 3},
    )  # fmt: skip
    assert created.type == "table_created" and created.table.rated, created
    table_id: str = created.table.table_id
    joined = await bob.request(type="join", table_id=table_id, seat=1)
    assert joined.type == "seated", joined
    await ana.until(lambda m: m.type == "turn" and m.table_id == table_id)
    assert (await ana.request(type="leave", table_id=table_id)).type == "ok"
    return table_id


def rated_as_her_loss(record: Any) -> list[Change]:
    """The game's rating as a server that never stopped makes it: ana, who left, last; bob; the bot."""
    players = ["ana", "bob", "bot-basic"]
    return RatingBook().rate("moon", players, list(record.final_scores), record.winner, last=frozenset({0}))


async def profile_after_one_game(player: Player, name: str) -> Any:
    """``name``'s profile once it holds a rated game (the bots finish the game meanwhile)."""
    for _ in range(400):
        profile = await player.request(type="get_profile", player=name)
        if profile.type == "profile" and profile.total:
            return profile
        await asyncio.sleep(0.05)
    raise AssertionError(f"no rated game for {name}: {profile}")


async def test_a_leaver_of_a_rated_game_loses_it_across_a_kill_9_and_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    accounts = signers(tmp_path)
    async with server_on(db, QUICK) as first:
        ana, bob = [await connect_and_sign(first.url, accounts[name]) for name in ("ana", "bob")]
        await ana_leaves_a_rated_game(ana, bob)
        assert await first.stop(signal.SIGKILL) == -signal.SIGKILL  # the moment she left
    assert query(db, "SELECT rated_left FROM tables") == [('[[0, "ana", "ana"]]',)]

    async with server_on(db, QUICK) as second:
        guest = await Player.connect(second.url, "cy")
        bob_profile = await profile_after_one_game(guest, "bob")
        ana_profile = await profile_after_one_game(guest, "ana")
        record_id = bob_profile.games[0].record_id
        assert record_id is not None and ana_profile.games[0].record_id == record_id
        record = (await guest.request(type="get_record", record_id=record_id)).record
        # Her loss, ranked last, as the server would have rated it had it never stopped.
        expected = rated_as_her_loss(record)
        game = ana_profile.games[0]
        assert not game.won and ana_profile.ratings[0].wins == 0
        assert (game.before, game.after) == (expected[0].before, expected[0].after)
        assert bob_profile.games[0].after == expected[1].after
        assert query(db, "SELECT count(*) FROM rated_games WHERE player = 'ana'") == [(1,)]
