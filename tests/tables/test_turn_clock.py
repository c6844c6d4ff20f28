"""The turn clock a player is shown is the clock they get (issue 24, item 8: "a turn played by the server 2 s
into a 55 s clock"): whatever came before the turn (a pause between hands and its ``ready``, a dropped
connection and its resume, within the grace period or past it, timeouts and auto-play, then acting), the
server never plays for a player before the deadline their last ``turn`` (or ``snapshot``) promised them.

Driven through the seam (``CommandSeam``, the connections' side of the table tier) on a manual clock, so a
resume is the one a connection makes; every frame a player gets is checked against that promise as it
arrives (:class:`Watched`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from table_kit import MemoryLog, settings
from test_commands import FakeLink, command, hello_body

from boneyard.server.botrunner import BotRunner
from boneyard.server.commands import CommandSeam
from boneyard.server.host import ManualClock
from boneyard.server.lobby import Lobby
from boneyard.server.metrics import Metrics
from boneyard.server.record_store import MemoryRecordStore
from boneyard.server.storage.restore import restore
from boneyard.server.table import Table

TURN = 55
GRACE = 20.0
JUST = 1e-3
GAMES = [("moon", {}), ("straight", {"players": 3})]


class Watched(FakeLink):
    """A connection that notes, for its seat, the deadline each ``turn`` or ``snapshot`` promised, and
    fails at once if the server plays for that seat before it (the client's clock would still run)."""

    def __init__(self, clock: ManualClock, seat: int) -> None:
        super().__init__()
        self.clock, self.seat = clock, seat
        self.promised: float | None = None
        """Clock time the seat's turn runs out, as last told (``None``: no clock shown)."""
        self.turns: list[tuple[float, int | None]] = []
        """Each ``turn`` of this seat as it came: (clock time, ``time_left_ms``)."""
        self.played_for: list[float] = []
        self.early: list[float] = []
        """How long before its shown deadline each move played for the seat came (none, rightly)."""

    def write(self, frame: bytes) -> None:
        super().write(frame)
        message, now = self.messages[-1], self.clock.time()
        if message.type == "turn" and message.seat == self.seat:
            self.turns.append((now, message.time_left_ms))
            self._promise(now, message.time_left_ms)
        elif message.type == "turn":
            self.promised = None
        elif message.type == "snapshot" and message.view is not None:
            mine = message.view.to_move == self.seat
            self._promise(now, message.time_left_ms if mine else None)
        elif message.type == "event" and message.auto and getattr(message.event, "seat", None) == self.seat:
            self.played_for.append(now)
            promised = self.promised
            if promised is not None and now < promised - JUST:
                self.early.append(promised - now)
                raise AssertionError(f"played for seat {self.seat} {promised - now:.3f} s early")

    def _promise(self, now: float, time_left_ms: int | None) -> None:
        self.promised = None if time_left_ms is None else now + time_left_ms / 1000


class Front:
    """A lobby behind its ``CommandSeam`` on a manual clock, with ana (seat 0) and bo (seat 1) at one table
    (seat 2 a bot), each on a :class:`Watched` connection."""

    def __init__(self, game: str, options: dict[str, Any], **overrides: Any) -> None:
        self.log = MemoryLog()
        self.clock = ManualClock()
        self.config = {"grace_seconds": GRACE, "bot_delay_seconds": 0.5, **overrides}
        self.lobby = self.new_lobby(self.clock)
        self.commands = CommandSeam(self.lobby, hello_body())
        self.ids = 10
        self.ana = self.connect("ana", 0)
        create = dict(game=game, options=options, seat=0, bots=[2], turn_seconds=TURN)
        self.send(self.ana, "create_table", **create)
        self.table_id = next(iter(self.lobby.tables))
        self.bo = self.connect("bo", 1)
        self.send(self.bo, "join", table_id=self.table_id, seat=1)
        self.tokens = {
            link.seat: next(m.token for m in link.messages if m.type == "seated") for link in self.links
        }
        assert self.table.status == "playing"

    def new_lobby(self, clock: ManualClock) -> Lobby:
        lobby = Lobby(settings(**self.config), Metrics(lambda: []), MemoryRecordStore(10), clock)
        lobby.table_log = self.log  # type: ignore[assignment]
        return lobby

    def restart(self, down_seconds: float) -> None:
        """The server stops gracefully (1012 to both) and comes back ``down_seconds`` later, restored."""
        self.lobby.stop()
        for link in self.links:
            self.drop(link)
        clock = ManualClock()
        clock.wall_offset = self.clock.wall() + down_seconds - clock.time()
        for link in self.links:
            link.clock = clock
        self.clock, self.lobby = clock, self.new_lobby(clock)
        tables, sessions = self.log.load()
        assert restore(self.lobby, tables, sessions, clock.wall(), GRACE) == 1
        self.commands = CommandSeam(self.lobby, hello_body())

    @property
    def links(self) -> list[Watched]:
        return [self.ana, self.bo]

    @property
    def table(self) -> Table:
        return self.lobby.tables[self.table_id]

    def connect(self, name: str, seat: int, resume: dict[str, Any] | None = None) -> Watched:
        link = Watched(self.clock, seat)
        self.commands.connected(link)
        self.send(link, "identify", name=name, **({"resume": resume} if resume else {}))
        return link

    def send(self, link: Watched, kind: str, **fields: Any) -> Any:
        self.ids += 1
        self.commands.handle(link, command(type=kind, id=self.ids, **fields))
        replies = [m for m in link.messages if getattr(m, "reply_to", None) == self.ids]
        assert not [r for r in replies if r.type == "error"], replies
        return replies

    def mover(self) -> int | None:
        engine = self.table.engine
        return None if engine is None else engine.to_move

    def play(self, link: Watched) -> None:
        """``link``'s seat plays its first legal action (it is to move)."""
        turn = next(m for m in reversed(link.messages) if m.type == "turn" and m.seat == link.seat)
        assert turn.legal_actions, turn
        self.send(link, "act", table_id=self.table_id, action=turn.legal_actions[0].model_dump())

    def until(self, seat: int, *, step: float = 0.5, limit: int = 4000) -> None:
        """Play on (the humans at once, the bot on the clock; any pause ended by both humans' ``ready``)
        until ``seat`` is to move."""
        for _ in range(limit):
            match = self.table.match
            if match is not None and match.pause is not None:
                for link in self.links:
                    self.send(link, "ready", table_id=self.table_id)
                continue
            mover = self.mover()
            if mover == seat:
                return
            if mover in (0, 1) and self.links[mover].session is not None:
                self.play(self.links[mover])
            else:
                self.clock.advance(step)
        raise AssertionError(f"seat {seat} never came to move")

    def until_pause(self, limit: int = 4000) -> None:
        for _ in range(limit):
            match = self.table.match
            if match is not None and match.pause is not None:
                return
            mover = self.mover()
            if mover in (0, 1):
                self.play(self.links[mover])
            else:
                self.clock.advance(0.5)
        raise AssertionError("the hand never ended")

    def drop(self, link: Watched) -> None:
        self.commands.disconnected(link)

    def resume(self, link: Watched) -> Watched:
        name = "ana" if link.seat == 0 else "bo"
        again = self.connect(
            name, link.seat, {"token": self.tokens[link.seat], "last_seq": link.messages[-1].seq}
        )
        if link.seat == 0:
            self.ana = again
        else:
            self.bo = again
        return again


def runs_its_whole_turn(front: Front, link: Watched) -> None:
    """``link``'s seat is to move with a full clock: nothing is played for it until its deadline, and at
    the deadline the server plays for it (a timeout)."""
    seat, moves = link.seat, front.table.moves
    assert front.mover() == seat
    when, left = link.turns[-1]
    assert left == TURN * 1000
    front.clock.advance(when + TURN - JUST - front.clock.time())
    assert front.table.moves == moves and front.mover() == seat, "played for them before the deadline"
    timeouts = front.table.seats[seat].timeouts
    front.clock.advance(2 * JUST)
    assert front.table.moves > moves and front.table.seats[seat].timeouts == timeouts + 1


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("ended_by", ["ready", "time"])
def test_the_first_turn_after_a_pause_between_hands_runs_its_whole_clock(
    game: str, options: dict[str, Any], ended_by: str
) -> None:
    front = Front(game, options, hand_pause_seconds=10.0)
    front.until_pause()
    front.clock.advance(4.0)
    if ended_by == "ready":
        for link in front.links:
            front.send(link, "ready", table_id=front.table_id)
    else:
        front.clock.advance(6.0 + JUST)
    assert front.table.match is not None and front.table.match.pause is None
    for link in front.links:
        front.until(link.seat)
        runs_its_whole_turn(front, link)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_resume_within_the_grace_period_keeps_the_deadline_it_is_shown(
    game: str, options: dict[str, Any]
) -> None:
    front = Front(game, options)
    front.until(1)
    when, _ = front.bo.turns[-1]
    front.clock.advance(3.0)
    front.drop(front.bo)
    front.clock.advance(GRACE - 1.0)  # dropped, not yet away: the clock runs on
    bo = front.resume(front.bo)
    remind = [m for m in bo.messages if m.type == "turn"][-1]
    assert remind.seat == 1 and remind.time_left_ms == (TURN - 3 - GRACE + 1) * 1000
    moves = front.table.moves
    front.clock.advance(when + TURN - JUST - front.clock.time())
    assert front.table.moves == moves and front.mover() == 1
    front.clock.advance(2 * JUST)
    assert front.table.moves > moves and front.table.seats[1].timeouts == 1
    front.until(1)
    runs_its_whole_turn(front, front.bo)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("at", ["own turn", "other turn", "pause"])
def test_back_after_being_away_a_player_gets_whole_turns_again(
    game: str, options: dict[str, Any], at: str
) -> None:
    front = Front(game, options, hand_pause_seconds=10.0)
    if at == "pause":
        front.until_pause()
    else:
        front.until(1)
    front.drop(front.bo)
    front.clock.advance(GRACE + JUST)  # away: the server plays for bo
    assert front.table.seats[1].auto
    played = front.table.moves
    if at == "own turn":
        front.clock.advance(2.0)
        assert front.table.moves > played  # played for bo meanwhile
    elif at == "other turn":
        front.until(0)
    bo = front.resume(front.bo)
    assert not front.table.seats[1].auto
    front.until(1)
    runs_its_whole_turn(front, bo)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("timeouts", [1, 2])
def test_after_timeouts_acting_gives_whole_turns_again(
    game: str, options: dict[str, Any], timeouts: int
) -> None:
    front = Front(game, options, timeouts_before_auto=2, auto_turn_seconds=2.0)
    for _ in range(timeouts):
        front.until(1)
        runs_its_whole_turn(front, front.bo)
    assert front.table.seats[1].auto == (timeouts == 2)
    front.until(1)
    if timeouts == 2:  # played for, with a moment to take the seat back: no clock shown meanwhile
        assert front.bo.turns[-1][1] is None and front.bo.promised is None
        front.clock.advance(1.0)
    front.play(front.bo)  # acting takes the seat back
    assert not front.table.seats[1].auto and front.table.seats[1].timeouts == 0
    for _ in range(2):
        front.until(1)
        runs_its_whole_turn(front, front.bo)
        front.until(1)
        front.play(front.bo)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("down", [1.0, 10.0, 60.0])
def test_after_a_restart_mid_turn_the_turn_runs_to_the_deadline_it_is_shown(
    game: str, options: dict[str, Any], down: float
) -> None:
    front = Front(game, options)
    front.until(1)
    front.clock.advance(3.0)
    front.restart(down)
    front.clock.advance(1.0)  # the players come back a second after the server
    ana, bo = front.resume(front.ana), front.resume(front.bo)
    shown = bo.promised
    assert shown is not None and abs(shown - front.clock.time() - max(GRACE, TURN - 3 - down) + 1) < 0.01
    moves = front.table.moves
    front.clock.advance(shown - JUST - front.clock.time())
    assert front.table.moves == moves and front.mover() == 1
    front.clock.advance(2 * JUST)
    assert front.table.moves > moves and front.table.seats[1].timeouts == 1
    front.until(1)
    runs_its_whole_turn(front, bo)
    front.until(0)
    runs_its_whole_turn(front, ana)


async def test_back_while_the_server_chooses_their_timed_out_move_a_player_is_shown_no_time_left() -> None:
    """A seat that timed out is played for by the server's away bot (``good``: it thinks off the loop, here
    in the server's own runner without a pool, on the next loop pass). A player who resumes meanwhile
    gets the turn again, with no time left: not a whole new turn the server then plays 2 s into."""
    front = Front("moon", {}, away_bot_level="good")
    front.lobby.bots = BotRunner(asyncio.get_running_loop(), workers=0)
    front.until(1)
    when, _ = front.bo.turns[-1]
    front.clock.advance(when + TURN - 5.0 - front.clock.time())
    front.drop(front.bo)  # 5 s before the deadline, well within the grace period
    moves = front.table.moves
    front.clock.advance(5.0 + JUST)  # timed out: the away bot thinks (its choice comes on the loop)
    assert front.table.seats[1].timeouts == 1 and front.table.moves == moves
    assert front.table.match.turns.time_left_ms() == 0  # what a snapshot says meanwhile too
    bo = front.resume(front.bo)
    remind = [m for m in bo.messages if m.type == "turn"][-1]
    assert (remind.seat, remind.time_left_ms) == (1, 0)
    for _ in range(5):
        await asyncio.sleep(0)
    assert front.table.moves > moves and bo.played_for and bo.early == []
