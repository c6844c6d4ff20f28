"""Line mode: one line per event on standard output, one command per line from standard input.

For scripts, pipes and screen readers (``--line``, or whenever standard input or output is not a
terminal), and for ``--json``, where every server message is printed as one JSON object. The
full-screen table is :mod:`boneyard.clients.cli.tui`; both drive the same
:class:`~boneyard.clients.cli.ui.controller.Controller`.

Every line is written synchronously while the message that caused it is handled, so the output
is in exactly the order the server sent the messages, whatever the pace. (The old prompt printed
through prompt_toolkit's ``print_formatted_text``, which defers to a task that waits for the
terminal's cursor-position answer while a prompt runs but prints at once when none does: under
tmux, with bots answering instantly, later lines overtook earlier ones.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import stat
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.session import Client, Notice
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.controller import Controller, LineKind
from boneyard.clients.cli.ui.forms import FormError
from boneyard.protocol import DealRevealed, Snapshot, Turn
from boneyard.protocol.deals import FEATURE as DEAL_FEATURE

Startup = Callable[["LineUI"], Awaitable[None]]


def _pollable(stream: Any) -> bool:
    """Whether the loop can wait on ``stream``: a pipe, a socket or a terminal (not a file, not /dev/null)."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and stream.isatty())


class LineUI:
    """Runs one session as lines of text; :meth:`run` returns the exit code."""

    def __init__(
        self,
        client: Client,
        *,
        auto: bool = False,
        json_mode: bool = False,
        colour: bool = False,
        exit_on_game_over: bool = False,
        stdin: Any = None,
    ) -> None:
        self.client = client
        self.json_mode = json_mode
        self.style = render.STYLE if colour else Style([])
        self.exit_on_game_over = exit_on_game_over
        self.stdin = stdin if stdin is not None else sys.stdin
        self.controller = Controller(client, self, auto=auto, ready_at_once=True)
        self.exit_code = 0
        self._done = asyncio.Event()
        self._boards: dict[str, Any] = {}
        self._width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 0

    @property
    def current(self) -> str | None:
        return self.controller.current

    @current.setter
    def current(self, table_id: str | None) -> None:
        self.controller.current = table_id

    # --- Sink -------------------------------------------------------------------------------

    def line(self, fragments: render.Fragments, kind: LineKind) -> None:
        if self.json_mode:
            if kind in ("error", "notice", "info"):
                print(json.dumps({"notice": kind, "text": render.plain(fragments)}), flush=True)
            return
        if self._width:  # a terminal: break long lines between tiles, not inside one
            fragments = render.wrapped(fragments, self._width)
        print_formatted_text(FormattedText(fragments), style=self.style)

    def changed(self, table_id: str | None) -> None:
        """Line mode reprints the board only when it is our move (or on `board`)."""

    def stop(self, code: int) -> None:
        self.exit_code = code
        self._done.set()

    # --- messages ---------------------------------------------------------------------------

    def show_board(self, table_id: str | None) -> None:
        mirror = self.client.mirror.tables.get(table_id or "")
        if mirror is None or self.json_mode:
            return
        self._boards[mirror.table_id] = mirror.view
        fragments = render.board(mirror, mirror.seconds_left())
        if mirror.my_turn and mirror.view is not None and mirror.view.legal_actions:
            fragments += render.legal_moves(mirror.view)
        elif fragments and fragments[-1] == ("", "\n"):
            fragments = fragments[:-1]
        self.line(fragments, "info")

    def handle(self, item: Any) -> None:
        if self.json_mode:
            if isinstance(item, Notice):
                print(json.dumps({"notice": item.kind, "text": item.text, "code": item.code}), flush=True)
            else:
                print(json.dumps(item.model_dump(mode="json")), flush=True)
        self.controller.handle(item)
        table_id = getattr(item, "table_id", None) or (
            item.table.table_id if isinstance(item, Snapshot) else None
        )
        mirror = self.client.mirror.tables.get(table_id or "")
        # The board when it becomes our move, or when a snapshot shows a table we have not drawn.
        mine = isinstance(item, Turn) and mirror is not None and mirror.my_turn and bool(item.legal_actions)
        fresh = isinstance(item, Snapshot) and table_id == self.current
        if (mine or fresh) and mirror is not None and self._boards.get(mirror.table_id) != mirror.view:
            self.show_board(table_id)
        if self.exit_on_game_over and getattr(item, "table_id", None) == self.current:
            # A server with fair deals reveals its seed right after game_over: exit once it is checked.
            fair = self.client.hello is not None and DEAL_FEATURE in self.client.hello.features
            if isinstance(item, DealRevealed) or (self.controller.game_over(item) is not None and not fair):
                self.stop(0)

    # --- running ----------------------------------------------------------------------------

    async def execute(self, text: str) -> None:
        if text.strip().lower() in ("board", "show"):
            self.show_board(self.current)
            return
        await self.controller.execute(text)

    async def run(self, startup: Startup | None = None) -> int:
        """Listen, run ``startup`` (e.g. create a table), then read commands until done or end of input."""
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
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self.stop, 0)
        try:
            if startup is not None:
                await startup(self)
            if self.controller.auto:
                await self._done.wait()
            else:
                await self._read_commands()
        except (FormError, CommandError) as error:
            self.controller.error(error)
            self.exit_code = 1
        finally:
            await self.controller.shutdown()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        return self.exit_code

    async def _read_commands(self) -> None:
        """Commands from standard input, one per line, until it ends (then exit 0)."""
        if isinstance(self.stdin, asyncio.StreamReader):
            await self._read_lines(self.stdin)
            return
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        transport: asyncio.BaseTransport | None = None
        if _pollable(self.stdin):
            transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), self.stdin
            )
        else:  # a regular file or /dev/null (epoll refuses both): read it whole, then the end of input
            with contextlib.suppress(OSError, ValueError):
                reader.feed_data((await asyncio.to_thread(self.stdin.read)).encode())
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
