"""What the player's words do, and what the server's messages mean to the screen, for every front end.

:class:`Controller` sits between a :class:`~boneyard.clients.cli.core.Client` and a front end (the
full-screen table in :mod:`boneyard.clients.cli.tui`, or the plain line mode in :mod:`.app`). It owns
the commands (``create``, ``join``, ``say``...), the moves, ``--auto`` play and the choice of the
current table; the front end only draws. It talks back through a :class:`Sink`:

- :meth:`Sink.line`: one line of words for the log, in the order the server sent the messages
  (the controller calls it synchronously from :meth:`handle`, which the front end calls for each
  message in turn: nothing is deferred, so nothing can overtake);
- :meth:`Sink.changed`: a message changed what a table looks like (redraw);
- :meth:`Sink.stop`: the session is over.

Nothing the player types raises: every mistake and every refusal from the server becomes exactly
one line (kind ``"error"``), and the session goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any, Literal, Protocol

import pydantic

from boneyard.clients.cli import bots
from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.session import Client, Notice
from boneyard.clients.cli.ui import render, social
from boneyard.clients.cli.ui.commands import (
    SOCIAL,
    Command,
    InputError,
    check_move_words,
    help_text,
    parse_command,
    parse_move,
)
from boneyard.clients.cli.ui.describe import error_line, message_line
from boneyard.clients.cli.ui.forms import FormError, chat_text, create_request
from boneyard.protocol import Error, HandPause, Seated, Snapshot, TableCreated, Turn
from boneyard.protocol.game import GameOver
from boneyard.protocol.handshake import FEATURE_BOT_DELAY

LineKind = Literal["event", "error", "notice", "chat", "info"]

WATCH_PACE_MS = 1200
"""A bots-only table's pace for a person watching it: a move about every second, a hand in half a minute."""


class Sink(Protocol):
    """Where a :class:`Controller` sends what the player should see."""

    def line(self, fragments: render.Fragments, kind: LineKind) -> None: ...

    def changed(self, table_id: str | None) -> None: ...

    def stop(self, code: int) -> None: ...


def _kind(message: Any) -> LineKind:
    if isinstance(message, Notice):
        return "error" if message.kind in ("closed", "disconnected", "resume_rejected") else "notice"
    if getattr(message, "type", None) == "chat":
        return "chat"
    return "event"


def one_line(error: Exception) -> render.Fragments:
    """Any error as one line of words (a pydantic error as its first complaint, never a traceback)."""
    if isinstance(error, CommandError):
        return error_line(error)
    if isinstance(error, pydantic.ValidationError):
        first = error.errors()[0] if error.errors() else {"msg": str(error), "loc": ()}
        where = ".".join(str(p) for p in first.get("loc", ()))
        text = f"{where}: {first['msg']}" if where else str(first["msg"])
        return [("class:error", "Error: "), ("", text)]
    return [
        ("class:error", "Error: "),
        ("", str(error).splitlines()[0] if str(error) else type(error).__name__),
    ]


