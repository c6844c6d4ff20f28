"""The screens over the table: help, the rules, a hand's result, the game over, "leave the game?"."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Markdown, Static

from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.tui.sheet import hand_words, sheet_text
from boneyard.clients.cli.ui.describe import winner_text
from boneyard.clients.cli.ui.rulebook import rules_text

ResultType = TypeVar("ResultType")

KEYS = """\
Keys at the table
  1..9 Enter    that tile of your hand (or that bid, trump, draw...)
  ← → Enter     move along your hand; play the highlighted tile
  mouse         click a tile, or an action (bid, pass, trump, draw)
  64  6-4  64 l name a tile (and a Straight end: left right up down)
  bid 5  pass  trump 6  trump doubles  trump none  draw
  ?  help       Esc  close a window
Commands: say TEXT · rules · ready · rematch · record · leave
          auto on|off · tables · quit
In the lobby: create moon bots=1,2 turn=30 · join TABLE SEAT
          watch TABLE · or fill in the form and press Create
          F2  players: leaderboards per kind, profiles (Esc back)
Green tiles are the ones you may play; * marks Moon's trumps."""


class Window(ModalScreen[ResultType]):
    """A window over the table. Closing one that is no longer on top does nothing: Textual's ``dismiss``
    pops whatever screen is on top, so a window closed twice (the next hand closed it while Space's
    ``ready`` was on its way, then Space's handler closed it again) used to close the table under it."""

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if not self.is_active:
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return done
        return super().dismiss(result)


class Dismissable(Window[str]):
    """A window closed by Esc (or any key named in its bindings)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss('')", "Close"),
        Binding("q", "dismiss('')", "Close", show=False),
    ]


class HelpScreen(Dismissable):
    def compose(self) -> ComposeResult:
        with Vertical(classes="window"):
            yield Static(KEYS, id="help-text")
            yield Static("Esc closes", classes="hint")


class RulesScreen(Dismissable):
    def __init__(self, game: str | None) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(classes="window wide"):
            with VerticalScroll():
                yield Markdown(rules_text(self.game), id="rules-text")
            yield Static("↑ ↓ scroll · Esc closes", classes="hint")


class Passing(Window[str]):
    """A window that leaves the keyboard to the table's command line: what the player types goes there
    (``leave``, ``say``, ``quit``, a move to come...), and only Space, Enter and Esc on an empty command line
    are the window's own. The latest line said (or refused) shows at its foot (``#note``)."""

    mirror: TableMirror

    AUTO_FOCUS = None
    """Nothing in the window takes the focus (its buttons answer clicks), so every key comes to
    :meth:`on_key` first."""

    def prompt(self) -> Input | None:
        """The command line of the screen under the window."""
        under = self.app.screen_stack[:-1]
        found = under[-1].query("#command") if under and self.is_active else None
        widget = found.first() if found else None
        return widget if isinstance(widget, Input) else None

    async def on_key(self, event: events.Key) -> None:
        line = self.prompt()
        if line is None:
            return
        typed = bool(line.value)
        if event.is_printable and (typed or event.key != "space"):
            assert event.character is not None
            line.insert_text_at_cursor(event.character)
        elif event.key == "backspace" and typed:
            line.action_delete_left()
        elif event.key == "enter" and typed:
            await line.action_submit()
        elif event.key == "escape" and typed:
            line.value = ""
        else:
            return  # the window's own key (its bindings)
        event.stop()
        event.prevent_default()

    def note(self, text: Text) -> None:
        """Show the latest line said, or the latest refusal, at the window's foot."""
        with contextlib.suppress(NoMatches):
            self.query_one("#note", Static).update(text)


