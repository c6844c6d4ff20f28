"""Matchmaking (feature ``seeks``) through a real server: seekers paired and seated, bots after the time
a seeker set, cancelling, the lobby's counts, and the pairing by rating with its widening window (on the
sans-I/O matchmaker with a manual clock)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
from server_testkit import Player, running_server
from test_accounts import connect_and_sign, url

from boneyard.clients.cli.core.identity import KeyPair, Signer
from boneyard.protocol.seeks import SEEK_WIDENING, SEEK_WINDOW, Seek
from boneyard.server.host import ManualClock
from boneyard.server.matchmaking import Matchmaker
from boneyard.server.ratings.book import RatingBook
from boneyard.server.session import Session


def seated(m: Any) -> bool:
    return m.type == "seated" and m.reply_to is None


async def test_two_seekers_are_seated_at_one_new_table() -> None:
    async with running_server() as server:
        ana, bob = await Player.connect(url(server), "ana"), await Player.connect(url(server), "bob")
        assert "seeks" in ana.log[0].features
        assert (await ana.request(type="seek", kind="straight-2")).type == "ok"
        counts = await bob.until(lambda m: m.type == "seeks" and m.seeking)
        assert [(c.kind, c.rated, c.players) for c in counts.seeking] == [("straight-2", False, 1)]
        assert (await bob.request(type="seek", kind="straight-2")).type == "ok"
        a, b = await ana.until(seated), await bob.until(seated)
        assert a.table_id == b.table_id and {a.seat, b.seat} == {0, 1}
        listed = {t.table_id: t for t in (await ana.request(type="list_tables")).tables}
        table = listed[a.table_id]
        assert table.options.players == 2 and table.turn_seconds == 30 and not table.rated
        assert [s.name for s in table.seats] == ["ana", "bob"]


async def test_a_seeker_gets_bots_after_its_time_and_a_cancelled_seek_gets_nothing() -> None:
    async with running_server() as server:
        ana, cy = await Player.connect(url(server), "ana"), await Player.connect(url(server), "cy")
        lobby = await Player.connect(url(server), "watcher")
        await cy.request(type="seek", kind="moon", bots_after_ms=60_000)
        await cy.request(type="cancel_seek")
        await lobby.until(lambda m: m.type == "seeks" and m.seeking == ())
        await ana.request(type="seek", kind="moon", bots_after_ms=300, bot_level="good")
        sat = await ana.until(seated)
        listed = {t.table_id: t for t in (await ana.request(type="list_tables")).tables}
        seats = listed[sat.table_id].seats
        assert sat.seat == 0 and [(s.bot, s.level) for s in seats] == [
            (False, None),
            (True, "good"),
            (True, "good"),
        ]
        assert len(listed) == 1  # cy's cancelled seek made no table


async def test_texas42_seekers_are_seated_as_partnerships_with_bots_after_their_time(tmp_path: Path) -> None:
    """Two signed-in players seek a rated ``texas42``; once the first's time is up the two of them and two
    bots of its level sit at one rated Texas 42 table of four."""
    async with running_server() as server:
        ana, bob = [
            await connect_and_sign(url(server), Signer(name, KeyPair.create(tmp_path / name), create=True))
            for name in ("ana", "bob")
        ]
        assert (await ana.request(type="seek", kind="texas42", rated=True, bots_after_ms=300)).type == "ok"
        counts = await bob.until(lambda m: m.type == "seeks" and m.seeking)
        assert [(c.kind, c.rated, c.players) for c in counts.seeking] == [("texas42", True, 1)]
        await bob.request(type="seek", kind="texas42", rated=True, bots_after_ms=60_000, bot_level="good")
        a, b = await ana.until(seated), await bob.until(seated)
        assert a.table_id == b.table_id and (a.seat, b.seat) == (0, 1)
        table = {t.table_id: t for t in (await ana.request(type="list_tables")).tables}[a.table_id]
        assert table.game == "texas42" and table.rated and table.turn_seconds == 30
        assert [(s.name, s.bot, s.level) for s in table.seats][:2] == [
            ("ana", False, None),
            ("bob", False, None),
        ]
        assert [(s.bot, s.level) for s in table.seats[2:]] == [(True, "basic"), (True, "basic")]


async def test_bad_seeks_are_refused_with_documented_errors(tmp_path: Path) -> None:
    async with running_server() as server:
        guest = await Player.connect(url(server), "bo")
        refused = await guest.request(type="seek", kind="moon", rated=True)
        assert refused.type == "error" and refused.code == "not_signed_in"
        await guest.ws.send(msgpack.packb({"type": "seek", "id": 99, "kind": "chess"}))
        bad = await guest.reply_to(99)
        assert bad.type == "error" and bad.code == "invalid_message"
        await guest.request(type="create_table", game="moon", seat=0, bots=[1, 2])
        busy = await guest.request(type="seek", kind="moon")
        assert busy.type == "error" and busy.code == "already_seated"
        # Rated seekers, signed in, are paired into a rated table.
        ana = await connect_and_sign(
            url(server), Signer("ana", KeyPair.create(tmp_path / "a.key"), create=True)
        )
        bob = await connect_and_sign(
            url(server), Signer("bob", KeyPair.create(tmp_path / "b.key"), create=True)
        )
        await ana.request(type="seek", kind="straight-2", rated=True)
        await bob.request(type="seek", kind="straight-2", rated=True)
        sat = await ana.until(seated)
        listed = {t.table_id: t for t in (await ana.request(type="list_tables")).tables}
        assert listed[sat.table_id].rated


class Lobby:
    """What the matchmaker asks of the lobby, noted."""

    stopping = False

    def __init__(self) -> None:
        self.idle: set[Session] = set()
        self.tables: list[tuple[list[str], int]] = []

    def seat_group(self, kind: Any, rated: bool, players: list[Session], bots: int, level: str) -> None:
        self.tables.append(([p.name for p in players], bots))


def signed(name: str) -> Session:
    session = Session(name, name, 4)
    session.account = name
    return session


def test_pairing_by_rating_with_a_widening_window() -> None:
    ratings = RatingBook()
    ratings.rate("straight-2", ["hi", "lo"], [250, 0], 0)
    hi, lo = ratings.get("hi", "straight-2").shown, ratings.get("lo", "straight-2").shown
    assert (hi, lo) == (1658, 1342)  # openskill's numbers for one game between newcomers
    clock, lobby = ManualClock(), Lobby()
    matchmaker = Matchmaker(lobby, clock, lambda: ratings)
    for name in ("hi", "x", "lo", "y"):
        matchmaker.seek(signed(name), Seek(type="seek", kind="straight-2"))
    clock.run_soon()
    # The two newcomers (1500 and 1500) at once; hi and lo, 316 apart, wait for their windows to widen.
    assert lobby.tables == [(["x", "y"], 0)]
    wait = (hi - lo - SEEK_WINDOW) / SEEK_WIDENING  # 8.64 s
    clock.advance(wait - 0.2)
    assert len(lobby.tables) == 1 and len(matchmaker.seekers) == 2
    clock.advance(1.0)  # the next look at the pools after the windows hold 316
    assert lobby.tables[1] == (["lo", "hi"], 0) and not matchmaker.seekers


async def test_a_session_entering_the_lobby_while_someone_seeks_is_told_the_counts_at_once() -> None:
    """``seeks`` goes to a session that enters the lobby while anyone seeks (it would otherwise know
    nothing until the next change): after its welcome, and again when it leaves its last table."""
    async with running_server() as server:
        ana = await Player.connect(url(server), "ana")
        assert (await ana.request(type="seek", kind="straight-3")).type == "ok"
        cy = await Player.connect(url(server), "cy")
        counts = await cy.until(lambda m: m.type == "seeks")
        assert [(c.kind, c.rated, c.players) for c in counts.seeking] == [("straight-3", False, 1)]
        assert [m.type for m in cy.log] == ["hello", "welcome", "seeks"]  # no seeker came or went meanwhile
        created = await cy.request(type="create_table", game="moon", seat=0, bots=[1, 2])
        before = len(cy.log)
        await cy.request(type="leave", table_id=created.table.table_id)
        again = await cy.until(lambda m: m.type == "seeks" and cy.log.index(m) >= before)
        assert [(c.kind, c.players) for c in again.seeking] == [("straight-3", 1)]


async def test_a_group_the_server_cannot_seat_is_told_and_stops_seeking() -> None:
    async with running_server(max_tables=1) as server:
        ana = await Player.connect(url(server), "ana")
        assert (
            await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2])
        ).type == "table_created"
        bob, cy = await Player.connect(url(server), "bob"), await Player.connect(url(server), "cy")
        assert (await bob.request(type="seek", kind="straight-2")).type == "ok"
        assert (await cy.request(type="seek", kind="straight-2")).type == "ok"
        for seeker in (bob, cy):  # not left waiting for a seat that will not come
            told = await seeker.until(lambda m: m.type == "error")
            assert told.reply_to is None and told.code == "unavailable", told
            assert told.message == "the server is full (1 tables): your seek ended, seek again later"
        await bob.until(lambda m: m.type == "seeks" and m.seeking == ())  # no longer counted as seeking
        assert [t.game for t in (await bob.request(type="list_tables")).tables] == ["moon"]