class Controller:
    """One player's session: commands, moves, auto play, the current table."""

    def __init__(
        self,
        client: Client,
        sink: Sink,
        *,
        auto: bool = False,
        rng: random.Random | None = None,
        ready_at_once: bool = False,
    ) -> None:
        self.client = client
        self.sink = sink
        self.auto = auto
        self.ready_at_once = ready_at_once
        """Say ``ready`` as soon as a table pauses between hands (line mode; ``--auto`` always does)."""
        self.rng = rng or random.Random()
        self.current: str | None = None
        """The table the player is looking at (moves and chat go there)."""
        self._acting: dict[str, asyncio.Task[None]] = {}
        self._readied: set[tuple[str, int]] = set()
        self._background: set[asyncio.Task[None]] = set()
        """The pauses (table, hand) we said ``ready`` in."""
        self._chat_shown: set[str] = set()

    # --- what the screen shows --------------------------------------------------------------

    @property
    def mirror(self) -> TableMirror | None:
        return self.client.mirror.tables.get(self.current or "")

    def error(self, error: Exception) -> None:
        self.sink.line(one_line(error), "error")

    def info(self, text: str, kind: LineKind = "notice") -> None:
        self.sink.line([("class:notice" if kind == "notice" else "", text)], kind)

    # --- server messages --------------------------------------------------------------------

    def handle(self, item: Any) -> None:
        """React to one server message or notice (already applied to the mirror), in arrival order."""
        if isinstance(item, Error) and item.reply_to is not None:
            pass  # the command that caused it says it (once), where it was typed
        else:
            line = message_line(self.client.mirror, item)
            if line is not None:
                self.sink.line(line, _kind(item))
        if isinstance(item, Seated | TableCreated) and getattr(item, "reply_to", None) is not None:
            self.current = item.table_id if isinstance(item, Seated) else item.table.table_id
        if isinstance(item, Snapshot):
            self.current = self.current or item.table.table_id
            self._chat_history(item)
        if isinstance(item, HandPause | Snapshot) and (self.auto or self.ready_at_once):
            self._ready(item.table_id if isinstance(item, HandPause) else item.table.table_id)
        if isinstance(item, Turn) and self.auto:
            mirror = self.client.mirror.tables.get(item.table_id)
            if mirror is not None and mirror.my_turn and item.legal_actions:
                self._auto_play(item.table_id)
        if isinstance(item, Snapshot) or (isinstance(item, Notice) and item.kind == "resumed"):
            # After a resume no new `turn` may come for a move that was already ours.
            for table_id, mirror in self.client.mirror.tables.items():
                if self.auto and mirror.my_turn:
                    self._auto_play(table_id)
        self.sink.changed(getattr(item, "table_id", None) or self.current)
        if isinstance(item, Notice) and item.kind == "closed":
            self.sink.stop(0 if item.code == 1000 else 1)

    def _chat_history(self, snapshot: Snapshot) -> None:
        """A late joiner's (or a spectator's) first sight of a table: what was said before."""
        table_id = snapshot.table.table_id
        if table_id in self._chat_shown or not snapshot.chat:
            return
        self._chat_shown.add(table_id)
        self.sink.line([("class:dim", f"── said at table {table_id} before you came ──")], "chat")
        for said in snapshot.chat:
            self.sink.line([("class:chat", f"<{said.name}> {said.text}")], "chat")

    def game_over(self, item: Any) -> GameOver | None:
        """The ``game_over`` event of the current table, if ``item`` carries it."""
        event = getattr(item, "event", None)
        if isinstance(event, GameOver) and getattr(item, "table_id", None) == self.current:
            return event
        return None

    def _ready(self, table_id: str) -> None:
        """Say ``ready`` once per pause, when it waits for us."""
        mirror = self.client.mirror.tables.get(table_id)
        if mirror is None or not mirror.ready_awaited or mirror.pause is None:
            return
        key = (table_id, mirror.pause.hand_number)
        if key not in self._readied:
            self._readied.add(key)
            task = asyncio.create_task(self.guard(self.client.ready(table_id)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def guard(self, work: Any) -> None:
        """A request sent in the background: a refusal is one error line."""
        try:
            await work
        except CommandError as error:
            self.error(error)

    # --- auto play --------------------------------------------------------------------------

    def _auto_play(self, table_id: str) -> None:
        task = self._acting.get(table_id)
        if task is None or task.done():
            self._acting[table_id] = asyncio.create_task(self._auto_loop(table_id))

    async def _auto_loop(self, table_id: str) -> None:
        # One action in flight per table: the `ok` comes after the next `turn`, so loop
        # while the mirror still says it is our move (a Straight draw keeps the turn).
        while True:
            mirror = self.client.mirror.tables.get(table_id)
            if not self.auto or mirror is None or not mirror.my_turn or mirror.view is None:
                return
            if not mirror.view.legal_actions:
                return
            try:
                await self.client.act(table_id, bots.choose(mirror.view, self.rng))
            except CommandError as error:
                self.error(error)
                return

    # --- the player's words -----------------------------------------------------------------

    async def execute(self, text: str) -> None:
        """Run one line the player typed; never raises (every failure is one error line)."""
        text = text.strip()
        if not text:
            return
        try:
            command = parse_command(text)
            if command is not None:
                await self.command(command)
            else:
                await self.move(text)
        except (InputError, FormError, CommandError, pydantic.ValidationError, OSError) as error:
            self.error(error)

    async def act(self, action: Any) -> None:
        """Send one chosen action for the current table; a refusal is one error line."""
        mirror = self.mirror
        if mirror is None:
            return
        try:
            await self.client.act(mirror.table_id, action)
        except CommandError as error:
            self.error(error)

    def legal_now(self) -> tuple[TableMirror, tuple[Any, ...]]:
        """The current table and the actions offered to us now; InputError saying why none."""
        mirror = self.mirror
        if mirror is None or mirror.view is None:
            raise InputError("no game here yet: `tables`, `join`, `watch` or `create` (see `help`)")
        if mirror.seat is None:
            raise InputError("you are watching this table, not playing at it")
        return mirror, tuple(mirror.view.legal_actions) if mirror.my_turn else ()

    async def move(self, text: str) -> None:
        check_move_words(text)
        mirror, legal = self.legal_now()
        assert mirror.view is not None
        to_move = mirror.view.to_move
        waiting = "the game is over" if to_move is None else f"it is {mirror.seat_name(to_move)}'s turn"
        game = client_game(mirror.view.game)
        bids, contracts = (game.bids, game.contracts) if game is not None else ((), {})
        action = parse_move(text, legal, waiting, mirror.view.hand, bids, contracts)
        await self.client.act(mirror.table_id, action)

    def _table_arg(self, args: list[str]) -> str:
        table_id = args[0] if args else self.current
        if not table_id:
            raise InputError("which table? (none selected: `tables` lists them)")
        return table_id

    def show(self, lines: list[str]) -> None:
        self.sink.line([("", "\n".join(lines))], "info")

    async def command(self, command: Command) -> None:
        name, args = command.name, command.args
        client = self.client
        if name in SOCIAL:
            await social.run(self, name, args)
        elif name == "help":
            self.sink.line([("", help_text())], "info")
        elif name == "tables":
            reply = await client.list_tables()
            for table in reply.tables:
                self.sink.line(render.table_line(table), "info")
            if not reply.tables:
                self.info("No tables yet: `create moon bots=1,2` starts one.", "info")
        elif name == "create":
            await self.create(create_request(args))
        elif name in ("join", "take"):
            if len(args) != 2 or not args[1].isdigit():
                raise InputError(f"{name} TABLE SEAT (e.g. `{name} t1 2`)")
            join = client.join if name == "join" else client.take_seat
            await join(args[0], int(args[1]))
            self.current = args[0]
        elif name == "watch":
            table_id = self._table_arg(args)
            await client.spectate(table_id)
            self.current = table_id
        elif name == "leave":
            table_id = self._table_arg(args)
            await client.leave(table_id)
            self.current = None if table_id == self.current else self.current
            self.info(f"Left table {table_id}")
            if not client.mirror.tables:  # back in the lobby: its pushes skipped us while we sat
                await client.list_tables()
        elif name == "say":
            text = chat_text(args[0] if args else "")
            await client.chat(self._table_arg([]), text)
        elif name == "ready":
            await client.ready(self._table_arg(args))
        elif name == "rematch":
            await client.rematch(self._table_arg(args))
            self.info("Rematch asked: it starts when every seated player has asked")
        elif name == "board":
            self.sink.changed(self.current)
        elif name == "record":
            await self.save_record(args[0] if args else None)
        elif name == "auto":
            self.auto = (args[0] if args else "on") in ("on", "yes", "1")
            self.info(f"auto play {'on' if self.auto else 'off'}")
            if self.auto and self.current:
                self._auto_play(self.current)
        elif name == "ping":
            start = time.perf_counter()
            await client.ping()
            self.info(f"pong in {(time.perf_counter() - start) * 1000:.1f} ms", "info")
        elif name == "quit":
            self.sink.stop(0)
        elif name == "rules":
            self.sink.line([("", rules_summary(self.mirror))], "info")
        self.sink.changed(self.current)

    async def create(self, request: dict[str, Any]) -> None:
        """Create a table from checked form fields (:func:`.forms.validate_create`) and look at it.

        A table of bots only, created to be watched, moves at :data:`WATCH_PACE_MS` unless the player named
        a pace: the server's own pace for such tables (``bots_only_move_ms``) is its floor, set for its
        load, not for a person following the game."""
        watched = request.get("seat", 0) is None
        hello = self.client.hello
        if (
            watched
            and "bot_delay_ms" not in request
            and hello is not None
            and FEATURE_BOT_DELAY in hello.features
        ):
            floor = hello.limits.bots_only_move_ms or 0
            request = {**request, "bot_delay_ms": max(WATCH_PACE_MS, floor)}
        created = await self.client.create_table(**request)
        table_id = created.table.table_id
        if watched:  # created to be watched (e.g. bots only): watch it
            await self.client.spectate(table_id)
        self.current = table_id

    def record_id(self) -> str | None:
        mirror = self.mirror
        if mirror is not None and mirror.game_over is not None:
            return mirror.game_over.record_id
        return None

    async def save_record(self, record_id: str | None = None, folder: Path | None = None) -> Path:
        """Fetch a finished game's record and save it as ``RECORD_ID.json``."""
        record_id = record_id or self.record_id()
        if not record_id:
            raise InputError("record RECORD_ID (a finished game at this table names its own)")
        reply = await self.client.get_record(record_id)
        path = (folder or Path.cwd()) / f"{record_id}.json"
        path.write_text(json.dumps(reply.record.model_dump(mode="json"), indent=1))
        self.info(f"Saved {path.name}: `boneyard replay {path.name}` steps through it")
        return path

    async def shutdown(self) -> None:
        """Leave every table (the server then plays a seat we held) and close with 1000."""
        for task in self._acting.values():
            task.cancel()
        if self.client.connected:
            for table_id in list(self.client.mirror.tables):
                with contextlib.suppress(CommandError, TimeoutError):
                    await asyncio.wait_for(self.client.leave(table_id), 2)
        await self.client.close()


def rules_summary(mirror: TableMirror | None) -> str:
    """The rules of the game at the table (both games in the lobby), from the shipped rule book."""
    from boneyard.clients.cli.ui.rulebook import rules_text

    game = mirror.table.game if mirror is not None and mirror.table is not None else None
    return rules_text(game)
