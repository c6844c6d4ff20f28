"""The table's regions: the players, the board, your hand, the offered actions, the score sheet.

Each widget draws from a :class:`~boneyard.clients.cli.core.TableMirror` given to :meth:`show`,
and nothing else; clicks are turned into messages the screen answers (:class:`HandBar.Chosen`,
:class:`ActionBar.Chosen`).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import TableMirror
from boneyard.clients.cli.core.rules import is_trump, tile_word
from boneyard.clients.cli.ui.choices import Choice, choices, tile_actions
from boneyard.clients.cli.ui.render import seat_label

SLOT = 7
"""Columns per tile in the hand: ``[6|4]`` and its marks."""


class MirrorWidget(Widget):
    """A region drawn from one table's mirror."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.mirror: TableMirror | None = None
        self.seconds: float | None = None

    def show(self, mirror: TableMirror | None, seconds: float | None = None) -> None:
        self.mirror, self.seconds = mirror, seconds
        self.refresh(layout=True)


def _seat_flags(mirror: TableMirror, seat: int) -> str:
    table = mirror.table
    if table is None or seat >= len(table.seats):
        return ""
    info = table.seats[seat]
    if info.name is None:
        return "empty"
    if info.bot:
        return "bot"
    if info.auto:
        return "auto"
    return "connected" if info.connected else "away"


FLAGS = {"connected": "●", "away": "away", "auto": "auto", "bot": "bot", "empty": "empty"}
"""A seat's state: ``●`` a connected player, ``away``, ``auto`` (the server plays it), ``bot``."""


class Players(MirrorWidget):
    """One line per seat: turn marker, name, tiles, tricks, bid, score, state, the turn clock."""

    def render(self) -> Text:
        mirror = self.mirror
        out = Text(no_wrap=True, overflow="ellipsis")
        if mirror is None or mirror.view is None:
            return out
        view = mirror.view
        wide = (self.size.width or 80) >= 64
        name_width = 18 if wide else 13
        for seat in range(len(view.tile_counts)):
            if seat:
                out.append("\n")
            turn = seat == view.to_move
            out.append("▶ " if turn else "  ", "bold magenta" if turn else "")
            style = "bold cyan" if seat == mirror.seat else ("bold" if turn else "")
            name = seat_label(mirror, seat)
            out.append(f"{name[:name_width]:<{name_width}}", style)
            count = view.tile_counts[seat]
            out.append(f" {count} tile{'' if count == 1 else 's'}" if wide else f" {count}t")
            game = client_game(view.game)
            if game is not None:
                out.append_text(game.seat_columns(mirror, view, seat, wide))
            flags = FLAGS.get(_seat_flags(mirror, seat), "")
            if flags:
                out.append("  ")
                out.append(flags, "green" if flags == "●" else "yellow")
            if turn and self.seconds is not None:
                out.append("  ")
                out.append(f"{int(self.seconds)} s", "bold red" if self.seconds <= 10 else "bold")
        return out


class Board(MirrorWidget):
    """The middle, as the game draws it: a trick game's trick (or the last one), Straight's layout."""

    def render(self) -> Text:
        mirror = self.mirror
        view = mirror.view if mirror is not None else None
        game = client_game(view.game) if view is not None else None
        if mirror is None or view is None or game is None:
            return Text("Waiting for the game to start…", "dim")
        return game.tui_board(mirror, view, self.size.width, self.size.height)


