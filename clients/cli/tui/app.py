"""The full-screen terminal client: a Textual app over the client core.

Why Textual (and not prompt_toolkit's full-screen ``Application``, which the client used for its
scrolling prompt): a table is a screen of fixed regions that each redraw from the mirror, and
Textual gives exactly that with widgets and a CSS layout that reflows from 80x24 upward; mouse
clicks arrive per widget with local coordinates (a tile in the hand, a bid); modal screens make
the help, the rules, a hand's result and the game over simple; it runs on the asyncio loop the
client core already uses; and it has a headless ``Pilot`` and SVG screen snapshots
(``pytest-textual-snapshot``) to test the real app at a fixed size, which prompt_toolkit lacks.

Messages are handled one at a time, in the order the client core delivers them (the server's
``seq`` order), by one task: :meth:`BoneyardApp.handle` updates the log and redraws synchronously,
so no event can be drawn before an earlier one, whatever the bots' pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import NoColor

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.session import Client, Notice
from boneyard.clients.cli.tui.lobby import LobbyScreen
from boneyard.clients.cli.tui.screens import (
    ConfirmScreen,
    GameOverScreen,
    HandResultScreen,
    HelpScreen,
    Passing,
    RulesScreen,
)
from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.controller import Controller, LineKind, one_line
from boneyard.protocol import DealRevealed
from boneyard.protocol.game import GameEvent, GameOver, HandStarted

Startup = Callable[["BoneyardApp"], Awaitable[None]]

STYLES = {
    "class:title": "bold", "class:trump": "yellow bold", "class:legal": "green bold",
    "class:number": "cyan bold", "class:dim": "dim", "class:me": "cyan bold", "class:turn": "magenta bold",
    "class:score": "bold",
    "class:good": "green", "class:bad": "red", "class:error": "red bold", "class:notice": "yellow",
    "class:chat": "blue", "class:tile": "",
}  # fmt: skip
"""The line renderer's style classes as Rich styles."""

LOBBY_NEWS = ("lobby_changed", "table_created", "table_updated", "table_removed", "table_list")
"""Messages about the lobby: their lines go to the lobby's log, not a table's."""

LEAVE_QUESTION = "Leave the game in progress? The server plays your seat. (y/n)"

LOW_TIME = 10.0
"""Seconds left on your clock when the bell rings a second time."""


def to_text(fragments: render.Fragments) -> Text:
    out = Text()
    for fragment in fragments:
        style = " ".join(STYLES.get(part, "") for part in fragment[0].split())
        text = fragment[1]
        lead = len(text) - len(text.lstrip(" "))
        out.append(text[:lead])  # spaces unstyled: a styled run's leading spaces get lost in wrapping
        out.append(text[lead:], style.strip() or None)
    return out


