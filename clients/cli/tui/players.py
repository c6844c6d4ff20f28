"""The players screen (feature ``ratings``), opened from the lobby with F2: a leaderboard per kind of game,
a page at a time, and a profile: yours, the chosen row's, or any player's by name.

Ratings, profiles and leaderboards read exactly as the line client prints them
(:mod:`boneyard.clients.cli.standings` words both). The leaderboard lists what the server sends (its
established players only); a guest sees it, and in place of a profile a line on how to sign in. Every
refusal (``no_such_player``, a name the name rules refuse, a lost connection) is one line in the status.
Esc goes back to the lobby, which this screen covers and leaves untouched.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static, Tab, Tabs

from boneyard.clients.cli.core.session import Client
from boneyard.clients.cli.standings import (
    KINDS,
    PAGE,
    leaderboard_title,
    profile_lines,
    rating_words,
)
from boneyard.clients.cli.ui.controller import one_line
from boneyard.protocol.ratings import FEATURE_RATINGS

SIGN_IN = (
    "Guests have no profile: `boneyard account create NAME --server URL` makes an account on this "
    "machine, and the next `boneyard connect` signs in with it."
)
NO_RATINGS = "This server keeps no ratings (no feature `ratings`)."


def board_row(entry: Any) -> tuple[str, str, str, str]:
    """One leaderboard entry's cells (an established rating: never a ``?``)."""
    return (
        f"{entry.rank}.",
        entry.player,
        rating_words(entry.rating, entry.deviation, False),
        str(entry.games),
    )


class Board(DataTable[str]):
    """The leaderboard's rows; ← and → change the kind of game (a row needs no moving sideways)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "screen.step_kind(-1)", "Previous kind", show=False),
        Binding("right", "screen.step_kind(1)", "Next kind", show=False),
    ]


class PlayersScreen(Screen[None]):
    """Leaderboards and profiles, asked of the server as the player moves around."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Lobby"),
        Binding("pagedown", "page(1)", "Next page", priority=True),
        Binding("pageup", "page(-1)", "Previous page", priority=True),
        Binding("m", "mine", "My profile"),
        *(Binding(str(n), f"kind({n - 1})", show=False) for n in range(1, len(KINDS) + 1)),
    ]

    def __init__(self, client: Client) -> None:
        super().__init__()
        self.client = client
        self.kind = KINDS[0]
        self.page = 1
        self.pages = 1

    @property
    def account(self) -> str | None:
        welcome = self.client.welcome
        return welcome.account if welcome is not None else None

    def compose(self) -> ComposeResult:
        with Vertical(id="players-screen"):
            yield Static(Text("Boneyard · players: leaderboards and profiles", "bold"), id="players-title")
            yield Tabs(*(Tab(kind, id=kind) for kind in KINDS), active=self.kind, id="kinds")
            yield Static(id="board-title")
            yield Board(id="board", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="profile-pane"):
                yield Static(id="profile")
            with Horizontal(id="lookup"):
                yield Label("Player:")
                yield Input(
                    placeholder="a name (or bot-good), Enter: the profile", id="player-name", compact=True
                )
        yield Static(id="status")
        yield Static(
            "1-6 ← → kind · PgUp PgDn page · Enter profile of the row · m mine · Esc lobby",
            classes="hint",
            id="players-keys",
        )

    def on_mount(self) -> None:
        self.query_one(Board).add_columns("#", "player", "rating", "games")
        self.query_one(Board).focus()
        if not self.rated_server():
            return
        self.load_board()
        self.action_mine()

    def rated_server(self) -> bool:
        hello = self.client.hello
        if hello is not None and FEATURE_RATINGS not in hello.features:
            self.say(NO_RATINGS)
            return False
        return True

    def say(self, text: str | Text) -> None:
        self.query_one("#status", Static).update(text)

    async def _asked(self, command: dict[str, Any]) -> Any:
        """The server's reply, or ``None`` with the refusal said in one line (never a traceback)."""
        try:
            reply = await self.client.request(command)
        except Exception as error:  # CommandError, a name the model refuses, the connection gone...
            self.say(Text("".join(fragment[1] for fragment in one_line(error))))
            return None
        self.say("")
        return reply

    # --- the leaderboard -------------------------------------------------------------------------

    def load_board(self) -> None:
        self.run_worker(self._board(self.kind, self.page), exclusive=True, group="board")

    async def _board(self, kind: str, page: int) -> None:
        offset = (page - 1) * PAGE
        reply = await self._asked({"type": "get_leaderboard", "kind": kind, "offset": offset, "limit": PAGE})
        if reply is None:
            return
        self.pages = max(1, -(-reply.total // PAGE))
        paging = f" · page {page} of {self.pages}" if self.pages > 1 else ""
        self.query_one("#board-title", Static).update(Text(leaderboard_title(reply) + paging, "bold"))
        board = self.query_one(Board)
        board.clear()
        for entry in reply.entries:
            board.add_row(*board_row(entry), key=entry.player)

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        if event.tab.id is not None and event.tab.id != self.kind:
            self.kind, self.page = event.tab.id, 1
            self.load_board()

    def action_kind(self, index: int) -> None:
        self.query_one(Tabs).active = KINDS[index]  # the tab's activation loads its board

    def action_step_kind(self, step: int) -> None:
        self.action_kind((KINDS.index(self.kind) + step) % len(KINDS))

    def action_page(self, step: int) -> None:
        page = min(max(1, self.page + step), self.pages)
        if page != self.page:
            self.page = page
            self.load_board()

    # --- profiles --------------------------------------------------------------------------------

    def action_mine(self) -> None:
        if self.account is None:
            self.workers.cancel_group(self, "profile")  # a row's profile on its way must not replace this
            self.query_one("#profile", Static).update(SIGN_IN)
        else:
            self.show_profile(self.account)

    def show_profile(self, player: str) -> None:
        self.run_worker(self._profile(player), exclusive=True, group="profile")

    async def _profile(self, player: str) -> None:
        reply = await self._asked({"type": "get_profile", "player": player})
        if reply is not None:
            self.query_one("#profile", Static).update("\n".join(profile_lines(reply)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.show_profile(event.row_key.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.show_profile(name)
