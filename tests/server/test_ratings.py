"""Ratings (feature ``ratings``): a known sequence of results rated as openskill's Plackett-Luce model
rates it (computed here with openskill itself), and rated games through a real server."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path
from typing import Any, get_args

import pytest
from durability_kit import durable
from openskill.models import PlackettLuce
from server_oracle import check_connection
from server_testkit import Player, running_server
from test_accounts import connect_and_sign, url

from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.protocol.ratings import RatingKind
from boneyard.server.errors import CommandError
from boneyard.server.games.registry import GAMES
from boneyard.server.ratings.book import PROVISIONAL_SIGMA, SCALE, RatingBook
from boneyard.server.ratings.kinds import KINDS, game_of, kind_of, players_of, ranks, teams_of

# (kind, players by seat, scores per side, winner): Moon ranked by final score, Straight free for all,
# partnerships as two teams (0+2 against 1+3).
RESULTS: list[tuple[Any, list[str], list[int], int]] = [
    ("moon", ["ana", "bob", "bot-good"], [21, 14, 9], 0),
    ("moon", ["bob", "ana", "bot-good"], [12, 21, 12], 1),
    ("moon", ["bot-good", "bob", "ana"], [22, 21, -3], 0),
    ("straight-3", ["ana", "bob", "cy"], [250, 90, 170], 0),
    ("partnerships", ["ana", "bob", "cy", "bot-strong"], [120, 255], 1),
    ("moon", ["ana", "bob", "bot-good"], [21, 4, 20], 0),
]


async def test_a_known_sequence_rated_as_openskill_rates_it() -> None:
    book = RatingBook()
    model = PlackettLuce()
    expected: dict[tuple[str, str], Any] = {}
    for kind, players, scores, winner in RESULTS:
        teams = [[0, 2], [1, 3]] if kind == "partnerships" else [[seat] for seat in range(len(players))]
        before = [[expected.get((players[s], kind)) or model.rating() for s in team] for team in teams]
        places = [sorted(scores, reverse=True).index(score) for score in scores]  # shared places for ties
        after = model.rate(before, ranks=places)
        for team, rated in zip(teams, after, strict=True):
            for seat, rating in zip(team, rated, strict=True):
                expected[(players[seat], kind)] = rating
        changes = book.rate(kind, players, scores, winner)
        assert [c.seat for c in changes] == list(range(len(players)))
    for (player, kind), rating in expected.items():
        got = book.get(player, kind)
        assert got.mu == pytest.approx(rating.mu) and got.sigma == pytest.approx(rating.sigma), (player, kind)
        assert got.shown == round(rating.mu * SCALE)
    assert book.get("ana", "moon").games == 4 and book.get("ana", "moon").wins == 3
    assert [c.kind for c in book.history("ana")] == [
        "moon",
        "partnerships",
        "straight-3",
        "moon",
        "moon",
        "moon",
    ]


async def test_a_player_who_left_is_ranked_last_and_the_winner_first() -> None:
    assert ranks([10, 30, 30], winner=2) == [2, 1, 0]  # the rules broke the tie
    book, model = RatingBook(), PlackettLuce()
    book.rate("moon", ["ana", "bob", "cy"], [21, 3, 5], 0, last=frozenset({0}))
    fresh = [[model.rating()] for _ in range(3)]
    after = model.rate(fresh, ranks=[3, 2, 1])  # ana left: last, below both
    assert book.get("ana", "moon").mu == pytest.approx(after[0][0].mu)
    assert book.get("ana", "moon").wins == 0 and not book.history("ana")[0].won


async def test_ratings_are_provisional_until_the_deviation_is_low_and_the_leaderboard_lists_the_rest() -> (
    None
):
    book, rng = RatingBook(), random.Random(7)
    games = 0
    while book.get("ana", "moon").provisional:
        order = rng.sample(["ana", "bob", "bot-good"], 3)
        book.rate("moon", order, [21, 10, 5], 0)
        games += 1
        assert games < 200
    assert book.get("ana", "moon").sigma <= PROVISIONAL_SIGMA
    board = book.leaderboard("moon")
    assert {r.player for r in board} <= {"ana", "bob", "bot-good"} and "ana" in {r.player for r in board}
    assert all(not r.provisional for r in board)
    assert [r.mu for r in board] == sorted((r.mu for r in board), reverse=True)
    assert book.leaderboard("straight-2") == []


async def rated_moon(player: Player, **extra: Any) -> str:
    created = await player.request(
        type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=30, rated=True,
        options={"target": 3}, **extra,
    )  # fmt: skip
    assert created.type == "table_created" and created.table.rated, created
    return created.table.table_id


async def test_a_rated_game_through_a_real_server_and_a_restart(tmp_path: Path) -> None:
    key = KeyPair.create(tmp_path / "ana.key")
    async with durable(tmp_path) as server:
        ana = await connect_and_sign(url(server), Signer("ana", key, create=True))
        assert "ratings" in ana.log[0].features
        table_id = await rated_moon(ana)
        over = await ana.play(table_id, random.Random(1))
        changes = await ana.until(lambda m: m.type == "rating_changes")
        assert changes.table_id == table_id and changes.kind == "moon" and changes.record_id == over.record_id
        assert [(c.seat, c.player) for c in changes.changes] == [
            (0, "ana"),
            (1, "bot-basic"),
            (2, "bot-basic"),
        ]
        # openskill's own numbers: three newcomers... but both bots are one player, bot-basic.
        model = PlackettLuce()
        places = [sorted(over.scores, reverse=True).index(score) for score in over.scores]
        if over.winner != places.index(0) or places.count(0) > 1:
            places = ranks(list(over.scores), over.winner)
        after = model.rate([[model.rating()] for _ in range(3)], ranks=places)
        assert changes.changes[0].before == 1500 and changes.changes[0].after == round(after[0][0].mu * SCALE)
        assert all(c.provisional for c in changes.changes)
        # The hidden-information oracle over everything ana was sent, rating_changes included.
        record = (await ana.request(type="get_record", record_id=over.record_id)).record
        assert check_connection(ana.log, 0, record.model_dump(mode="json"), table_id) > 0
        profile = await ana.request(type="get_profile", player="ANA")
        assert profile.type == "profile" and profile.player == "ana" and profile.total == 1
        assert [(r.kind, r.games, r.wins) for r in profile.ratings] == [("moon", 1, int(over.winner == 0))]
        assert (
            profile.games[0].record_id == over.record_id
            and profile.games[0].after == changes.changes[0].after
        )
        bots = await ana.request(type="get_profile", player="bot-basic")
        assert bots.type == "profile" and bots.ratings[0].games == 1  # two seats, one game: rated once
        board = await ana.request(type="get_leaderboard", kind="moon")
        assert board.type == "leaderboard" and board.total == 0  # everyone still provisional
    async with durable(tmp_path) as server:
        guest = await Player.connect(url(server), "bo")
        profile = await guest.request(type="get_profile", player="ana", limit=5)
        assert profile.total == 1 and profile.ratings[0].rating == changes.changes[0].after
        missing = await guest.request(type="get_profile", player="nobody")
        assert missing.type == "error" and missing.code == "no_such_player"


async def test_rated_tables_are_timed_and_for_signed_in_players(tmp_path: Path) -> None:
    async with running_server() as server:
        guest = await Player.connect(url(server), "bo")
        refused = await guest.request(type="create_table", game="moon", seat=0, bots=[1, 2], rated=True)
        assert refused.type == "error" and refused.code == "not_signed_in"
        ana = await connect_and_sign(
            url(server), Signer("ana", KeyPair.create(tmp_path / "a.key"), create=True)
        )
        untimed = await ana.request(
            type="create_table", game="moon", seat=0, bots=[1, 2], rated=True, turn_seconds=None
        )
        assert untimed.type == "error" and untimed.code == "invalid_options"
        bots_only = await ana.request(type="create_table", game="moon", seat=None, bots=[0, 1, 2], rated=True)
        assert bots_only.type == "error" and bots_only.code == "invalid_options"
        assert bots_only.message == "a rated table seats a player: bots only play unrated"
        created = await ana.request(
            type="create_table", game="moon", seat=0, bots=[1], turn_seconds=30, rated=True
        )
        table_id = created.table.table_id
        join = await guest.request(type="join", table_id=table_id, seat=2)
        assert join.type == "error" and join.code == "not_signed_in"


async def test_leaving_a_rated_game_in_progress_counts_as_its_loss(tmp_path: Path) -> None:
    async with running_server() as server:
        ana = await connect_and_sign(
            url(server), Signer("ana", KeyPair.create(tmp_path / "a.key"), create=True)
        )
        table_id = await rated_moon(ana)
        await ana.until(lambda m: m.type == "turn")
        assert (await ana.request(type="leave", table_id=table_id)).type == "ok"
        # The bots play the game out; ana's rating counts it as her loss, ranked last.
        for _ in range(200):
            profile = await ana.request(type="get_profile", player="ana")
            if profile.total:
                break
            await asyncio.sleep(0.05)
        assert profile.total == 1 and not profile.games[0].won
        # She was the last player: the game is abandoned and rated at once, she last, the bots (one player,
        # bot-basic, rated once) sharing the first place.
        changes = await ana.until(lambda m: m.type == "rating_changes")
        rated = [(c.player, c.before) for c in changes.changes]
        assert rated == [("ana", 1500), ("bot-basic", 1500), ("bot-basic", 1500)]
        model = PlackettLuce()
        after = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 0, 0])
        assert profile.games[0].before == 1500 and profile.games[0].after == round(after[0][0].mu * SCALE)
        assert profile.ratings[0].wins == 0


def test_the_wire_kinds_are_the_games_declared_kinds() -> None:
    """``RatingKind`` (the wire) lists exactly the kinds the games declare (``GameSpec.kinds``), each once,
    and every kind's seek makes a table of that kind."""
    declared = [kind.name for spec in GAMES.values() for kind in spec.kinds]
    assert sorted(declared) == sorted(get_args(RatingKind)) and len(set(declared)) == len(declared)
    for kind in KINDS:
        game, options = game_of(kind)
        spec = GAMES[game]
        table = spec.options_from_dict(options)
        assert kind_of(game, table.as_dict()) == kind
        assert (
            spec.players_of(table)
            == players_of(kind)
            == sum(len(side) for side in teams_of(kind, players_of(kind)))
        )


