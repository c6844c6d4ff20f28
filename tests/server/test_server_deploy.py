"""The container set-up, checked statically (Docker cannot run here): ``compose.yaml`` and ``Dockerfile``
name real settings, publish the server's port, keep the database on a named volume, run as a user
other than root, and check health on ``/healthz`` with a command that works (tested for real)."""

from __future__ import annotations

import asyncio
import json
import shlex
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from server_testkit import running_server

from boneyard.server.healthcheck import healthy
from boneyard.server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
HEALTHCHECK = ["python", "-m", "boneyard.server.healthcheck"]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as ``(INSTRUCTION, arguments)``, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending += " " + line.removesuffix("\\").strip()
        if not line.endswith("\\"):
            keyword, _, rest = pending.strip().partition(" ")
            instructions.append((keyword.upper(), rest.strip()))
            pending = ""
    return instructions


def instruction(name: str) -> list[str]:
    return [rest for keyword, rest in dockerfile() if keyword == name]


def dockerfile_env() -> dict[str, str]:
    return dict(pair.split("=", 1) for args in instruction("ENV") for pair in args.split())


def env_settings(variables: dict[str, str]) -> dict[str, str]:
    """``BONEYARD_*`` variables as Settings field names; every one must be a field."""
    fields = {}
    for name, value in variables.items():
        assert name.startswith("BONEYARD_"), name
        field = name.removeprefix("BONEYARD_").lower()
        assert field in Settings.model_fields, f"{name} is not a setting"
        fields[field] = str(value)
    return fields


def test_compose_runs_one_service_with_its_port_its_volume_and_real_settings() -> None:
    spec = compose()
    (name,) = spec["services"]
    service = spec["services"][name]
    assert service["build"] == "."
    environment = env_settings(service["environment"])
    settings = Settings(**environment)  # the values validate, too
    assert settings.durable and settings.host == "0.0.0.0"
    assert service["ports"] == [f"{settings.port}:{settings.port}"]
    (mount,) = service["volumes"]
    volume, _, target = mount.partition(":")
    assert volume in spec["volumes"]  # a named volume, not a host directory
    assert PurePosixPath(settings.db).parent == PurePosixPath(target)
    assert service["healthcheck"]["test"] == ["CMD", *HEALTHCHECK]
    assert {"interval", "timeout", "retries"} <= set(service["healthcheck"])


def test_the_dockerfile_installs_the_server_and_runs_it_as_a_user_with_a_health_check() -> None:
    (base,) = instruction("FROM")
    assert base == "python:3.11-slim"
    copied = {shlex.split(args)[0] for args in instruction("COPY")}
    assert {"pyproject.toml", "protocol", "server"} <= copied
    assert any("pip install ." in args for args in instruction("RUN"))
    (user,) = instruction("USER")
    assert user not in ("root", "0")
    keywords = [keyword for keyword, _ in dockerfile()]
    assert keywords.index("USER") < keywords.index("CMD")
    environment = env_settings({k: v for k, v in dockerfile_env().items() if k.startswith("BONEYARD_")})
    settings = Settings(**environment)
    assert instruction("EXPOSE") == [str(settings.port)]
    assert json.loads(instruction("VOLUME")[0]) == [str(PurePosixPath(settings.db).parent)]
    (check,) = instruction("HEALTHCHECK")
    assert check.endswith(f"CMD {json.dumps(HEALTHCHECK)}")
    assert json.loads(instruction("CMD")[0]) == ["boneyard-server", "serve"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["boneyard-server"] == "boneyard.server.cli:main"


def test_the_compose_and_dockerfile_environments_agree() -> None:
    service = next(iter(compose()["services"].values()))
    for name, value in dockerfile_env().items():
        if name.startswith("BONEYARD_") and name in service["environment"]:
            assert str(service["environment"][name]) == value, name


async def test_the_health_check_command_asks_healthz() -> None:
    async with running_server() as server:
        port = server.port
        assert await asyncio.to_thread(healthy, port)
    assert not await asyncio.to_thread(healthy, port)
