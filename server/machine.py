"""What the server asks of the machine before it serves: descriptors, the port, a name for the node."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import socket


def connection_cap(setting: int | None, descriptors: int) -> int:
    """The most connections to accept with ``descriptors`` file descriptors: ``setting`` if given, but
    never past the limit less its headroom (a fifth, at least 64 descriptors).

    >>> connection_cap(None, 1024), connection_cap(100, 1024), connection_cap(None, 20_000)
    (820, 100, 16000)
    """
    derived = max(1, descriptors - max(64, descriptors // 5))
    return derived if setting is None else min(setting, derived)


def descriptor_limit() -> int:
    """The process's descriptor limit, first raised to its hard limit (the soft one is often 1024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def node_name(port: int) -> str:
    """A cluster node's default name: the host name and the port (the process id with port 0), in the
    characters a NATS subject token may hold.

    >>> import re; bool(re.fullmatch(r"[A-Za-z0-9_-]+-[0-9]+", node_name(8765)))
    True
    """
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname()) or "node"
    return f"{host}-{port or os.getpid()}"


async def check_bindable(loop: asyncio.AbstractEventLoop, host: str, port: int) -> None:
    """Raise the ``OSError`` that listening on ``host:port`` would (the port is taken, the address is not
    this machine's), without listening: a server that cannot serve must not create its database first."""
    if port == 0:
        return
    for family, kind, proto, _, address in await loop.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    ):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server does
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # so does asyncio
            probe.bind(address)
