"""The real ``boneyard`` program: in a pseudo-terminal through a whole Moon hand, and as a scripted command.

The pty test plays like a person: it reads what the terminal shows (escape sequences
stripped), answers every ``Your move:`` by typing a move number, and leaves with Ctrl-C.
It uses only the standard library's ``pty`` (no tmux needed).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from boneyard.clients.cli.replay import load_records, steps
from boneyard.server.games.registry import GAMES
from boneyard.server.simulate import simulate

ANSI = re.compile(
    rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]"
)
# Bots answer at once; colour stays on (NO_COLOR unset) so the test reads past real escape sequences.
ENV = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {
    "BONEYARD_BOT_DELAY_SECONDS": "0",
    "TERM": "xterm-256color",
    "PROMPT_TOOLKIT_NO_CPR": "1",  # the test does not answer cursor-position requests like a terminal
}


def _program() -> list[str]:
    found = shutil.which("boneyard")
    return [found] if found else [sys.executable, "-m", "boneyard.clients.cli.main"]


class Terminal:
    """A program running in a pseudo-terminal, and the text it has shown so far."""

    def __init__(self, argv: list[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the program
            os.execvpe(argv[0], argv, ENV)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.raw = b""

    @property
    def screen(self) -> str:
        return ANSI.sub(b"", self.raw).decode(errors="replace")

    def read(self, seconds: float = 0.2) -> bool:
        """Read what is there (waiting up to ``seconds``); False once the program has closed the terminal."""
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child exited
            return False
        self.raw += data
        return bool(data)

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self, limit: float = 20) -> int:
        """The exit code, reading the rest of the output meanwhile."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            open_ = self.read(0.05)  # the terminal closes a moment before the exit can be collected
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while open_ and time.monotonic() < end and self.read(0.05):  # whatever it printed last
                    pass
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        raise AssertionError(f"the program did not exit; it showed:\n{self.screen[-2000:]}")


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_a_whole_moon_hand_in_a_terminal() -> None:
    term = Terminal([*_program(), "play", "moon", "--name", "tester"])
    answered = 0
    end = time.monotonic() + 40  # a safety net, not a measurement
    try:
        while "Hand scored:" not in term.screen:
            assert time.monotonic() < end, f"no scored hand; the screen shows:\n{term.screen[-3000:]}"
            assert term.read(), f"the program ended early:\n{term.screen[-3000:]}"
            asked = term.screen.count("Your move:")
            if asked > answered:  # a new move is asked for: choose the first legal one, by number
                answered = asked
                term.type("1\r")
        term.type("\x03")  # Ctrl-C: leave the table and the server cleanly
        code = term.wait()
    finally:
        with contextlib.suppress(OSError):  # already gone, as it should be
            os.kill(term.pid, 9)
        os.close(term.fd)
    screen = term.screen
    assert code == 0, screen[-2000:]
    for shown in ("── Moon · table", "Scores", "Bids", "Trump", "Hand ", "[", "|", "Your move: 1)"):
        assert shown in screen, shown
    assert screen.count("takes the trick") >= 7 or "thrown in" in screen
    assert "tester (you)" in screen and "[closed] 1000" in screen


def test_play_auto_exits_zero_after_the_final_scores() -> None:
    done = subprocess.run(
        [*_program(), "play", "straight", "--players", "2", "--target", "40", "--auto", "--name", "robot"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Game over:" in done.stdout and "wins" in done.stdout and "Final scores" in done.stdout
    assert "\x1b[" not in done.stdout  # not a terminal: plain text
    # Fair deals: the commitment before the deal, our seed in, and the check said at the end.
    lines = done.stdout.splitlines()
    over = next(i for i, line in enumerate(lines) if line.startswith("Game over:"))
    assert any(line.startswith("deals verified (") for line in lines[over:]), lines[over:]
    assert any(line.startswith("deal committed: ") for line in lines)
    assert "robot (you) added a seed to the deal" in lines


def test_play_auto_json_prints_one_json_object_per_line() -> None:
    done = subprocess.run(
        [*_program(), "play", "moon", "--target", "5", "--auto", "--json"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["type"] == "hello" and lines[1]["type"] == "welcome"
    assert any(line.get("type") == "event" and line["event"]["type"] == "game_over" for line in lines)
    over = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "game_over")
    assert any(line.get("type") == "deal_revealed" for line in lines[over:])


def test_bad_arguments_exit_two() -> None:
    done = subprocess.run(
        [*_program(), "play", "moon", "--players", "4"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2 and "exactly 3 players" in done.stderr
    done = subprocess.run(
        [*_program(), "connect", "ws://127.0.0.1:9/"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1 and "cannot connect" in done.stderr


def test_replay_steps_through_a_record_in_a_terminal(tmp_path: Path) -> None:
    spec = GAMES["moon"]
    record = next(r for r in simulate(spec, spec.options_from_dict({}), 20, seed=3) if len(r["hands"]) > 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    shown = steps(load_records(path)[0])
    second_hand = next(i for i, s in enumerate(shown) if s.hand == 2)
    term = Terminal([*_program(), "replay", str(path)])

    def after(keys: str, expect: str) -> None:
        seen = len(term.screen)
        term.type(keys)
        end = time.monotonic() + 20  # a safety net, not a measurement
        while expect not in term.screen[seen:]:
            assert time.monotonic() < end, f"{expect!r} never shown after {keys!r}:\n{term.screen[-2000:]}"
            assert term.read(), f"the program ended early:\n{term.screen[-2000:]}"

    try:
        after("", f"[1/{len(shown)}] {shown[0].title}")
        after("\r", f"[2/{len(shown)}] {shown[1].title}")  # Enter: the next step
        after("b\r", f"[1/{len(shown)}] {shown[0].title}")  # back
        after("n\r", f"[{second_hand + 1}/{len(shown)}] {shown[second_hand].title}")  # the next hand
        after("a\r", f"[{len(shown)}/{len(shown)}] Game over")  # all the rest, then it exits
        code = term.wait()
    finally:
        with contextlib.suppress(OSError):
            os.kill(term.pid, 9)
        os.close(term.fd)
    assert code == 0, term.screen[-2000:]
