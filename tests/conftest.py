"""Shared fixtures: the option sets every game-level test walks through, and a command line's ``main`` run
in the test's own process."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

import pytest

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("moon", {}),
    ("moon", {"all_pass": "force_last"}),
    ("straight", {"players": 2}),
    ("straight", {"players": 3}),
    ("straight", {"players": 4, "partnerships": False}),
    ("straight", {"players": 4}),
    ("texas42", {}),
    ("texas42", {"all_pass": "redeal", "nello": True}),
]
"""Every game and option set the server offers (targets at their defaults)."""


def option_set_id(value: tuple[str, dict[str, Any]]) -> str:
    game, options = value
    return "-".join([game, *(f"{k}={v}" for k, v in options.items())])


Main = Callable[[Sequence[str]], int]
"""A command line's entry point: ``boneyard.server.cli.main`` or ``boneyard.clients.cli.main.main``."""
RunMain = Callable[[Main, Sequence[str]], "subprocess.CompletedProcess[str]"]


@pytest.fixture
def run_main(capsys: pytest.CaptureFixture[str]) -> RunMain:
    """Run a command line's ``main`` on ``argv`` here, as the program would in its own process: its exit
    code (``SystemExit`` included, as argparse exits), standard output and standard error.

    For the many argument checks that end before any work starts: each costs milliseconds here and most of
    a second as a new interpreter. One case of each command line still runs as a real subprocess, so the
    process around ``main`` (the exit code it hands the shell, no traceback) stays tested.
    """

    def run(main: Main, argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()  # what came before is not this run's
        try:
            code: object = main(list(argv))
        except SystemExit as exit_:
            code = exit_.code
        out, err = capsys.readouterr()
        returncode = 0 if code is None else code if isinstance(code, int) else 1  # as the interpreter maps it
        return subprocess.CompletedProcess(list(argv), returncode, out, err)

    return run


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores (``--numprocesses=auto``; at most four, ``--maxprocesses``).

    Most tests spend part of their time waiting: on a turn timer, a subprocess, a browser, a socket. With
    a worker per core the cores sat a fifth idle over a run (measured: 346 s of CPU in 280 s on 2 cores);
    a third worker fills that (260 s), and the tests wait on events, never on how fast a core is.
    """
    return (os.cpu_count() or 1) + 1
