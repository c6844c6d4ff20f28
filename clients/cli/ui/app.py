"""The terminal UI: a prompt_toolkit prompt that keeps working while server events print above it.

prompt_toolkit was chosen over Textual because the game is a conversation, not a form: a
scrolling log of what happens at the table, a board reprinted when it is your turn, and
one input line. ``print_formatted_text`` prints above a running prompt (no ``patch_stdout``
needed), the bottom toolbar redraws a turn countdown, the output stays a normal scrollable
transcript that can be piped or read from a pty, it degrades to plain text by itself
where there is no terminal, and its pipe input gives a headless test harness. It is also
already a project dependency (Textual is not).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from boneyard.clients.cli import bots
from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.session import Client, Notice
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.commands import (
    Command,
    InputError,
    help_text,
    parse_command,
    parse_create,
    parse_move,
)
from boneyard.clients.cli.ui.describe import error_line, message_line
from boneyard.protocol import DealRevealed, Seated, Snapshot, TableCreated, Turn
from boneyard.protocol.deals import FEATURE as DEAL_FEATURE
from boneyard.protocol.game import GameOver

Startup = Callable[["TerminalUI"], Awaitable[None]]


class TerminalUI:
    """Runs one session in the terminal; :meth:`run` returns the exit code."""

    def __init__(
        self,
        client: Client,
        *,
        auto: bool = False,
        json_mode: bool = False,
        colour: bool = True,
        exit_on_game_over: bool = False,
        rng: random.Random | None = None,
        interactive: bool | None = None,
    ) -> None:
        self.client = client
        self.auto = auto
        self.json_mode = json_mode
        self.style = render.STYLE if colour else Style([])
        self.exit_on_game_over = exit_on_game_over
        self.rng = rng or random.Random()
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        """Read commands at a prompt; otherwise (a pipe, a script) one per line from standard input."""
        self.current: str | None = None
        """The table the player is looking at (moves and chat go there)."""
        self.exit_code = 0
        self._done = asyncio.Event()
        self._session: PromptSession[str] | None = None
        self._acting: dict[str, asyncio.Task[None]] = {}
        self._boards: dict[str, Any] = {}
        self.idle = asyncio.Event()
        """Set while the prompt waits for a line (lets a script type one line at a time)."""

    # --- output ----------------------------------------------------------------------------

    def show(self, fragments: render.Fragments) -> None:
        if self.json_mode:
            print(json.dumps({"notice": "info", "text": render.plain(fragments)}), flush=True)
        else:
            print_formatted_text(FormattedText(fragments), style=self.style)

    def show_error(self, error: Exception) -> None:
        if isinstance(error, CommandError):
            fragments = error_line(error)
        else:
            fragments = [("class:error", "Error: "), ("", str(error))]
        if self.json_mode:
            print(json.dumps({"notice": "error", "text": render.plain(fragments)}), flush=True)
        else:
            self.show(fragments)

    def show_board(self, table_id: str | None = None) -> None:
        mirror = self.client.mirror.tables.get(table_id or self.current or "")
        if mirror is None:
            self.show(
                [("class:dim", "No table yet: `tables`, then `join TABLE SEAT`, `watch TABLE` or `create`.")]
            )
            return
        self._boards[mirror.table_id] = mirror.view
        fragments = render.board(mirror, mirror.seconds_left())
        if mirror.my_turn and mirror.view is not None and mirror.view.legal_actions:
            fragments += render.legal_moves(mirror.view)
        else:
            fragments = fragments[:-1] if fragments and fragments[-1] == ("", "\n") else fragments
        self.show(fragments)

    def toolbar(self) -> render.Fragments:
        mirror = self.client.mirror.tables.get(self.current or "")
        link = "" if self.client.connected else " · reconnecting…"
        if mirror is None or mirror.view is None:
            where = f"table {mirror.table_id}: waiting" if mirror else "lobby"
            return [("", f" {where}{link} · `help` lists commands ")]
        view = mirror.view
        seconds = mirror.seconds_left()
        clock = f" · {int(seconds)} s" if seconds is not None else ""
        if view.to_move is None:
            turn = "game over · `rematch` or `quit`"
        elif view.to_move == mirror.seat:
            turn = "YOUR TURN" + (" (auto)" if self.auto else "")
        else:
            turn = f"{mirror.seat_name(view.to_move)} to move"
        return [("", f" {view.game} · table {mirror.table_id} · {turn}{clock}{link} · `help` ")]

    # --- events ----------------------------------------------------------------------------

    def handle(self, item: Any) -> None:
        """React to one server message or notice (already applied to the mirror)."""
        if self.json_mode:
            if isinstance(item, Notice):
                print(json.dumps({"notice": item.kind, "text": item.text, "code": item.code}), flush=True)
            else:
                print(json.dumps(item.model_dump(mode="json")), flush=True)
        else:
            line = message_line(self.client.mirror, item)
            if line is not None:
                self.show(line)
        if isinstance(item, Seated | TableCreated) and getattr(item, "reply_to", None) is not None:
            self.current = item.table_id if isinstance(item, Seated) else item.table.table_id
        if isinstance(item, Snapshot):
            table_id = item.table.table_id
            self.current = self.current or table_id
            if table_id == self.current and not self.json_mode and self._changed(table_id):
                self.show_board(table_id)
        if isinstance(item, Turn):
            mirror = self.client.mirror.tables.get(item.table_id)
            if mirror is not None and mirror.my_turn and item.legal_actions:
                if not self.json_mode and self._changed(item.table_id):
                    self.show_board(item.table_id)
                if self.auto:
                    self._auto_play(item.table_id)
        if isinstance(item, Snapshot) or (isinstance(item, Notice) and item.kind == "resumed"):
            # After a resume no new `turn` may come for a move that was already ours.
            for table_id, mirror in self.client.mirror.tables.items():
                if self.auto and mirror.my_turn:
                    self._auto_play(table_id)
                elif isinstance(item, Notice) and table_id == self.current and not self.json_mode:
                    self.show_board(table_id)  # back: where were we?
        event = getattr(item, "event", None)
        if self.exit_on_game_over and getattr(item, "table_id", None) == self.current:
            # A server with fair deals reveals its seed right after game_over: exit once it is checked.
            fair = self.client.hello is not None and DEAL_FEATURE in self.client.hello.features
            if isinstance(item, DealRevealed) or (isinstance(event, GameOver) and not fair):
                self.stop(0)
        if isinstance(item, Notice) and item.kind == "closed" and not self._done.is_set():
            self.stop(0 if item.code == 1000 else 1)

    def _changed(self, table_id: str) -> bool:
        """Whether the table looks different from the last board shown (a snapshot may repeat it)."""
        mirror = self.client.mirror.tables.get(table_id)
        return mirror is not None and self._boards.get(table_id) != mirror.view

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
            action = bots.choose(mirror.view, self.rng)
            try:
                await self.client.act(table_id, action)
            except CommandError as error:
                self.show_error(error)
                return

    # --- input -----------------------------------------------------------------------------

    async def execute(self, text: str) -> None:
        """Run one line the player typed."""
        text = text.strip()
        if not text:
            return
        try:
            command = parse_command(text)
            if command is not None:
                await self._command(command)
            else:
                await self._move(text)
        except (InputError, CommandError) as error:
            self.show_error(error)

    async def _move(self, text: str) -> None:
        mirror = self.client.mirror.tables.get(self.current or "")
        if mirror is None or mirror.view is None:
            raise InputError("no game here yet: `tables`, `join`, `watch` or `create` (see `help`)")
        if mirror.seat is None:
            raise InputError("you are watching this table, not playing at it")
        to_move = mirror.view.to_move
        waiting = "game over" if to_move is None else f"it is {mirror.seat_name(to_move)}'s turn, not yours"
        legal = mirror.view.legal_actions if mirror.my_turn else ()
        action = parse_move(text, legal, waiting)
        await self.client.act(mirror.table_id, action)

    def _table_arg(self, args: list[str]) -> str:
        table_id = args[0] if args else self.current
        if not table_id:
            raise InputError("which table? (none selected)")
        return table_id

    async def _command(self, command: Command) -> None:
        name, args = command.name, command.args
        client = self.client
        if name == "help":
            self.show([("", help_text())])
        elif name == "tables":
            reply = await client.list_tables()
            for table in reply.tables:
                self.show(render.table_line(table))
            if not reply.tables:
                self.show([("class:dim", "No tables yet: `create moon bots=1,2` starts one.")])
        elif name == "create":
            created = await client.create_table(**parse_create(args))
            self.current = created.table.table_id
        elif name in ("join", "take"):
            if len(args) != 2 or not args[1].isdigit():
                raise InputError(f"{name} TABLE SEAT")
            join = client.join if name == "join" else client.take_seat
            await join(args[0], int(args[1]))
            self.current = args[0]
        elif name == "watch":
            self.current = self._table_arg(args)
            await client.spectate(self.current)
        elif name == "leave":
            table_id = self._table_arg(args)
            await client.leave(table_id)
            self.current = None if table_id == self.current else self.current
            self.show([("class:notice", f"Left table {table_id}")])
        elif name == "say":
            if not args:
                raise InputError("say what?")
            await client.chat(self._table_arg([]), args[0])
        elif name == "rematch":
            await client.rematch(self._table_arg(args))
            self.show([("class:notice", "Rematch asked: it starts when every seated player has asked")])
        elif name == "board":
            self.show_board(args[0] if args else None)
        elif name == "record":
            await self._record(args)
        elif name == "auto":
            self.auto = (args[0] if args else "on") in ("on", "yes", "1")
            self.show([("class:notice", f"auto play {'on' if self.auto else 'off'}")])
            if self.auto and self.current:
                self._auto_play(self.current)
        elif name == "ping":
            start = time.perf_counter()
            await client.ping()
            self.show([("", f"pong in {(time.perf_counter() - start) * 1000:.1f} ms")])
        elif name == "quit":
            self.stop(0)

    async def _record(self, args: list[str]) -> None:
        mirror = self.client.mirror.tables.get(self.current or "")
        record_id = args[0] if args else None
        if record_id is None and mirror is not None and mirror.game_over is not None:
            record_id = mirror.game_over.record_id
        if not record_id:
            raise InputError("record RECORD_ID (a finished game at this table names its own)")
        reply = await self.client.get_record(record_id)
        path = Path(f"{record_id}.json")
        path.write_text(json.dumps(reply.record.model_dump(mode="json"), indent=1))
        self.show([("class:notice", f"Saved {path}: `boneyard replay {path}` steps through it")])

    # --- running ---------------------------------------------------------------------------

    def stop(self, code: int) -> None:
        """End :meth:`run` with exit ``code`` (from an event handler or a command)."""
        self.exit_code = code
        self._done.set()
        if self._session is not None and self._session.app.is_running:
            self._session.app.exit(result="")

    async def run(self, startup: Startup | None = None) -> int:
        """Listen, run ``startup`` (e.g. create a table), then read commands until done."""
        stream = self.client.listen()  # subscribe before anything can happen
        if self.json_mode:  # the handshake happened before the UI started: show it too
            for message in (self.client.hello, self.client.welcome):
                if message is not None:
                    self.handle(message)

        async def pump() -> None:
            async for item in stream:
                self.handle(item)

        listener = asyncio.create_task(pump())
        loop = asyncio.get_running_loop()
        # Ctrl-C between prompts (while a command runs or a line prints) arrives as SIGINT, not
        # as a key: either way it means "leave cleanly".
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self.stop, 0)
        try:
            if startup is not None:
                await startup(self)
            if self.interactive and not self.json_mode:
                await self._prompt_loop()
            else:
                await self._script_loop()
        except (InputError, CommandError) as error:
            self.show_error(error)
            self.exit_code = 1
        finally:
            await self._shutdown()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        return self.exit_code

    async def _prompt_loop(self) -> None:
        self._session = PromptSession(bottom_toolbar=self.toolbar, refresh_interval=0.5, style=self.style)

        def bail_if_done() -> None:
            if self._done.is_set() and self._session is not None:
                self._session.app.exit(result="")
            self.idle.set()

        while not self._done.is_set():
            try:
                text = await self._session.prompt_async("> ", pre_run=bail_if_done, handle_sigint=False)
            except (KeyboardInterrupt, EOFError):  # Ctrl-C, Ctrl-D: leave cleanly
                break
            finally:
                self.idle.clear()
            if not self._done.is_set():
                await self.execute(text)

    async def _script_loop(self) -> None:
        """Commands from standard input, one per line, until it ends; with --auto, the bot plays instead."""
        if self.auto:
            await self._done.wait()
            return
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        transport: asyncio.BaseTransport | None = None
        try:
            transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), sys.stdin
            )
        except (OSError, ValueError):  # not a pipe (a regular file, or closed): nothing to read
            reader.feed_eof()
        try:
            await self._read_lines(reader)
        finally:
            if transport is not None:
                transport.close()

    async def _read_lines(self, reader: asyncio.StreamReader) -> None:
        while not self._done.is_set():
            line_task = asyncio.ensure_future(reader.readline())
            done_task = asyncio.ensure_future(self._done.wait())
            await asyncio.wait({line_task, done_task}, return_when=asyncio.FIRST_COMPLETED)
            done_task.cancel()
            if not line_task.done():
                line_task.cancel()
                break
            line = line_task.result()
            if not line:  # end of input
                break
            await self.execute(line.decode(errors="replace"))

    async def _shutdown(self) -> None:
        """Leave every table (the server then plays a seat we held) and close with 1000."""
        for task in self._acting.values():
            task.cancel()
        if self.client.connected:
            for table_id in list(self.client.mirror.tables):
                with contextlib.suppress(CommandError, TimeoutError):
                    await asyncio.wait_for(self.client.leave(table_id), 2)
        await self.client.close()
