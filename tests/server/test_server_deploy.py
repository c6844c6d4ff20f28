"""The container set-up, checked statically (Docker cannot run here): ``compose.yaml`` and ``Dockerfile``
name real settings, publish the server's port, keep the database on a named volume, run as a user
other than root, and check health on ``/healthz`` with a command that works (tested for real)."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

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


def default_services(spec: dict[str, Any]) -> dict[str, Any]:
    """The services ``docker compose up`` starts: those in no profile."""
    return {name: service for name, service in spec["services"].items() if "profiles" not in service}


def profile_services(spec: dict[str, Any], profile: str) -> dict[str, Any]:
    return {name: s for name, s in spec["services"].items() if profile in s.get("profiles", ())}


def test_compose_runs_one_service_with_its_port_its_volume_and_real_settings() -> None:
    spec = compose()
    (service,) = default_services(spec).values()
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
    installs = [shlex.split(args) for args in instruction("RUN") if args.startswith("pip install")]
    assert [words[:3] for words in installs] == [["pip", "install", ".[cluster]"]]  # nodes join clusters
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
    service = next(iter(default_services(compose()).values()))
    for name, value in dockerfile_env().items():
        if name.startswith("BONEYARD_") and name in service["environment"]:
            assert str(service["environment"][name]) == value, name


def haproxy_sections(text: str) -> dict[str, list[list[str]]]:
    """An HAProxy configuration as ``{section header: its lines, split into words}``."""
    sections: dict[str, list[list[str]]] = {}
    lines: list[list[str]] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw[0].isspace():
            lines.append(raw.split())
        else:
            lines = sections.setdefault(raw.strip(), [])
    return sections


def test_the_cluster_profile_runs_nats_three_nodes_and_a_websocket_load_balancer() -> None:
    spec = compose()
    cluster = profile_services(spec, "cluster")
    assert set(cluster) == {"nats", "node1", "node2", "node3", "haproxy"}
    nats = cluster["nats"]
    (config,) = nats["configs"]
    assert nats["command"] == ["-c", config["target"]]
    (mount,) = nats["volumes"]
    volume, _, target = mount.partition(":")
    assert volume in spec["volumes"]
    assert f"store_dir: {target}" in spec["configs"][config["source"]]["content"]  # tested for real in
    # tests/cluster/test_cluster_compose.py

    nodes = {name: service for name, service in cluster.items() if name.startswith("node")}
    ports = set()
    for name, node in nodes.items():
        settings = Settings(**env_settings(node["environment"]))
        address = urlsplit(settings.cluster or "")
        assert (address.scheme, address.hostname, address.port) == ("nats", "nats", 4222)
        assert settings.node == name  # each node named after its service, so none twice
        assert settings.host == "0.0.0.0" and "ports" not in node  # reached through the balancer only
        ports.add(settings.port)
        assert node["build"] == "." and node["depends_on"]["nats"]["condition"] == "service_healthy"
        assert node["healthcheck"]["test"] == ["CMD", *HEALTHCHECK]

    balancer = cluster["haproxy"]
    (config,) = balancer["configs"]
    assert config["target"] == "/usr/local/etc/haproxy/haproxy.cfg"
    sections = haproxy_sections(spec["configs"][config["source"]]["content"])
    assert ["mode", "http"] in sections["defaults"]  # the websocket upgrade is an HTTP request
    assert any(line[:2] == ["timeout", "tunnel"] for line in sections["defaults"])  # then a long tunnel
    (frontend,) = [lines for header, lines in sections.items() if header.startswith("frontend")]
    (bind,) = [line for line in frontend if line[0] == "bind"]
    (published,) = balancer["ports"]
    assert published.split(":")[1] == bind[1].rsplit(":", 1)[1]
    (backend,) = [lines for header, lines in sections.items() if header.startswith("backend")]
    servers = {line[1]: line[2] for line in backend if line[0] == "server"}
    (port,) = ports
    assert servers == {name: f"{name}:{port}" for name in nodes}
    assert ["option", "httpchk", "GET", "/healthz"] in backend  # a node cut off from NATS is taken out
    assert ["http-check", "expect", "status", "200"] in backend
    # Each player's address reaches the nodes (tables_per_address), from HAProxy, which the nodes trust.
    assert ["option", "forwardfor"] in frontend
    assert ["http-request", "del-header", "X-Forwarded-For"] in frontend
    for node in nodes.values():
        trusted = Settings(**env_settings(node["environment"])).trusted_proxies
        assert trusted and all(network.is_private for network in trusted)


def test_the_readme_sections_compose_names_exist() -> None:
    """compose.yaml's comments point at README sections by their titles (issue #24: one did not exist)."""
    text = (ROOT / "compose.yaml").read_text()
    named = re.findall(r'README, "([^"]+)"', text)
    headings = {
        line.lstrip("#").strip()
        for line in (ROOT / "README.md").read_text().splitlines()
        if line.startswith("#")
    }
    assert named and set(named) <= headings, set(named) - headings


def test_the_proxy_configurations_in_operations_reach_the_server_and_forward_the_client() -> None:
    """docs/OPERATIONS.md's nginx, Caddy and HAProxy set-ups: the server's default port, a header naming the
    client, and a TRUSTED_PROXIES value the settings accept."""
    text = (ROOT / "docs" / "OPERATIONS.md").read_text()
    blocks = re.findall(r"```(?:nginx)?\n(.*?)```", text, re.S)
    nginx, caddy, haproxy = (
        next(b for b in blocks if word in b) for word in ("proxy_pass", "reverse_proxy", "frontend")
    )
    port = Settings().port
    assert f"proxy_pass http://127.0.0.1:{port};" in nginx and "X-Forwarded-For $remote_addr" in nginx
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx and "proxy_http_version 1.1;" in nginx
    assert f"reverse_proxy 127.0.0.1:{port}" in caddy
    sections = haproxy_sections(haproxy)
    (frontend,) = [lines for header, lines in sections.items() if header.startswith("frontend")]
    (backend,) = [lines for header, lines in sections.items() if header.startswith("backend")]
    assert any(line[:2] == ["option", "forwardfor"] for line in frontend)  # (a comment may follow)
    assert any(f"127.0.0.1:{port}" in line for line in backend)
    (trusted,) = re.findall(r"`BONEYARD_TRUSTED_PROXIES=([^`]+)`", text)
    assert [str(n) for n in Settings(trusted_proxies=trusted).trusted_proxies] == ["127.0.0.1/32"]


async def test_the_health_check_command_asks_healthz() -> None:
    async with running_server() as server:
        port = server.port
        assert await asyncio.to_thread(healthy, port)
    assert not await asyncio.to_thread(healthy, port)
