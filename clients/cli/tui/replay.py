"""``boneyard replay`` full screen: the table screen, stepping through a finished game's record.

→ / Enter / Space: the next step; ←: back; n / p: the next / previous hand; Home; End or e; q: quit.
Every seat's tiles are face up below the table; the score sheet shows each hand's bid and whether
it was made (the trick games) or who won it (Straight).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.filter import NoColor
from textual.widgets import RichLog, Static

from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import tile_word
from boneyard.clients.cli.tui.replay_states import Position, positions
from boneyard.clients.cli.tui.table import TableScreen
from boneyard.clients.cli.ui.describe import game_title, winner_text
from boneyard.protocol.records import BaseRecord as AnyRecord

KEYS = "→ Enter next · ← back · n/p next/previous hand · e the end · q quit"


class ReplayScreen(TableScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,enter,space", "step(1)", "Next"),
        Binding("left,backspace", "step(-1)", "Back"),
        Binding("n", "hand(1)", "Next hand"),
        Binding("p", "hand(-1)", "Previous hand"),
        Binding("home", "go(0)", "First", show=False),
        Binding("end,e", "go(-1)", "Last", show=False),
        Binding("q,escape", "app.quit", "Quit"),
    ]

    def __init__(self, steps: list[Position]) -> None:
        super().__init__()
        self.steps = steps
        self.at = 0

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(id="hands")

    def setup(self) -> None:
        self.ready = True
        self.query_one("#command").display = False
        self.query_one("#hand").display = False
        self.redraw()

    def source(self) -> tuple[TableMirror | None, float | None, bool]:
        return self.steps[self.at].mirror, None, True

    def heading(self, mirror: TableMirror | None, connected: bool) -> Text:
        """Which game, hand and step: a replay, not a table being watched."""
        view = mirror.view if mirror is not None else None
        if view is None:
            return Text("Replay", "bold")
        game = game_title(view.game)
        head = f"Replay · {game} · hand {view.hand_number + 1} · to {view.target}"
        return Text(f"{head} · step {self.at + 1} of {len(self.steps)}", "bold", no_wrap=True)

    def log_steps(self) -> None:
        """The log: every step up to this one (the last 200), the latest at the bottom."""
        log = self.query_one("#log", RichLog)
        log.clear()
        for step in self.steps[max(0, self.at - 199) : self.at + 1]:
            log.write(Text(step.title))

    def redraw(self) -> None:
        super().redraw()
        if not self.ready:
            return
        step = self.steps[self.at]
        mirror = step.mirror
        hands = Text()
        for seat, tiles in enumerate(step.hands):
            name = mirror.seat_name(seat)
            hands.append(f"{name[:12]:<13}", "bold")
            hands.append(" ".join(map(tile_word, tiles)) or "—")
            hands.append("\n")
        self.query_one("#hands", Static).update(hands)
        self.log_steps()
        over = mirror.game_over
        title = f"[{self.at + 1}/{len(self.steps)}] {step.title}"
        if over is not None:
            title += f": {winner_text(mirror, over)}"
        self.status(Text.assemble((title, "bold"), "   ", (KEYS, "dim")))

    def tick(self) -> None:
        """No clock in a replay."""

    def action_step(self, delta: int) -> None:
        self.at = max(0, min(len(self.steps) - 1, self.at + delta))
        self.redraw()

    def action_go(self, where: int) -> None:
        self.at = where % len(self.steps)
        self.redraw()

    def action_hand(self, delta: int) -> None:
        hand = self.steps[self.at].hand + delta
        self.at = next((i for i, s in enumerate(self.steps) if s.hand == hand), self.at)
        self.redraw()


class ReplayApp(App[int]):
    CSS_PATH = "boneyard.tcss"
    TITLE = "Boneyard replay"

    def __init__(self, record: AnyRecord, *, colour: bool = True) -> None:
        super().__init__()
        self.steps = positions(record)
        if not colour:
            self.no_color = True
            self._filters.append(NoColor())

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.steps))

    @property
    def screen_at(self) -> int:
        screen = self.screen
        return screen.at if isinstance(screen, ReplayScreen) else -1
