"""The real ``boneyard`` program against a real ``boneyard-server``: an account made and used from the
command line, a second device linked, and a client killed with ``kill -9`` coming back to its seat (pty)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_client_e2e import ENV, Terminal, _program

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server_url() -> Iterator[str]:
    """``boneyard-server serve`` in memory on a free loopback port, bots at once."""
    env = ENV | {
        "BONEYARD_DURABLE": "false",
        "BONEYARD_BOT_DELAY_SECONDS": "0",
        "BONEYARD_HAND_PAUSE_SECONDS": "0",
    }
    command = [sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("boneyard: serving "), line
        yield line.removeprefix("boneyard: serving ") + "/"
    finally:
        process.terminate()
        process.wait(20)


def boneyard(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = ENV | {"XDG_CONFIG_HOME": str(home)}
    return subprocess.run(
        [*_program(), *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env
    )


def welcome_of(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    welcome = lines[1]
    assert welcome["type"] == "welcome", lines[:2]
    return welcome


def test_an_account_made_linked_and_signed_in_from_the_command_line(tmp_path: Path, server_url: str) -> None:
    laptop, phone = tmp_path / "laptop", tmp_path / "phone"
    made = boneyard(laptop, "account", "create", "Ana", "--server", server_url)
    assert made.returncode == 0, made.stderr
    assert "account Ana created" in made.stdout
    key = laptop / "boneyard" / "keys" / "ana.key"
    assert oct(key.stat().st_mode & 0o777) == "0o600" and b"PRIVATE KEY" in key.read_bytes()
    # `connect` signs in with it (and a guest stays a guest).
    assert welcome_of(boneyard(laptop, "connect", server_url, "--json"))["account"] == "Ana"
    assert welcome_of(boneyard(laptop, "connect", server_url, "--json", "--guest"))["account"] is None
    # The name is taken, whoever asks.
    again = boneyard(phone, "account", "create", "ANA", "--server", server_url)
    assert again.returncode == 1 and "name_taken" in again.stderr and "Traceback" not in again.stderr
    # A second device, with a code from the first.
    code = boneyard(laptop, "account", "link-code", "--server", server_url)
    assert code.returncode == 0, code.stderr
    linked = boneyard(phone, "account", "link", "Ana", code.stdout.strip(), "--server", server_url)
    assert linked.returncode == 0, linked.stderr
    assert welcome_of(boneyard(phone, "connect", server_url, "--json"))["account"] == "Ana"
    # Not an account name at all: refused before anything is written.
    bad = boneyard(phone, "account", "create", "../evil", "--server", server_url)
    assert bad.returncode == 2 and not (phone / "evil.key").exists()


def _until(term: Terminal, text: str, limit: float = 30) -> None:
    end = time.monotonic() + limit
    while text not in term.screen:
        assert time.monotonic() < end and term.read(0.1), term.screen[-3000:]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pseudo-terminal")
def test_a_killed_client_comes_back_to_its_seat(tmp_path: Path, server_url: str) -> None:
    """`kill -9` of `boneyard play`, then the same command again: the seat, not a new table."""
    env_home = {"XDG_CONFIG_HOME": str(tmp_path)}
    argv = [*_program(), "play", "moon", "--server", server_url, "--name", "ana", "--line", "--turn", "none"]
    first = Terminal(["env", *(f"{k}={v}" for k, v in env_home.items()), *argv])
    try:
        _until(first, "Your move:")
        table = next(word for word in first.screen.split() if word.startswith("t") and "-" in word)
    finally:
        os.kill(first.pid, signal.SIGKILL)
        os.waitpid(first.pid, 0)
        os.close(first.fd)
    kept = json.loads((tmp_path / "boneyard" / "seats.json").read_text())
    assert list(kept) == [server_url]
    second = Terminal(["env", *(f"{k}={v}" for k, v in env_home.items()), *argv])
    try:
        _until(second, "back at your game at")
        _until(second, "Your move:")
        assert f"back at your game at {table}, seat 0" in second.screen, second.screen[-3000:]
        second.type("quit\r")
        code = second.wait()
    finally:
        os.close(second.fd)
    assert code == 0 and "Traceback" not in second.screen
    # A clean exit forgets the token: nothing to come back to.
    assert json.loads((tmp_path / "boneyard" / "seats.json").read_text()) == {}


def test_a_rated_game_then_the_profile_and_the_leaderboard(tmp_path: Path, server_url: str) -> None:
    assert boneyard(tmp_path, "account", "create", "Ana", "--server", server_url).returncode == 0
    played = boneyard(
        tmp_path, "play", "moon", "--server", server_url, "--rated", "--auto", "--target", "3", "--turn", "30"
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Game over:" in played.stdout
    profile = boneyard(tmp_path, "profile", "ana", "--server", server_url)
    assert profile.returncode == 0, profile.stderr
    lines = profile.stdout.splitlines()
    assert lines[0] == "Ana" and lines[1].split()[0] == "moon" and "?" in lines[1] and "1 game," in lines[1]
    assert lines[2] == "rated games (1 of 1, newest first):" and "1500 -> " in lines[3]
    bots = boneyard(tmp_path, "profile", "bot-basic", "--server", server_url)
    assert bots.returncode == 0 and bots.stdout.splitlines()[0] == "bot-basic"
    board = boneyard(tmp_path, "leaderboard", "moon", "--server", server_url)
    assert board.returncode == 0 and board.stdout.splitlines() == ["moon: 0 established players"]
    nobody = boneyard(tmp_path, "profile", "nobody", "--server", server_url)
    assert nobody.returncode == 1 and "no_such_player" in nobody.stderr and "Traceback" not in nobody.stderr
    # A guest may not play rated.
    guest = boneyard(tmp_path, "play", "moon", "--server", server_url, "--rated", "--auto", "--guest")
    assert "a rated table seats signed-in players only" in guest.stdout and "Traceback" not in guest.stderr


def test_seek_profile_leaderboard_and_mute_typed_in_the_lobby(tmp_path: Path, server_url: str) -> None:
    typed = "\n".join(
        [
            "seek chess",
            "leaderboard moon",
            "profile",
            "mute bob",
            "report bob spamming the chat",
            "seek moon bots=0",
        ]
    )
    env = ENV | {"XDG_CONFIG_HOME": str(tmp_path)}
    program = subprocess.Popen(
        [*_program(), "connect", server_url, "--name", "cy", "--line"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert program.stdin is not None and program.stdout is not None
    program.stdin.write(typed + "\n")
    program.stdin.flush()
    # The seat comes at the matchmaker's next pass, not in answer to the line: the input stays open until
    # it comes (as a person at the prompt would wait), and only then ends. pytest-timeout bounds the wait.
    shown: list[str] = []
    for line in program.stdout:
        shown.append(line)
        if "── Moon · table" in line:
            break
    program.stdin.close()
    rest = program.stdout.read()  # what is already buffered, then the rest until the program exits
    errors = program.stderr.read() if program.stderr is not None else ""
    program.wait(60)
    assert program.returncode == 0, errors[-2000:]
    out = "".join(shown) + rest
    assert "seek moon|straight-2|straight-3|straight-4|partnerships" in out  # the usage, for "chess"
    assert "moon: 0 established players" in out
    assert "profile NAME (you are not signed in)" in out
    assert "bob's chat is hidden from now on" in out and "Reported bob to the server's operator" in out
    assert "Seeking moon" in out and "── Moon · table" in out  # seated at once, with two bots
    assert "Traceback" not in errors
