"""The mouse for real (issue 24.10): the program in tmux in a pseudo-terminal, clicked as a terminal reports a
click, SGR-encoded (``ESC [ < 0 ; x ; y M``, then ``m`` on release): tmux passes it on to the program in the
encoding the program asked for, with or without tmux's own ``mouse`` option."""

from __future__ import annotations

import contextlib
import os
import pty
import re
import select
import shutil
import subprocess
import time
from pathlib import Path

import pyte
import pytest
from test_client_e2e import Terminal, _program

COLUMNS, LINES = 80, 24


class Tmux:
    """The client full screen in tmux, itself in a pseudo-terminal of 80x24; what that terminal shows."""

    def __init__(self, tmp: Path, mouse: bool) -> None:
        conf = tmp / "tmux.conf"
        conf.write_text("set -g mouse on\n" if mouse else "")
        self.socket = str(tmp / "tmux.sock")  # its own server, gone with the test's folder
        # No pause between hands and quick bots on the local server: a hand everyone passes is redealt
        # at once, so the test's time does not grow with how many deals the bots throw in.
        fast = ["env", "BONEYARD_HAND_PAUSE_SECONDS=0", "BONEYARD_BOT_DELAY_SECONDS=0.05"]
        play = ["play", "moon", "--name", "tester", "--pause", "0", "--no-bell"]
        command = " ".join([*fast, *_program(), *play])
        self.term = Terminal(
            ["tmux", "-S", self.socket, "-f", str(conf), "new-session", "-x", str(COLUMNS), "-y", str(LINES),
             command],
            COLUMNS, LINES,
        )  # fmt: skip
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0

    def rows(self) -> list[str]:
        """The screen with everything tmux has written so far. All of it: a check on a screen with output
        still unread can pass on a stale frame (a bid prompt already answered), and a test that goes on
        acting on it reads nothing more; tmux, unable to write, then stops drawing, and the screen looks
        frozen while the program plays on (what made this test fail under load, issue 24.10)."""
        while select.select([self.term.fd], [], [], 0)[0] and self.term.read(0):
            pass
        self.stream.feed(self.term.raw[self.fed :])
        self.fed = len(self.term.raw)
        return list(self.screen.display)

    def until(self, check: str | re.Pattern[str], limit: float = 30) -> list[str]:
        end = time.monotonic() + limit  # a safety net, not a measurement
        while True:
            rows = self.rows()
            text = "\n".join(rows)
            if (check in text) if isinstance(check, str) else check.search(text):
                return rows
            assert time.monotonic() < end, f"{check!r} never shown:\n{text}\n{self.pane()}"
            assert self.term.read(0.05), f"the program ended early:\n{text}"

    def pane(self) -> str:
        """What tmux holds in the program's pane, which is what the program drew, whatever reached us."""
        held = subprocess.run(
            ["tmux", "-S", self.socket, "capture-pane", "-p"], capture_output=True, text=True
        )
        return f"tmux's pane:\n{held.stdout}{held.stderr}"

    def click(self, column: int, row: int) -> None:
        """A left click at 0-based ``column``, ``row``, as the outer terminal reports it to tmux."""
        x, y = column + 1, row + 1
        self.term.type(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, check=False)
        with contextlib.suppress(OSError):
            os.kill(self.term.pid, 9)
        with contextlib.suppress(OSError):
            os.waitpid(self.term.pid, 0)
        os.close(self.term.fd)


@pytest.mark.skipif(not hasattr(pty, "fork") or shutil.which("tmux") is None, reason="needs a pty and tmux")
@pytest.mark.parametrize("mouse", [False, True], ids=["tmux", "tmux-mouse-on"])
def test_clicks_through_tmux_pass_and_play_a_tile(tmp_path: Path, mouse: bool) -> None:
    tmux = Tmux(tmp_path, mouse)
    try:
        rows = tmux.until("1) pass")  # our bid (bots bid 4 or 5 first, or we bid first)
        y = next(i for i, row in enumerate(rows) if "1) pass" in row)
        tmux.click(rows[y].index("1) pass") + 3, y)  # on "pass"
        tmux.until(re.compile(r"tester \(you\)\s+passes|you\) pass"))
        played = 0
        end = time.monotonic() + 90  # a safety net: the screen is shown if no tile could be played by then
        while not played:
            rows = tmux.until(re.compile(r"green: you may play it|1\) pass"), limit=60)
            assert time.monotonic() < end, "no tile played:\n" + "\n".join(rows) + "\n" + tmux.pane()
            if not any("green: you may play it" in row for row in rows):
                y = next(i for i, row in enumerate(rows) if "1) pass" in row)
                tmux.click(rows[y].index("1) pass") + 3, y)  # a new deal after every player passed
                time.sleep(0.3)
                continue
            y = next(i for i, row in enumerate(rows) if "green: you may play it" in row) - 1
            line = tmux.screen.buffer[y]
            legal = [m for m in re.finditer(r"\[\d\|\d\]", rows[y][:50]) if line[m.start() + 1].bold]
            assert legal, rows[y]
            tile = legal[0].group()
            tmux.click(legal[0].start() + 2, y)  # on the tile's middle
            tmux.until(re.compile(rf"you\)\s+plays\s+{re.escape(tile)}"))
            played += 1
    finally:
        tmux.close()
