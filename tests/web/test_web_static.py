"""The browser client served by the server over real HTTP: content types, caching, the policy, nothing
external, and ``web=False`` turning it off."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from browserkit import README_SHOTS, ROOT
from server_testkit import Player, running_server

from boneyard.server.webfiles import WebFiles

WEB = ROOT / "clients" / "web"


async def fetch(port: int, path: str, *headers: str) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP/1.1 GET: the status, the headers (lower-case names) and the body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = "".join(f"{h}\r\n" for h in headers)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), {k.lower(): v for k, v in fields.items()}, body


async def test_the_page_opens_on_the_lobby_table_and_replay_addresses_with_a_strict_policy() -> None:
    async with running_server() as server:
        pages = [await fetch(server.port, path) for path in ("/", "/t/t7k2?code=abc", "/replay/r9x4")]
        bad_table = await fetch(server.port, "/t/not%20an%20id")
    index = (WEB / "index.html").read_bytes()
    for status, headers, body in pages:
        assert status == 200 and body == index
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["cache-control"] == "no-cache" and re.fullmatch(r'"[0-9a-f]{32}"', headers["etag"])
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"  # an invite code in the address stays here
    policy = dict(part.split(" ", 1) for part in pages[0][1]["content-security-policy"].split("; "))
    (import_map,) = re.findall(rb'<script type="importmap">(.*?)</script>', index, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(import_map).digest()).decode()
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == f"'self' 'sha256-{digest}'"  # the one inline script, nothing else
    assert policy["style-src"] == policy["connect-src"] == policy["img-src"] == "'self'"
    assert policy["frame-ancestors"] == policy["base-uri"] == "'none'"
    assert bad_table[0] == 404


async def test_every_file_is_served_with_its_content_type_and_revalidated_by_its_etag() -> None:
    kinds = {".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8"}
    kinds |= {".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
    served = [p for p in WEB.rglob("*") if p.suffix in kinds]
    assert len(served) > 20
    async with running_server() as server:
        for path in served:
            url = "/assets/" + path.relative_to(WEB).as_posix()
            status, headers, body = await fetch(server.port, url)
            wanted = (200, kinds[path.suffix], path.read_bytes())
            assert (status, headers["content-type"], body) == wanted, url
            again = await fetch(server.port, url, f"If-None-Match: {headers['etag']}")
            assert again[0] == 304 and again[2] == b"" and again[1]["etag"] == headers["etag"]
        licence = await fetch(server.port, "/assets/vendor/msgpack/LICENSE")
        assert licence[0] == 200 and licence[1]["content-type"] == "text/plain; charset=utf-8"
        paths = ("/assets/vendor/refresh.sh", "/assets/vendor/msgpack/package.json", "/assets/../app.py")
        for hidden in paths:
            assert (await fetch(server.port, hidden))[0] == 404, hidden
        # The websocket still lives on /, beside the page.
        player = await Player.connect(server.url, "ana")
        await player.close()


def test_the_page_fetches_nothing_from_outside_the_server() -> None:
    index = (WEB / "index.html").read_text()
    addresses = re.findall(r'(?:src|href)="([^"]*)"', index)
    assert addresses and all(a.startswith("/assets/") or a == "/" for a in addresses), addresses
    (import_map,) = re.findall(r'<script type="importmap">(.*?)</script>', index, re.DOTALL)
    imports = json.loads(import_map)["imports"]
    assert all(target.startswith("/assets/") for target in imports.values())
    for script in [*WEB.rglob("*.js"), *WEB.rglob("*.mjs")]:
        statements = r'(?:^|\n)\s*(?:import|export)[^"\n;]*?from\s*"([^"]+)"'
        for specifier in re.findall(statements, script.read_text()):
            assert specifier.startswith(".") or specifier in imports, (script, specifier)
        code = re.sub(r"//[^\n]*", "", script.read_text())  # comments may cite their sources
        assert not re.search(r"https?://|wss?://[a-z]", code), script
    for sheet in WEB.rglob("*.css"):
        assert "url(" not in sheet.read_text().replace("url(data:", "") and "@import" not in sheet.read_text()


def test_a_server_without_the_clients_files_says_so_in_a_line(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"browser client's files are missing .*BONEYARD_WEB=false"):
        WebFiles(tmp_path)


async def test_web_false_serves_websockets_health_and_metrics_only() -> None:
    async with running_server(web=False) as server:
        assert (await fetch(server.port, "/"))[0] == 426  # the websocket path, without an upgrade
        for path in ("/t/t7k2", "/replay/r9x4", "/assets/app.js", "/assets/index.html"):
            assert (await fetch(server.port, path))[0] == 404, path
        assert (await fetch(server.port, "/healthz"))[0] == 200
        player = await Player.connect(server.url, "ana")
        await player.close()


def test_the_readme_shows_the_tests_screenshots_on_a_desktop_and_on_a_phone() -> None:
    """The README's pictures of the client are exactly the ones the tests take (``README_SHOTS``: running
    ``tests/web/readme-screenshots.sh`` takes them again), each a PNG of the size its name says."""
    readme = (ROOT / "README.md").read_text()
    shown = set(re.findall(r"docs/images/web-[\w.-]+\.png", readme))
    assert shown == {str(path.relative_to(ROOT)) for path in README_SHOTS.values()}
    for name, path in README_SHOTS.items():
        png = path.read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
        size = tuple(int(n) for n in name.rsplit("-", 1)[1].split("x"))
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == size, name