class BoneyardApp(App[int]):
    """One player's session on a full screen: the lobby, a table, and the windows over it."""

    CSS_PATH = "boneyard.tcss"
    TITLE = "Boneyard"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit_app", "Quit", priority=True, show=False),
        Binding("f1", "help", "Help", show=False),
    ]

    def __init__(
        self,
        client: Client,
        *,
        startup: Startup | None = None,
        auto: bool = False,
        colour: bool = True,
        bell: bool = True,
        pause: float = 4.0,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        # --pause 0: no window between hands, so nothing to look at: ready at once (and with --auto).
        self.controller = Controller(client, self, auto=auto, rng=rng, ready_at_once=pause <= 0)
        self.startup = startup
        self.bell_on = bell
        self.pause = pause
        """Seconds a hand's result stays up between hands (0: not shown; any key goes on)."""
        self.clock = clock
        self.exit_code = 0
        self.rings = 0
        """How many times the bell rang (your turn, and again at 10 s left)."""
        self._lines: list[tuple[str | None, Text]] = []
        self._table_of_item: str | None = None
        self._warned_low = False
        self._mine: dict[str, bool] = {}
        self._shown_over: dict[str, GameOver] = {}
        """Each table's last game whose game-over window was shown."""
        self._stopping = False
        if not colour:
            self.no_color = True
            self._filters.append(NoColor())

    # --- Sink -------------------------------------------------------------------------------

    def line(self, fragments: render.Fragments, kind: LineKind) -> None:
        text = to_text(fragments)
        window = self.screen
        if isinstance(window, Passing) and kind != "event" and self._belongs(window, self._table_of_item):
            window.note(text)  # what was typed through the window is answered on it (not the play)
        if kind == "error":
            self._status(text)
            return
        self._lines.append((self._table_of_item, text))
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen | LobbyScreen) and self._belongs(screen, self._table_of_item):
                screen.write(text)

    def changed(self, table_id: str | None) -> None:
        self._follow()
        screen = self.screen
        if isinstance(screen, TableScreen | LobbyScreen):
            screen.redraw()

    def stop(self, code: int) -> None:
        self.exit_code = code
        self._stopping = True
        self.exit(code)

    def _status(self, text: Text) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen | LobbyScreen):
                screen.status(text)

    def backlog(self, table_id: str | None) -> list[Text]:
        """The log lines of a table (and the general ones), for a screen that just opened."""
        return [text for t, text in self._lines if t in (None, table_id)][-200:]

    def _belongs(self, screen: Any, table_id: str | None) -> bool:
        if isinstance(screen, LobbyScreen):
            return table_id in (None, "lobby")
        if isinstance(screen, Passing):
            return table_id in (None, screen.mirror.table_id)
        return table_id in (None, self.controller.current)

    @property
    def status_text(self) -> str:
        """The status line's text (what the last mistake or refusal said)."""
        screen = next(
            (s for s in reversed(self.screen_stack) if isinstance(s, TableScreen | LobbyScreen)), None
        )
        if screen is None:
            return ""
        return str(screen.query_one("#status").render())

    # --- messages, in order ----------------------------------------------------------------

    def handle(self, item: Any) -> None:
        lobby = getattr(item, "type", None) in LOBBY_NEWS
        self._table_of_item = "lobby" if lobby else getattr(item, "table_id", None)
        self.controller.handle(item)
        self._table_of_item = None
        if isinstance(item, Notice) and item.kind == "resumed":
            self._status(Text(""))  # "[disconnected] ..." is over
        mirror = self.controller.mirror
        table_id = getattr(item, "table_id", None)
        turn = self.client.mirror.tables.get(table_id or "")
        if turn is not None:  # the bell when it becomes our move (a Straight draw keeps it: no new ring)
            mine = turn.my_turn
            if mine and not self._mine.get(turn.table_id, False):
                self._warned_low = False
                self.ring()
            self._mine[turn.table_id] = mine
        event = getattr(item, "event", None)
        if mirror is None or getattr(item, "table_id", None) != mirror.table_id:
            return
        if isinstance(item, DealRevealed) and isinstance(self.screen, GameOverScreen):
            self.screen.update_verdict()
        if (
            isinstance(event, HandStarted)
            and isinstance(self.screen, HandResultScreen)
            and self.screen.paused
        ):
            self.pop_screen()  # the server's pause is over
        if isinstance(event, GameEvent) and event.type == "hand_scored" and self.pause > 0:
            # Shown after this batch of messages, unless the game ends with the hand.
            self.set_timer(0.05, lambda: self._hand_result(mirror.table_id, len(mirror.hands)))
        if self.controller.game_over(item) is not None:
            self.set_timer(0.05, lambda: self._game_over(mirror.table_id))

    def ring(self) -> None:
        if self.bell_on:
            self.rings += 1
            self.bell()

    def _hand_result(self, table_id: str, hands: int) -> None:
        mirror = self.client.mirror.tables.get(table_id)
        if mirror is None or mirror.game_over is not None or len(mirror.hands) != hands:
            return
        if isinstance(self.screen, TableScreen):
            self.push_screen(HandResultScreen(mirror, self.pause, partial(self.say_ready, table_id)))

    async def say_ready(self, table_id: str) -> None:
        await self.controller.guard(self.client.ready(table_id))

    def _game_over(self, table_id: str) -> None:
        mirror = self.client.mirror.tables.get(table_id)
        if mirror is None or mirror.game_over is None or self.controller.current != table_id:
            return
        if self._shown_over.get(table_id) is mirror.game_over:
            return  # this game's window was shown (a rematch's game has its own game_over)
        self._shown_over[table_id] = mirror.game_over
        while isinstance(self.screen, HandResultScreen):
            self.pop_screen()
        self.push_screen(GameOverScreen(mirror), self._after_game)

    async def _after_game(self, choice: str | None) -> None:
        if choice == "rematch":
            await self.run_line("rematch")
        elif choice == "save":
            await self.run_line("record")
            mirror = self.controller.mirror
            if mirror is not None:
                self.push_screen(GameOverScreen(mirror, "  · saved"), self._after_game)
        elif choice == "lobby":
            await self.run_line("leave")
        elif choice == "quit":
            self.stop(0)

    def _follow(self) -> None:
        """Show the table screen while a table is current, the lobby otherwise."""
        if self._stopping:
            return
        on_table = any(isinstance(s, TableScreen) for s in self.screen_stack)
        mirror = self.controller.mirror
        if mirror is not None and not on_table:
            self.push_screen(TableScreen())
        elif mirror is None and on_table:
            while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
                self.pop_screen()

    def _tick(self) -> None:
        if self._stopping or not self.screen_stack:
            return  # the app is closing: its screens may be gone already
        mirror = self.controller.mirror
        if isinstance(self.screen, TableScreen):
            self.screen.tick()
        if mirror is not None and mirror.my_turn:
            left = mirror.seconds_left(self.clock)
            if left is not None and left <= LOW_TIME and not self._warned_low:
                self._warned_low = True
                self.ring()

    # --- the player's words -----------------------------------------------------------------

    async def run_line(self, text: str) -> None:
        """A typed line: a move or a command (every failure becomes the status line)."""
        words = text.strip().lower()
        if words in ("?", "help", "h"):
            self.action_help()
        elif words == "rules":
            self.action_rules()
        elif words in ("quit", "exit", "q"):
            await self.action_quit_app()
        elif words == "leave" and self._in_game():
            line = text

            async def answer(yes: bool | None) -> None:
                if yes:
                    await self.controller.execute(line)

            self.push_screen(ConfirmScreen(LEAVE_QUESTION), answer)
        else:
            await self.controller.execute(text)

    async def guarded(self, work: Awaitable[None]) -> None:
        try:
            await work
        except Exception as error:  # one line, and the app keeps running
            self._status(to_text(one_line(error)))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_rules(self) -> None:
        mirror = self.controller.mirror
        game = mirror.table.game if mirror is not None and mirror.table is not None else None
        self.push_screen(RulesScreen(game))

    def _in_game(self) -> bool:
        """Seated at a game still being played, by us (not the bot): leaving then asks first."""
        mirror = self.controller.mirror
        playing = mirror is not None and mirror.seat is not None and mirror.view is not None
        return playing and mirror is not None and mirror.game_over is None and not self.controller.auto

    async def action_quit_app(self) -> None:
        if self._in_game():

            def answer(yes: bool | None) -> None:
                if yes:
                    self.stop(0)

            self.push_screen(ConfirmScreen(LEAVE_QUESTION), answer)
            return
        self.stop(0)

    # --- running ----------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen())
        self.set_interval(0.5, self._tick)
        self.run_worker(self._pump(), exclusive=False, group="pump")

    async def _pump(self) -> None:
        stream = self.client.listen()
        # The lobby opens with every table now (its pushes tell only of changes), as line mode does.
        self.run_worker(self.guarded(self._list_tables()), group="startup")
        if self.startup is not None:
            self.run_worker(self.guarded(self.startup(self)), group="startup")
        async for item in stream:
            try:
                self.handle(item)
            except Exception as error:  # a bug of ours must not end the game: say it in one line, go on
                self._status(
                    to_text(one_line(RuntimeError(f"could not show a {type(item).__name__}: {error}")))
                )

    async def _list_tables(self) -> None:
        await self.client.list_tables()
        self.changed(None)

    async def run_session(self) -> int:
        """Run until quit (or the connection closes for good); leave the tables and close."""
        try:
            await self.run_async()
        finally:
            with contextlib.suppress(CommandError, asyncio.CancelledError, OSError):
                await self.controller.shutdown()
        return self.exit_code
