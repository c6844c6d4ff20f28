"""A grid of styled characters for drawing dominoes, turned into Rich text for a widget.

>>> c = Canvas(7, 1)
>>> c.put(1, 0, "[6|4]")
>>> c.plain()
' [6|4] '
"""

from __future__ import annotations

from rich.text import Text


class Canvas:
    """``width`` x ``height`` cells; writes outside are clipped."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = max(0, width), max(0, height)
        self.cells = [[(" ", "")] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (ch, style)

    def restyle(self, x: int, y: int, style: str) -> None:
        """The cell at ``(x, y)`` keeps its character, in ``style``."""
        if 0 <= y < self.height and 0 <= x < self.width:
            self.cells[y][x] = (self.cells[y][x][0], style)

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for y, row in enumerate(self.cells):
            if y:
                out.append("\n")
            run, style = "", row[0][1] if row else ""
            for ch, st in row:
                if st != style:
                    out.append(run, style or None)
                    run, style = "", st
                run += ch
            out.append(run, style or None)
        return out

    def plain(self) -> str:
        return "\n".join("".join(ch for ch, _ in row) for row in self.cells)

    def trimmed(self) -> Canvas:
        """Without blank rows at the bottom (a small layout does not push the rest down)."""
        rows = list(self.cells)
        while rows and all(ch == " " for ch, _ in rows[-1]):
            rows.pop()
        out = Canvas(self.width, len(rows))
        out.cells = rows
        return out