def test_a_game_that_declares_no_kind_is_not_rated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "unrated", dataclasses.replace(GAMES["moon"], name="unrated", kinds=()))
    with pytest.raises(CommandError) as refused:
        kind_of("unrated", {"target": 21})
    assert refused.value.code == "invalid_options" and "not rated" in refused.value.message


async def test_a_rated_texas42_game_rates_the_partnerships_as_two_teams(tmp_path: Path) -> None:
    """Ana (seat 0) and Bob (seat 2) are partners against two bots: the game is rated as ``texas42``, the
    partners ranked together as openskill ranks two teams of two."""
    async with running_server() as server:
        ana, bob = [
            await connect_and_sign(url(server), Signer(name, KeyPair.create(tmp_path / name), create=True))
            for name in ("ana", "bob")
        ]
        created = await ana.request(
            type="create_table", game="texas42", seat=0, bots=[1, 3], turn_seconds=30, rated=True,
            options={"target": 1},
        )  # fmt: skip
        assert created.type == "table_created" and created.table.rated, created
        table_id = created.table.table_id
        assert (await bob.request(type="join", table_id=table_id, seat=2)).type == "seated"
        over, _ = await asyncio.gather(
            ana.play(table_id, random.Random(1)), bob.play(table_id, random.Random(2))
        )
        changes = await ana.until(lambda m: m.type == "rating_changes")
        assert changes.kind == "texas42" and changes.record_id == over.record_id
        assert [c.player for c in changes.changes] == ["ana", "bot-basic", "bob", "bot-basic"]
        model = PlackettLuce()
        fresh = [[model.rating(), model.rating()] for _ in range(2)]
        after = model.rate(fresh, ranks=ranks(list(over.scores), over.winner))
        assert len(over.scores) == 2  # marks per team
        assert changes.changes[0].after == changes.changes[2].after == round(after[0][0].mu * SCALE)
        assert changes.changes[1].after == round(after[1][0].mu * SCALE)  # bot-basic, rated once
        profile = await bob.request(type="get_profile", player="bob")
        assert [(r.kind, r.games, r.wins) for r in profile.ratings] == [("texas42", 1, int(over.winner == 0))]
        board = await bob.request(type="get_leaderboard", kind="texas42")
        assert board.type == "leaderboard" and board.total == 0  # everyone still provisional
