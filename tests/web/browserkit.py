"""What the browser client's tests share: the server test kit on the path, Node's command line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "server"))


def node_command(test_file: Path) -> list[str]:
    """``node --test`` on one file, with the page's import map (``register.mjs``) and a WebSocket class."""
    node = shutil.which("node")
    assert node is not None, "Node.js must be on the machine (see README.md)"
    imports = ["--import", str(HERE / "register.mjs")]
    return [node, "--experimental-websocket", *imports, "--test", "--test-force-exit", str(test_file)]
