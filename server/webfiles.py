"""The browser client's files (``clients/web``), read once at start and served with their headers.

Everything the page needs comes from this server: its ES modules, its stylesheet and the vendored msgpack
library. The Content-Security-Policy allows nothing else: scripts from this origin plus the one inline
import map (by its SHA-256, computed here from ``index.html``), styles and images from this origin, and
websockets back to it; no ``eval``, no inline styles, no frames. Every file is revalidated (``no-cache``
and a strong ``ETag``): a page never runs modules of two versions after an upgrade, and an unchanged file
costs a 304.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import PurePosixPath

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    "LICENSE": "text/plain; charset=utf-8",
}
"""What is served, by file extension (or name): nothing else in the folder is (scripts, notes)."""

IMPORT_MAP = re.compile(rb'<script type="importmap">(.*?)</script>', re.DOTALL)
PAGE_PATHS = re.compile(r"^/(?:t/[A-Za-z0-9_-]{1,32}|replay/[A-Za-z0-9_-]{1,32})?$")
"""The addresses that open the page: the lobby ``/``, a table ``/t/ID`` and a replay ``/replay/ID``."""
ASSETS = "/assets/"


@dataclass(frozen=True, slots=True)
class WebFile:
    body: bytes
    content_type: str
    etag: str


def _csp(index: bytes) -> str:
    scripts = ["'self'"]
    for inline in IMPORT_MAP.findall(index):
        digest = base64.b64encode(hashlib.sha256(inline).digest()).decode()
        scripts.append(f"'sha256-{digest}'")
    return "; ".join(
        (
            "default-src 'none'",
            f"script-src {' '.join(scripts)}",
            "style-src 'self'",
            "img-src 'self'",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )


class WebFiles:
    """The served files by URL path (``/assets/...``), the page for its addresses, and the policy."""

    __slots__ = ("csp", "files", "page")

    def __init__(self, root: Traversable | None = None) -> None:
        root = root if root is not None else files("boneyard.clients") / "web"
        self.files: dict[str, WebFile] = {}
        if not root.joinpath("index.html").is_file():  # an install without the package data
            raise FileNotFoundError(
                f"the browser client's files are missing ({root}): reinstall, or set BONEYARD_WEB=false"
            )
        self._walk(root, "")
        self.page = self.files[ASSETS + "index.html"]
        self.csp = _csp(self.page.body)

    def _walk(self, folder: Traversable, prefix: str) -> None:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                self._walk(entry, f"{prefix}{entry.name}/")
                continue
            kind = CONTENT_TYPES.get(entry.name) or CONTENT_TYPES.get(PurePosixPath(entry.name).suffix)
            if kind is not None:
                body = entry.read_bytes()
                etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
                self.files[ASSETS + prefix + entry.name] = WebFile(body, kind, etag)

    def find(self, path: str) -> WebFile | None:
        """The file a GET of ``path`` (no query) answers with, or ``None``."""
        if PAGE_PATHS.match(path):
            return self.page
        return self.files.get(path)


@cache
def bundled() -> WebFiles:
    """The files shipped in the package, read once per process."""
    return WebFiles()
