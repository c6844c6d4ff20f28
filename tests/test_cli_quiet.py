"""No traceback reaches a user of either command line (issue #24, item 3): a bad argument is one line in
words with exit code 2, and Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops
``boneyard-server serve`` and ``boneyard play --line`` without a word from the bot worker."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import RunMain

from boneyard.clients.cli.main import main as client_main

ROOT = Path(__file__).resolve().parents[1]
CLIENT = [sys.executable, "-m", "boneyard.clients.cli.main"]
SERVER = [sys.executable, "-m", "boneyard.server.cli"]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("BONEYARD_")} | {"BONEYARD_DURABLE": "false"}

BAD = [
    (["play", "moon", "--target", "0"], "argument --target: target must be a whole number from 1 to 1000"),
    (["play", "moon", "--target", "-5"], "argument --target: target must be a whole number from 1 to 1000"),
    (["play", "moon", "--target", "1001"], "argument --target: target must be a whole number from 1 to 1000"),
    (["play", "straight", "--target", "10001"], "--target: target must be a whole number from 1 to 10000"),
    (["play", "moon", "--name", "bot-7"], "'bot-7': names starting 'bot-' are reserved for the server's"),
    (["connect", "ws://127.0.0.1:9/", "--name", "BOT-7"], "names starting 'bot-' are reserved"),
    (["play", "moon", "--name", "x" * 33], "at most 32 characters"),
    (["play", "moon", "--turn", "4"], "argument --turn: '4': input should be greater than or equal to 5"),
    (["play", "moon", "--turn", "soon"], "argument --turn: 'soon': not a whole number"),
    (["play", "moon", "--bot-delay", "10001"], "'10001': input should be less than or equal to 10000"),
    (["play", "straight", "--players", "3", "--partnerships"], "partnerships need 4 players"),
]


def _one_line_and_exit_2(done: subprocess.CompletedProcess[str], command: str, words: str) -> None:
    (line,) = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr
    assert line.startswith(f"boneyard {command}: error: ") and words in line, line
    assert done.stdout == ""  # nothing was started: no server, no lobby


@pytest.mark.parametrize(("argv", "words"), BAD, ids=[" ".join(a) for a, _ in BAD])
@pytest.mark.parametrize("mode", ["--line", "--json"])
def test_a_bad_argument_is_one_line_in_words_and_exit_2(
    argv: list[str], words: str, mode: str, run_main: RunMain
) -> None:
    _one_line_and_exit_2(run_main(client_main, [*argv, mode]), argv[0], words)


@pytest.mark.parametrize("mode", ["--line", "--json"])
def test_the_program_itself_exits_2_with_that_one_line(mode: str) -> None:
    argv, words = BAD[0]
    done = subprocess.run(
        [*CLIENT, *argv, mode], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=ENV
    )
    _one_line_and_exit_2(done, argv[0], words)


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("argv", [["play", "moon", "--target", "0"], ["play", "straight", "--name", "bot-7"]])
def test_a_bad_argument_in_a_terminal_is_the_same_line_not_an_empty_lobby(argv: list[str]) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the full-screen client, as in a terminal
        os.execvpe(CLIENT[0], [*CLIENT, *argv], ENV | {"TERM": "xterm-256color"})
    shown = b""
    try:
        end = time.monotonic() + 30  # a safety net, not a measurement
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    shown += os.read(fd, 65536)
                except OSError:  # EIO: the program is gone
                    break
        done, status = os.waitpid(pid, os.WNOHANG)
        while not done and time.monotonic() < end:  # the terminal closes a moment before the exit
            time.sleep(0.05)
            done, status = os.waitpid(pid, os.WNOHANG)
        if not done:  # still running: the full-screen client opened instead of refusing
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"the client started:\n{shown.decode(errors='replace')[-500:]}")
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 2
    (line,) = shown.decode().splitlines()
    assert line.startswith("boneyard play: error: argument"), line


def _worker_ignores_sigint(sid: int) -> bool:
    """Whether a bot worker of session ``sid`` is up and ignores SIGINT (its initializer has run): a child
    of the fork server. The session also holds the command and the resource tracker, so a count of its
    processes (three) was reached before any worker was forked."""
    procs: dict[int, tuple[int, int]] = {}  # pid: its parent, the signals it ignores (SigIgn)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, StopIteration):
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after the name: state, ppid, pgrp, session
            if int(fields[3]) == sid:
                status = (stat.parent / "status").read_text().splitlines()
                ignored = next(line.split()[1] for line in status if line.startswith("SigIgn:"))
                procs[int(stat.parent.name)] = (int(fields[1]), int(ignored, 16))
    sigint = 1 << (signal.SIGINT - 1)
    return any(parent in procs and parent != sid and ignored & sigint for parent, ignored in procs.values())


def _interrupted(argv: list[str], ready: bytes) -> tuple[int, str]:
    """Start ``argv`` in a session of its own, wait for ``ready`` on its output and for its bot worker,
    then Ctrl-C: SIGINT to the whole process group. Its exit code and standard error."""
    process = subprocess.Popen(
        argv, cwd=ROOT, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        output = b""
        while ready not in output:
            chunk = process.stdout.read1(65536)
            assert chunk, output.decode(errors="replace")
            output += chunk
        end = time.monotonic() + 30  # a safety net, not a measurement
        while not _worker_ignores_sigint(process.pid):  # then it waits for work, where an interrupt landed
            assert time.monotonic() < end, "no bot worker started, or it does not ignore SIGINT"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, err.decode(errors="replace")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes in /proc")
def test_ctrl_c_stops_serve_quietly() -> None:
    code, err = _interrupted([*SERVER, "serve", "--port", "0"], b"boneyard: serving")
    assert code == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "stopped" in err.splitlines()[-1], err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes in /proc")
def test_ctrl_c_stops_play_line_quietly() -> None:
    code, err = _interrupted([*CLIENT, "play", "moon", "--line", "--name", "ana"], "── Moon · table".encode())
    assert code in (0, 130), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
