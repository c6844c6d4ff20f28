"""The real ``boneyard`` program: in a pseudo-terminal through a whole Moon hand, and as a scripted command.

The pty test plays like a person: it reads what the terminal shows (escape sequences
stripped), answers every ``Your move:`` by typing a move number, and leaves with Ctrl-C.
It uses only the standard library's ``pty`` (no tmux needed).

The full-screen tests look only at whole frames, like a terminal with synchronized output (mode 2026:
kitty, foot, WezTerm, iTerm2, Windows Terminal). A frame reaches the pty in pieces (Textual's writer flushes
8 KB at a time, and under load the program may be descheduled mid-frame), and a frame is drawn top down: a
half-fed frame shows the new title (YOUR TURN) over the old hand row. Acting on that, the test once recorded
a hand in its order before the trump was named and failed as if the client had reordered the hand itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
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

import pyte
import pytest

from boneyard.clients.cli.replay import load_records, steps
from boneyard.server.games.registry import GAMES
from boneyard.server.simulate import simulate

ANSI = re.compile(
    rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]"
)
# Bots answer at once; colour stays on (NO_COLOR unset) so the test reads past real escape sequences.
# COLUMNS and LINES would override the pseudo-terminal's own size (shutil.get_terminal_size reads them first);
# another test in the same worker process may have set them.
ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")} | {
    "BONEYARD_BOT_DELAY_SECONDS": "0",
    "BONEYARD_BOT_WORKERS": "0",  # basic bots think on the loop anyway; a worker process costs seconds a run
    "TERM": "xterm-256color",
    "PROMPT_TOOLKIT_NO_CPR": "1",  # the test does not answer cursor-position requests like a terminal
}


def _program() -> list[str]:
    found = shutil.which("boneyard")
    return [found] if found else [sys.executable, "-m", "boneyard.clients.cli.main"]


SYNC_QUERY = b"\x1b[?2026$p"  # DECRQM: does the terminal support synchronized output?
SYNC_SUPPORTED = b"\x1b[?2026;2$y"  # the answer of a terminal that does (2: supported, not set now)
SYNC_END = b"\x1b[?2026l"  # the end of a frame, once the program knows it may bracket its frames


class Terminal:
    """A program running in a pseudo-terminal, and the text it has shown so far."""

    def __init__(self, argv: list[str], columns: int = 120, lines: int = 40) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the program
            os.execvpe(argv[0], argv, ENV)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.raw = b""
        self.answered = False

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
        if not self.answered and SYNC_QUERY in self.raw:  # as a terminal does: the program brackets frames
            self.answered = True
            os.write(self.fd, SYNC_SUPPORTED)
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


TILE = re.compile(r"\[(\d)\|(\d)\]")
SCORED = re.compile(r"▏ +1 \S+ bid \d+: (made|set)")


class Screen:
    """What a terminal with synchronized output shows: whole frames of output through a VT emulator (pyte).

    Only output up to the end of the last complete frame is drawn; a frame still arriving waits, as on such a
    terminal (see the module's docstring for the half-drawn frames this avoids).
    """

    def __init__(self, term: Terminal, columns: int = 120, lines: int = 40) -> None:
        self.term = term
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0

    def update(self) -> list[str]:
        end = self.term.raw.rfind(SYNC_END)
        whole = end + len(SYNC_END) if end >= 0 else 0
        if whole > self.fed:
            self.stream.feed(self.term.raw[self.fed : whole])
            self.fed = whole
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(self.update())


def _hand_row(rows: list[str]) -> list[str]:
    """The tiles of the hand row (the row under the numbers 1 2 3 ...), left to right."""
    left = [row.split("▏")[0] for row in rows]  # the table, without the side panel
    for i, row in enumerate(left[:-1]):
        numbers = row.split()
        tiles = [f"[{a}|{b}]" for a, b in TILE.findall(left[i + 1])]
        if numbers and numbers == [str(n) for n in range(1, len(numbers) + 1)] and len(tiles) == len(numbers):
            return tiles
    return []


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_a_whole_moon_hand_in_a_terminal() -> None:
    """The real program, full screen in a 120x40 pty: a hand against bots, by the keyboard."""
    term = Terminal([*_program(), "play", "moon", "--name", "tester", "--pause", "0", "--no-bell"])
    screen = Screen(term)
    end = time.monotonic() + 60  # a safety net, not a measurement
    hands: list[list[str]] = []  # the hand row each time Enter played a tile
    last: tuple[str, ...] = ()
    acted = 0.0
    try:
        while not SCORED.search(screen.text()):  # the score sheet's first hand
            framed = SYNC_END in term.raw  # False: the program never bracketed a frame, so nothing is drawn
            assert time.monotonic() < end, f"no scored hand (framed {framed}); the screen:\n{screen.text()}"
            assert term.read(0.05), f"the program ended early:\n{screen.text()}"
            rows = screen.update()
            shown = "\n".join(rows)
            assert "Traceback" not in shown, shown
            hand = _hand_row(rows)
            asking = [row for row in rows if "Your move:" in row]
            now = (*hand, *asking, *(row for row in rows if "tricks" in row))
            # A person looks again after a moment: a frame may show the hand before the turn marker moved.
            again = time.monotonic() > acted + 1
            if "YOUR TURN" not in rows[0] or (now == last and not again) or not (hand or asking):
                continue
            last, acted = now, time.monotonic()
            if asking:
                term.type("1\r")  # the first offered action (pass, a bid, a trump)
            else:
                # Enter plays the highlighted tile, the first legal one: it leaves the hand row.
                term.type("\r")
                hands.append(hand)
        final = screen.text()
        term.type("\x03")  # Ctrl-C: the game goes on, so it asks first
        deadline = time.monotonic() + 20
        while "Leave the game in progress?" not in screen.text():
            assert time.monotonic() < deadline and term.read(0.1), screen.text()
        term.type("y")
        code = term.wait()
    finally:
        with contextlib.suppress(OSError):  # already gone, as it should be
            os.kill(term.pid, 9)
        os.close(term.fd)
    assert code == 0, screen.text()
    assert b"Traceback" not in term.raw
    assert "Moon · t" in final and "tester (you)" in final
    assert "tricks" in final or "tr " in final
    log = ANSI.sub(b"", term.raw).decode(errors="replace")
    assert "takes the trick" in log
    # The hand row, drawn in hand order: each play takes exactly one tile out and keeps the others' order,
    # and that tile is the one the log says was played.
    distinct = [h for i, h in enumerate(hands) if i == 0 or h != hands[i - 1]]
    pairs = [(a, b) for a, b in itertools.pairwise(distinct) if len(b) < len(a)]  # not the widow's
    assert len(pairs) >= 2 and len(distinct[0]) >= 5, distinct
    assert log.count("takes the trick") >= 7
    for before, after in pairs:
        gone = [t for t in before if t not in after]
        assert [t for t in before if t in after] == after, (before, after)  # the rest keep their order
        for tile in gone:
            assert f"plays {tile}" in log, tile  # only we held it: the log line may be drawn in pieces


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


def test_bad_arguments_exit_two(tmp_path: Path) -> None:
    done = subprocess.run(
        [*_program(), "play", "moon", "--players", "4"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2 and "exactly 3 players" in done.stderr
    done = subprocess.run(  # its own config directory: no account or seat of the user's ~/.config read
        [*_program(), "connect", "ws://127.0.0.1:9/"], capture_output=True, text=True, timeout=30,
        env=ENV | {"XDG_CONFIG_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 1 and "cannot connect" in done.stderr
    # Said in words, on one line, not as an errno.
    assert "nothing answers there" in done.stderr and "Errno" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_replay_full_screen_steps_through_a_record(tmp_path: Path) -> None:
    """`boneyard replay` in a terminal: the table screen, a step per key, each hand's bid on the sheet."""
    spec = GAMES["moon"]
    record = next(r for r in simulate(spec, spec.options_from_dict({}), 20, seed=3) if len(r["hands"]) > 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    term = Terminal([*_program(), "replay", str(path)])
    screen = Screen(term)

    def after(keys: str, expect: str) -> str:
        term.type(keys)
        end = time.monotonic() + 20  # a safety net, not a measurement
        while expect not in screen.text():
            assert time.monotonic() < end, f"{expect!r} never shown after {keys!r}:\n{screen.text()}"
            assert term.read(0.05), f"the program ended early:\n{screen.text()}"
        return screen.text()

    try:
        first = after("", "[1/")
        assert "Replay · Moon · hand 1" in first and "the deal" in first
        after("\r", "[2/")  # Enter: the next step
        after("\x1b[D", "[1/")  # ←: back
        shown = after("n", "Hand 2: the deal")  # the next hand: the sheet has the first hand's bid
        assert re.search(r"1 \S+ bid \d+: (made|set)", shown), shown
        after("e", "Game over")  # e: the end
        term.type("q")
        code = term.wait()
    finally:
        with contextlib.suppress(OSError):
            os.kill(term.pid, 9)
        os.close(term.fd)
    assert code == 0 and b"Traceback" not in term.raw


def test_replay_steps_through_a_record_in_a_terminal(tmp_path: Path) -> None:
    spec = GAMES["moon"]
    record = next(r for r in simulate(spec, spec.options_from_dict({}), 20, seed=3) if len(r["hands"]) > 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    shown = steps(load_records(path)[0])
    second_hand = next(i for i, s in enumerate(shown) if s.hand == 2)
    term = Terminal([*_program(), "replay", str(path), "--line"])

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


def test_line_mode_exits_zero_at_the_end_of_input() -> None:
    """`boneyard play moon < /dev/null`: nothing to read, so it leaves the table and exits 0."""
    done = subprocess.run(
        [*_program(), "play", "moon", "--name", "reader"], capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "── Moon · table" in done.stdout


def test_four_player_play_defaults_to_partnerships_like_the_rule_book() -> None:
    from boneyard.clients.cli.main import build_parser, play_options

    parse = build_parser().parse_args
    assert play_options(parse(["play", "straight"]))[0]["partnerships"] is True  # RULES.md S1
    assert play_options(parse(["play", "straight", "--no-partnerships"]))[0]["partnerships"] is False
    assert play_options(parse(["play", "straight", "--partnerships"]))[0]["partnerships"] is True
    assert "partnerships" not in play_options(parse(["play", "straight", "--players", "3"]))[0]


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_line_mode_breaks_long_lines_between_tiles_never_inside_one() -> None:
    """A narrow terminal (40 columns): every line the program prints fits, and every tile stays whole."""
    term = Terminal(
        [*_program(), "play", "moon", "--line", "--auto", "--target", "7", "--name", "narrow"], 40
    )
    assert term.wait(60) == 0, term.screen[-2000:]
    text = term.screen.replace("\r", "")
    assert "Game over:" in text and "Traceback" not in text
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= 40, max(lines, key=len)
    cut = [line for line in lines if re.search(r"\[\d?\|?\d?$|^\s*\d?\|?\d?\]", line)]
    assert not cut, cut[:3]
    assert len(TILE.findall(text)) > 50  # the hands, tricks and boards were there to check