class HandResultScreen(Passing):
    """The hand's result between hands. Where the server pauses (``hand_pause``), it stays up for the
    server's countdown, and Space or Enter says ``ready``; it goes when the next hand starts. Against a
    server that does not pause, it stays ``seconds`` (Space goes on at once). Typing goes to the
    command line under it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss('')", "Close"),
        Binding("space,enter", "go_on", "Ready"),
    ]

    def __init__(self, mirror: TableMirror, seconds: float, ready: Callable[[], Awaitable[None]]) -> None:
        super().__init__()
        self.mirror, self.seconds, self.ready = mirror, seconds, ready
        self._shown = 0.0
        self.paused = mirror.pause is not None
        """The server paused for this result (so the window goes when the next hand starts)."""

    def compose(self) -> ComposeResult:
        mirror = self.mirror
        hand = mirror.hands[-1]
        words, made = hand_words(mirror, hand)
        title = Text(f"Hand {len(mirror.hands)}: {words}", "bold green" if made else "bold")
        with Vertical(classes="window"):
            yield Static(title)
            game = client_game(mirror.view.game) if mirror.view is not None else None
            if game is not None:
                yield Static(game.hand_detail(mirror, hand))
            yield Static(sheet_text(mirror, 60, last=4))
            yield Static(self.hint(), classes="hint", id="pause-hint")
            yield Static("", classes="note", id="note")

    def hint(self) -> str:
        """What the bottom line says: the server's countdown and whom it waits for, or how to go on."""
        mirror, pause = self.mirror, self.mirror.pause
        if pause is None:
            return "Space goes on now"
        left = mirror.pause_left()
        seconds = f"next hand in {left:.0f} s" if left is not None else "next hand soon"
        if mirror.ready_awaited:
            return f"{seconds} · Space or Enter: ready"
        others = ", ".join(mirror.seat_name(s) for s in pause.waiting)
        return f"ready · {seconds}" + (
            f", or when {others} {'is' if len(pause.waiting) == 1 else 'are'}" if others else ""
        )

    def on_mount(self) -> None:
        self._shown = time.monotonic()
        self.set_interval(0.25, self.tick)

    def tick(self) -> None:
        """Go once the next hand has started (or the game is over), or, with no server pause, after
        ``seconds``; else show the countdown."""
        mirror = self.mirror
        self.paused = self.paused or mirror.pause is not None
        over = mirror.game_over is not None or (self.paused and mirror.hand_result is None)
        local = not self.paused and self.seconds > 0 and time.monotonic() - self._shown >= self.seconds
        if over or local:
            self.dismiss("")
            return
        with contextlib.suppress(NoMatches):
            self.query_one("#pause-hint", Static).update(self.hint())

    async def action_go_on(self) -> None:
        if self.mirror.ready_awaited:
            await self.ready()
            self.tick()
        elif self.mirror.pause is None:
            self.dismiss("")


class GameOverScreen(Passing):
    """The whole score sheet, the winner, the record id; rematch, save the record, the lobby, quit: by a
    click, or typed (``rematch``, ``record``, ``leave``, ``quit``: typing goes to the command line). Esc
    goes back to the lobby. It goes by itself when a rematch starts the next game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss('lobby')", "Lobby")]

    def __init__(self, mirror: TableMirror, extra: str = "") -> None:
        super().__init__()
        self.mirror, self.extra = mirror, extra

    def compose(self) -> ComposeResult:
        mirror = self.mirror
        over = mirror.game_over
        assert over is not None
        record = f"record {over.record_id}" if over.record_id else "no record stored"
        with Vertical(classes="window wide", id="game-over"):
            yield Static(Text(f"Game over: {winner_text(mirror, over)}", "bold"))
            yield Static(Text(f"{record}{self.extra}", "dim"))
            yield Static(self.verdict(), id="verdict")
            yield Static(sheet_text(mirror, 70), id="final-sheet")
            with Horizontal(classes="buttons"):
                yield Button("Rematch", id="rematch", variant="primary", compact=True)
                yield Button("Save record", id="save", disabled=over.record_id is None, compact=True)
                yield Button("Lobby", id="lobby", compact=True)
                yield Button("Quit", id="quit", compact=True)
            yield Static("click, or type rematch · record · leave · quit", classes="hint")
            yield Static("", classes="note", id="note")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False  # the keys are the command line's
        self.set_interval(0.25, self.tick)

    def tick(self) -> None:
        """Go once a rematch has started the next game."""
        if self.mirror.game_over is None:
            self.dismiss("")

    def verdict(self) -> Text:
        """Fair deals: the client's own check of the revealed seeds (once they come, after game over)."""
        deals = self.mirror.deals
        verdict = deals.verdict if deals is not None else None
        if verdict is None:
            return Text("deals: waiting for the seeds" if deals is not None else "", "dim")
        return Text(verdict.text(), "green" if verdict.ok else "bold red")

    def update_verdict(self) -> None:
        self.query_one("#verdict", Static).update(self.verdict())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")


class ConfirmScreen(Window[bool]):
    """A yes/no question (leaving a game in progress)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss(True)", "Yes"),
        Binding("n,escape", "dismiss(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="window"):
            yield Static(self.question)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="error", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
