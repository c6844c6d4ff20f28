"""What the lobby and table screens share: a log, a one-line status, and knowing when they are drawn."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol, cast

from rich.text import Text
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import RichLog, Static

from boneyard.clients.cli.core.session import Client
from boneyard.clients.cli.ui.controller import Controller


class PlayApp(Protocol):
    """What the screens need of the app (``tui.app.BoneyardApp``), named here so they need not import it."""

    client: Client
    controller: Controller
    clock: Callable[[], float]

    def backlog(self, table_id: str | None) -> list[Text]: ...

    async def run_line(self, text: str) -> None: ...

    async def guarded(self, work: Awaitable[None]) -> None: ...

    def action_help(self) -> None: ...


def log_widget(lines: int) -> RichLog:
    return RichLog(id="log", wrap=True, markup=False, max_lines=lines, min_width=16)


class PlayScreen(Screen[None]):
    """A screen with ``#log`` and ``#status``; messages may arrive before it is mounted (then ignored)."""

    ready = False
    """Composed and mounted: the regions exist."""

    @property
    def boneyard(self) -> PlayApp:
        return cast(PlayApp, self.app)

    def write(self, line: Text) -> None:
        if self.ready:
            with contextlib.suppress(NoMatches):  # the app is closing: the regions are gone already
                self.query_one("#log", RichLog).write(line)

    def status(self, text: Text | str) -> None:
        if self.ready:
            with contextlib.suppress(NoMatches):  # the app is closing: the regions are gone already
                self.query_one("#status", Static).update(text)

    def redraw(self) -> None:
        """Draw everything again from the mirror."""
