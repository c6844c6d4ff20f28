"""``python -m boneyard.server.healthcheck``: exit 0 if the server on this host answers ``/healthz`` with 200.

The container's health check (``Dockerfile``, ``compose.yaml``): the slim Python image has no curl.
It asks ``127.0.0.1`` on ``BONEYARD_PORT`` (default 8765); a stopping server answers 503, so a
container shutting down is reported unhealthy.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def healthy(port: int, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout) as response:
            return bool(response.status == 200)
    except OSError:  # refused, timed out, or an HTTP error status
        return False


def main() -> int:
    port = int(os.environ.get("BONEYARD_PORT", "8765"))
    if healthy(port):
        return 0
    print(f"boneyard: no healthy server on port {port}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
