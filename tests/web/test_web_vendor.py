"""The vendored msgpack library is byte for byte the npm package pinned in tests/protocol/package-lock.json.

``npm ci --prefix tests/protocol`` (the README's test command) installs that package after checking it
against the lockfile's integrity hash; here every vendored file is compared with the installed one, so
a hand-edited or stale copy fails. ``clients/web/vendor/refresh.sh`` makes the copy again.
"""

from __future__ import annotations

import json

from browserkit import ROOT

PACKAGE = "@msgpack/msgpack"
VENDORED = ROOT / "clients" / "web" / "vendor" / "msgpack"
INSTALLED = ROOT / "tests" / "protocol" / "node_modules" / PACKAGE


def test_the_lockfile_pins_one_exact_version_with_its_integrity_hash() -> None:
    manifest = json.loads((ROOT / "tests" / "protocol" / "package.json").read_text())
    lock = json.loads((ROOT / "tests" / "protocol" / "package-lock.json").read_text())
    locked = lock["packages"][f"node_modules/{PACKAGE}"]
    assert manifest["devDependencies"][PACKAGE] == locked["version"]  # exact, no range
    assert locked["integrity"].startswith("sha512-")
    assert json.loads((INSTALLED / "package.json").read_text())["version"] == locked["version"]
    assert json.loads((VENDORED / "package.json").read_text())["version"] == locked["version"]


def test_every_vendored_file_is_the_installed_packages_own() -> None:
    wanted = {"LICENSE": "LICENSE", "package.json": "package.json"}
    dist = INSTALLED / "dist.esm"
    for module in dist.rglob("*.mjs"):
        wanted[module.relative_to(dist).as_posix()] = module.relative_to(INSTALLED).as_posix()
    vendored = {p.relative_to(VENDORED).as_posix() for p in VENDORED.rglob("*") if p.is_file()}
    assert vendored == set(wanted)
    for ours, theirs in wanted.items():
        assert (VENDORED / ours).read_bytes() == (INSTALLED / theirs).read_bytes(), ours
    assert "Copyright 2019 The MessagePack Community" in (VENDORED / "LICENSE").read_text()