class HandBar(MirrorWidget):
    """Your hand in hand order, numbered 1..n; legal tiles highlighted, the selected one reversed."""

    class Chosen(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selected = 0

    def show(self, mirror: TableMirror | None, seconds: float | None = None) -> None:
        self.mirror = mirror
        menu = self.menu()
        if menu and not (0 <= self.selected < len(menu) and menu[self.selected].legal):
            self.selected = next((c.number - 1 for c in menu if c.legal), 0)
        super().show(mirror, seconds)

    def menu(self) -> list[Choice]:
        view = self.mirror.view if self.mirror is not None else None
        if view is None or view.viewer is None:
            return []
        legal = view.legal_actions if self.mirror is not None and self.mirror.my_turn else ()
        return [
            c for c in choices(view.hand, legal if tile_actions(legal) else ()) if c.tile is not None
        ] or [
            Choice(i, tile_word(t), (), tuple(t))  # type: ignore[arg-type]
            for i, t in enumerate(view.hand, 1)
        ]

    def per_row(self) -> int:
        return max(1, (self.size.width or 80) // SLOT)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        n = len(self.menu())
        return 2 * max(1, -(-n // max(1, width // SLOT))) + 1  # and the legend

    def legend(self, choosing: bool, trumps: bool) -> str:
        """What the marks mean: green is a tile you may play now, ``*`` a trump."""
        parts = []
        if choosing:
            view = self.mirror.view if self.mirror is not None else None
            discard = view is not None and any(action.type == "discard" for action in view.legal_actions)
            verb = "discard" if discard else "play"
            parts.append(f"green: you may {verb} it")
        if trumps:
            parts.append("*: a trump")
        return " · ".join(parts)

    def render(self) -> Text:
        menu = self.menu()
        out = Text(no_wrap=True, overflow="crop")
        view = self.mirror.view if self.mirror is not None else None
        if not menu:
            return Text("(watching)" if view is not None and view.viewer is None else "", "dim")
        game = client_game(view.game) if view is not None else None
        trump = game.trump(view) if game is not None and view is not None else None
        choosing = any(c.legal for c in menu)
        row = self.per_row()
        for start in range(0, len(menu), row):
            chunk = menu[start : start + row]
            if start:
                out.append("\n")
            for c in chunk:  # numbered only while they are what a number chooses (not during the auction)
                out.append(f"{c.number if choosing else '':^{SLOT - 1}} ", "bold cyan" if c.legal else "dim")
            out.append("\n")
            for c in chunk:
                assert c.tile is not None
                style = "bold green" if c.legal else ("dim" if choosing else "bold")
                if is_trump(c.tile, trump):
                    style += " yellow" if not c.legal else ""
                if choosing and c.number - 1 == self.selected:
                    style += " reverse"
                mark = "*" if is_trump(c.tile, trump) else " "
                out.append(c.label, style)
                out.append(mark + " ", "yellow")
        trumps = any(c.tile is not None and is_trump(c.tile, trump) for c in menu)
        out.append("\n")
        out.append(self.legend(choosing, trumps), "dim")
        return out

    def move(self, step: int) -> None:
        menu = self.menu()
        if menu:
            self.selected = (self.selected + step) % len(menu)
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        row = self.per_row()
        index = (event.y // 2) * row + event.x // SLOT
        if 0 <= index < len(self.menu()) and event.x % SLOT < 5:
            self.selected = index
            self.refresh()
            self.post_message(self.Chosen(index + 1))


class ActionBar(MirrorWidget):
    """The offered actions that are not tiles (bids, pass, trump, draw), numbered and clickable."""

    class Chosen(Message):
        def __init__(self, action: Any) -> None:
            super().__init__()
            self.action = action

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, int, Any]] = []
        self.asking: Choice | None = None
        """A tile that fits several ends: its ends are offered until one is chosen."""

    def ask(self, choice: Choice | None) -> None:
        self.asking = choice
        self.refresh(layout=True)

    def offered(self) -> list[Choice]:
        mirror = self.mirror
        if mirror is None or mirror.view is None or not mirror.my_turn:
            return []
        if self.asking is not None and all(a in mirror.view.legal_actions for a in self.asking.actions):
            return [Choice(0, f"{self.asking.label} {a.end}", (a,)) for a in self.asking.actions]
        legal = mirror.view.legal_actions
        if tile_actions(legal):
            others = [a for a in legal if getattr(a, "tile", None) is None]
            return [Choice(0, a.type, (a,)) for a in others]
        game = client_game(mirror.view.game)
        return choices(mirror.view.hand, legal, game.bid_words if game is not None else str)

    def render(self) -> Text:
        out = Text(no_wrap=False)
        self._spans = []
        x = y = 0
        width = self.size.width or 80
        offered = self.offered()
        if not offered:
            return Text("")
        out.append("Your move: ", "bold")
        x = 11
        for c in offered:
            label = f"{c.number}) {c.label}" if c.number else c.label
            if x + len(label) + 2 > width:
                out.append("\n")
                x, y = 0, y + 1
            self._spans.append((y, x, x + len(label), c.actions[0]))
            out.append(label, "bold green")
            out.append("  ")
            x += len(label) + 2
        return out

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return (
            1 + (sum(len(c.label) + 5 for c in self.offered()) + 11) // max(1, width) if self.offered() else 0
        )

    def on_click(self, event: events.Click) -> None:
        for y, start, end, action in self._spans:
            if event.y == y and start <= event.x < end:
                self.post_message(self.Chosen(action))
                return
