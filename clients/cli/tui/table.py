"""The table screen: title, players, board, your hand and moves in the middle; score sheet and log aside.

The command line at the bottom takes everything a player can type (moves, ``say``, ``rules``...);
while it is empty, ← and → move along the hand and Enter plays the highlighted tile, and ``?``
opens the help. The one-line status above it answers every mistake and refusal, in words.
"""

from __future__ import annotations

from typing import ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.tui.base import PlayApp, PlayScreen, log_widget
from boneyard.clients.cli.tui.sheet import sheet_text
from boneyard.clients.cli.tui.widgets import ActionBar, Board, HandBar, Players
from boneyard.clients.cli.ui.commands import held_play
from boneyard.clients.cli.ui.describe import game_title


class CommandLine(Input):
    """The input line; while empty, arrows and Enter steer the hand instead of the text cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "hand(-1)", show=False, priority=True),
        Binding("right", "hand(1)", show=False, priority=True),
    ]

    def action_hand(self, step: int) -> None:
        if self.value:
            (self.action_cursor_left if step < 0 else self.action_cursor_right)()
            return
        hand = self.screen.query_one(HandBar)
        hand.move(step)

    async def _on_key(self, event: events.Key) -> None:
        if event.character == "?" and not self.value:
            event.stop()
            event.prevent_default()
            cast(PlayApp, self.app).action_help()


def title_text(mirror: TableMirror | None, connected: bool) -> Text:
    """The title line; what matters most first (a narrow screen cuts the end)."""
    if mirror is None or mirror.view is None:
        table = mirror.table_id if mirror is not None else "?"
        return Text(f"Table {table}: waiting for players", "bold")
    view = mirror.view
    out = Text(no_wrap=True, overflow="ellipsis")
    if not connected:
        out.append("reconnecting… ", "bold red")
    if mirror.game_over is not None:
        out.append("game over · ", "bold")
    elif view.to_move is None:  # a hand is scored and the next not dealt yet (the pause between hands)
        out.append("between hands · ", "bold")
    elif mirror.my_turn:
        out.append(" YOUR TURN ", "bold reverse")
        out.append(" ")
    game = game_title(view.game)
    out.append(f"{game} · {mirror.table_id} · hand {view.hand_number + 1} · to {view.target}", "bold")
    if mirror.seat is None:
        out.append("  (watching)", "dim")
    return out


class TableScreen(PlayScreen):
    """One table, drawn from its mirror (``app.controller.current``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "clear", "Clear", show=False)]

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="table"):
                yield Static(id="title")
                yield Players(id="players")
                yield Board(id="board")
                yield ActionBar(id="actions")
                yield HandBar(id="hand")
            with Vertical(id="side"):
                yield Static(id="sheet")
                yield log_widget(500)
        yield Static(id="status")
        yield CommandLine(placeholder="a move or a command · ? help · rules", id="command")

    def on_mount(self) -> None:
        self.setup()

    def setup(self) -> None:
        """Once mounted (Textual calls every class's own ``on_mount``: subclasses override this)."""
        self.ready = True
        for line in self.boneyard.backlog(self.boneyard.controller.current):
            self.write(line)
        self.redraw()
        self.query_one(CommandLine).focus()

    def source(self) -> tuple[TableMirror | None, float | None, bool]:
        """The table to draw, its turn clock, and whether we are connected."""
        app = self.boneyard
        mirror = app.controller.mirror
        seconds = None if mirror is None else mirror.seconds_left(app.clock)
        return mirror, seconds, app.client.connected

    def _drawable(self) -> bool:
        """Mounted, and its widgets still there: a timer or a message can arrive while the app closes
        and the screen's children are already gone."""
        return self.ready and bool(self.query(Players))

    def redraw(self) -> None:
        if not self._drawable():
            return
        mirror, seconds, connected = self.source()
        self.query_one("#title", Static).update(self.heading(mirror, connected))
        for widget in (self.query_one(Players), self.query_one(Board), self.query_one(ActionBar)):
            widget.show(mirror, seconds)
        self.query_one(HandBar).show(mirror)
        sheet = self.query_one("#sheet", Static)
        width = sheet.size.width or 28
        sheet.update(sheet_text(mirror, width, last=3) if mirror is not None else "")

    def on_resize(self, event: events.Resize) -> None:
        # The sheet is laid out for its width when drawn: draw it again once the new sizes are known.
        self.call_after_refresh(self.redraw)

    def heading(self, mirror: TableMirror | None, connected: bool) -> Text:
        return title_text(mirror, connected)

    def tick(self) -> None:
        """The turn clock moved (once a second or so): only the players' line shows it."""
        mirror = self.boneyard.controller.mirror
        if mirror is not None and self._drawable():
            self.query_one(Players).show(mirror, mirror.seconds_left(self.boneyard.clock))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        self.action_clear()
        if not text.strip():
            await self.play_selected()
            return
        self.status("")
        await self.boneyard.run_line(text)

    async def play_selected(self) -> None:
        hand = self.query_one(HandBar)
        menu = hand.menu()
        if menu and any(c.legal for c in menu):
            await self.choose(hand.selected + 1)

    async def choose(self, number: int) -> None:
        """Hand tile ``number`` chosen (click or Enter): play it, or ask which end when it fits several."""
        menu = self.query_one(HandBar).menu()
        if not 1 <= number <= len(menu):
            return
        choice = menu[number - 1]
        if not choice.actions:
            if choice.tile is not None:  # the server's refusal says why not (e.g. "you must follow 5s")
                await self.boneyard.controller.act(held_play(choice.tile))
            return
        if len(choice.actions) > 1:
            ends = " or ".join(str(getattr(a, "end", "")) for a in choice.actions)
            self.query_one(ActionBar).ask(choice)
            line = self.query_one(CommandLine)
            line.value = f"{choice.tile[0]}{choice.tile[1]} " if choice.tile else ""
            line.cursor_position = len(line.value)
            self.status(
                Text(f"{choice.label} fits {ends}: type the end (e.g. {choice.actions[0].end}) and Enter")
            )
            return
        await self.boneyard.controller.act(choice.actions[0])

    async def on_hand_bar_chosen(self, message: HandBar.Chosen) -> None:
        await self.choose(message.number)

    async def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        self.action_clear()
        await self.boneyard.controller.act(message.action)

    def action_clear(self) -> None:
        self.query_one(CommandLine).value = ""
        self.query_one(ActionBar).ask(None)
        self.status("")
