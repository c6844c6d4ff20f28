"""What the lobby and table screens share: a log, a one-line status, and knowing when they are drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.screen import Screen
from textual.widgets import RichLog, Static

if TYPE_CHECKING:
    from boneyard.clients.cli.tui.app import BoneyardApp


def log_widget(lines: int) -> RichLog:
    return RichLog(id="log", wrap=True, markup=False, max_lines=lines, min_width=16)


class PlayScreen(Screen[None]):
    """A screen with ``#log`` and ``#status``; messages may arrive before it is mounted (then ignored)."""

    ready = False
    """Composed and mounted: the regions exist."""

    @property
    def boneyard(self) -> BoneyardApp:
        return cast("BoneyardApp", self.app)

    def write(self, line: Text) -> None:
        if self.ready:
            self.query_one("#log", RichLog).write(line)

    def status(self, text: Text | str) -> None:
        if self.ready:
            self.query_one("#status", Static).update(text)

    def redraw(self) -> None:
        """Draw everything again from the mirror."""
