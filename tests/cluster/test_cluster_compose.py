"""The NATS configuration of compose.yaml's cluster profile, run for real: the ``nats-server`` of the test
extra starts on it, with JetStream on and every write fsynced, and answers the health check compose asks."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import yaml
from natsserver import binary, listening, port_of

ROOT = Path(__file__).resolve().parents[2]


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=2) as response:
        return int(response.status), response.read()


def test_the_compose_nats_config_runs_jetstream_syncing_every_write(tmp_path: Path) -> None:
    spec: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    service = spec["services"]["nats"]
    (config,) = service["configs"]
    text = spec["configs"][config["source"]]["content"]
    (mount,) = service["volumes"]
    store = mount.partition(":")[2]
    monitor = 8222
    assert f"http_port: {monitor}" in text
    check = service["healthcheck"]["test"]
    (url,) = [word for word in check if word.startswith("http://")]
    assert url.startswith(f"http://localhost:{monitor}/")

    # The same file, with the container's paths and ports moved to this machine's.
    # Ports the kernel picks (-1), said in the ports file: a port probed free here could be taken meanwhile.
    conf = tmp_path / "nats.conf"
    conf.write_text(
        text.replace(f"store_dir: {store}", f"store_dir: {tmp_path / 'js'}").replace(
            f"http_port: {monitor}", "http_port: -1"
        )
    )
    process = subprocess.Popen(
        [binary(), "-c", str(conf), "-a", "127.0.0.1", "-p", "-1", "--ports_file_dir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            said = listening(process, tmp_path)
            if said is not None:
                local_monitor = port_of(said["monitoring"][0])
                with contextlib.suppress(OSError):
                    status, _ = _get(url.replace(f"localhost:{monitor}", f"127.0.0.1:{local_monitor}"))
                    break
            assert time.monotonic() < deadline, "nats-server did not answer its health check"
            time.sleep(0.05)
        assert status == 200  # JetStream is enabled (the health check asks js-enabled-only)
        _, body = _get(f"http://127.0.0.1:{local_monitor}/varz")
        jetstream = json.loads(body)["jetstream"]["config"]
        assert jetstream["store_dir"].startswith(str(tmp_path / "js"))
        assert jetstream["sync_always"] is True
    finally:
        process.terminate()
        process.wait(timeout=10)
