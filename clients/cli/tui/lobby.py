"""The lobby screen: the live table list, a create form checked field by field, join / watch, chat;
F2 (or the Players button) opens the players screen over it (leaderboards and profiles).

The form's fields go through :func:`boneyard.clients.cli.ui.forms.validate_create`, the same checks
as the typed ``create`` command, so a bad field is named in the status line and nothing is sent.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Input, Label, Static

from boneyard.clients.cli.tui.base import PlayScreen, log_widget
from boneyard.clients.cli.tui.players import PlayersScreen
from boneyard.clients.cli.ui.forms import FormError, validate_create
from boneyard.protocol import TableInfo

FORM = (
    ("game", "moon", 9),
    ("players", "3", 2),
    ("partnerships", "", 4),
    ("target", "", 6),
    ("bots", "1,2", 8),
    ("level", "", 7),
    ("more", "", 14),
    ("seat", "0", 5),
    ("turn", "30", 5),
    ("delay", "", 6),
)
"""The create form's fields: name, initial value, width (``level``: the bots' level, basic, good or strong;
``delay``: ms before each bot move; ``more``: the game's other options as key=value, e.g. nello=on)."""


def seats_text(table: TableInfo) -> str:
    out = []
    for s in table.seats:
        who = s.name or "·"
        flag = " (bot)" if s.bot else (" (away)" if s.name and not s.connected else "")
        out.append(f"{s.seat}:{who}{flag}")
    return "  ".join(out)


class LobbyScreen(PlayScreen):
    """Every table of the server, kept current from the lobby's pushes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "players", "Players")]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(Text("Boneyard · the lobby", "bold"), id="lobby-title")
            yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            rows = (FORM[:4], FORM[4:7], FORM[7:])  # three rows, so the form fits 80 columns
            for row, fields in enumerate(rows):
                with Horizontal(classes="form"):
                    yield Label("New table:" if row == 0 else "", classes="form-label")
                    for name, value, width in fields:
                        yield Label(f"{name}", classes="field-label")
                        field = Input(value=value, id=f"f-{name}", classes="field", compact=True)
                        field.styles.width = width
                        yield field
                    if row == len(rows) - 1:
                        yield Button("Create", id="create", compact=True, variant="primary")
            with Horizontal(id="lobby-buttons"):
                yield Button("Watch", id="watch", compact=True)
                yield Button("Join first free seat", id="join", compact=True)
                yield Button("Players (F2)", id="players", compact=True)
                yield Button("Refresh", id="refresh", compact=True)
                yield Button("Quit", id="quit", compact=True)
            yield log_widget(300)
        yield Static(id="status")
        yield Input(
            placeholder="create moon bots=1,2 · join TABLE SEAT · watch TABLE · F2 players · ? help",
            id="command",
        )

    def on_mount(self) -> None:
        grid = self.query_one(DataTable)
        grid.add_columns("table", "game", "status", "seats", "options and timer")
        self.ready = True
        for line in self.boneyard.backlog("lobby"):  # what came before the screen was up (else lost)
            self.write(line)
        self.redraw()
        self.query_one("#command", Input).focus()

    def on_screen_resume(self) -> None:
        self.redraw()  # the lobby's news that came while a screen covered it

    def action_players(self) -> None:
        self.app.push_screen(PlayersScreen(self.boneyard.client))

    def redraw(self) -> None:
        if not self.ready:
            return
        grid = self.query_one(DataTable)
        lobby = self.boneyard.client.mirror.lobby
        chosen = self.selected()
        grid.clear()
        for table_id in sorted(lobby, key=lambda t: (len(t), t)):
            table = lobby[table_id]
            options = " ".join(f"{k}={v}" for k, v in table.options.model_dump().items() if k != "players")
            timer = f"{table.turn_seconds}s turns" if table.turn_seconds else "no timer"
            grid.add_row(
                table_id, table.game, table.status, seats_text(table), f"{options}; {timer}", key=table_id
            )
        if chosen in lobby:
            grid.move_cursor(row=grid.get_row_index(chosen))

    def selected(self) -> str | None:
        grid = self.query_one(DataTable)
        if grid.row_count == 0:
            return None
        try:
            return str(grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key.value)
        except Exception:  # no row under the cursor
            return None

    def form_fields(self) -> tuple[str, dict[str, str]]:
        values = {name: self.query_one(f"#f-{name}", Input).value.strip() for name, _, _ in FORM}
        game = values.pop("game").lower()
        fields = {k: v for k, v in values.items() if v and k != "more"}
        for word in values.get("more", "").split():  # the game's other options, as key=value
            key, _, value = word.partition("=")
            fields[key.lower()] = value
        return game, fields

    async def create(self) -> None:
        try:
            game, fields = self.form_fields()
            request = validate_create(game, fields)
        except FormError as error:
            self.boneyard.controller.error(error)
            return
        await self.boneyard.guarded(self.boneyard.controller.create(request))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        app = self.boneyard
        table_id = self.selected()
        if event.button.id == "create":
            await self.create()
        elif event.button.id == "players":
            self.action_players()
        elif event.button.id == "refresh":
            await app.run_line("tables")
        elif event.button.id == "quit":
            await app.run_line("quit")
        elif table_id is None:
            app.controller.info("No table chosen: pick one in the list (↑ ↓), or create one", "error")
        elif event.button.id == "watch":
            await app.run_line(f"watch {table_id}")
        elif event.button.id == "join":
            table = app.client.mirror.lobby.get(table_id)
            free = [s.seat for s in table.seats if s.name is None] if table else []
            if not free:
                app.controller.info(
                    f"Table {table_id} has no free seat: `watch` it, or `take` a bot's seat", "error"
                )
            else:
                await app.run_line(f"join {table_id} {free[0]}")

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.boneyard.run_line(f"watch {event.row_key.value}")

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            await self.create()  # Enter in a form field creates
            return
        text = event.value
        event.input.value = ""
        self.status("")
        await self.boneyard.run_line(text)
