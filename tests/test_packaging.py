"""The wheel's one top-level import name is ``boneyard``, and it carries every package that runs there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"protocol": "boneyard.protocol", "server": "boneyard.server", "clients": "boneyard.clients"}
NOT_SHIPPED = {"boneyard.protocol.spec", "boneyard.protocol.spec.examples"}  # the spec generator: a dev tool


def _packages_in_folders() -> set[str]:
    found = set()
    for folder, name in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *parts)))
    return found


def test_the_package_list_names_every_folder_but_the_spec_generator() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _packages_in_folders() - NOT_SHIPPED
    assert config["package-dir"] == {name: folder for folder, name in FOLDERS.items()}


def test_the_wheel_holds_only_boneyard(tmp_path: Path) -> None:
    # Built from a copy of the tracked files: setuptools builds in place (build/lib) and never deletes what
    # it copied there before, so a build in the work tree could ship modules that no longer exist.
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    source = tmp_path / "source"
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run(
        [*build, "-w", str(tmp_path), "."], cwd=source, check=True, capture_output=True, timeout=300
    )
    (wheel,) = tmp_path.glob("boneyard-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"boneyard"}
    assert "boneyard/server/games/moon/game.py" in names
    assert "boneyard/clients/cli/main.py" in names
    # The browser client, served from the package (boneyard.server.webfiles), its vendored msgpack too.
    web = {
        "index.html",
        "app.js",
        "sdk/client.js",
        "vendor/msgpack/index.mjs",
        "vendor/msgpack/utils/utf8.mjs",
    }
    web.add("vendor/msgpack/LICENSE")
    assert {f"boneyard/clients/web/{name}" for name in web} <= set(names)
    assert not [name for name in names if name.startswith("boneyard/protocol/spec/")]
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert (
        "boneyard-server = boneyard.server.cli:main" in text
        and "boneyard = boneyard.clients.cli.main:main" in text
    )
