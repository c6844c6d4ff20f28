"""The NATS configuration of compose.yaml's cluster profile, run for real: the ``nats-server`` of the test
extra starts on it, with JetStream on and every write fsynced, and answers the health check compose asks."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import yaml
from natsserver import binary, free_port

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
    conf = tmp_path / "nats.conf"
    local_monitor = free_port()
    conf.write_text(
        text.replace(f"store_dir: {store}", f"store_dir: {tmp_path / 'js'}").replace(
            f"http_port: {monitor}", f"http_port: {local_monitor}"
        )
    )
    process = subprocess.Popen(
        [binary(), "-c", str(conf), "-a", "127.0.0.1", "-p", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        health = url.replace(f"localhost:{monitor}", f"127.0.0.1:{local_monitor}")
        deadline = time.monotonic() + 10
        while True:
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            try:
                status, _ = _get(health)
                break
            except OSError:
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
