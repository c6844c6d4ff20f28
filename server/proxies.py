"""The client's address behind reverse proxies: ``Forwarded``, ``X-Forwarded-For``, from trusted proxies only.

Behind a proxy every connection comes from the proxy's address, so per-address limits
(``tables_per_address``) would count all players as one. A proxy says whom it forwards for in a
header; anyone can send that header, so it is believed only from a connection whose own address is
one of ``settings.trusted_proxies``. The chain is read from the right (the hop nearest to us): each
address appended by a trusted proxy is believed in turn, and the first one that is not a trusted
proxy is the client. ``Forwarded`` (RFC 7239) is read if present, else ``X-Forwarded-For``.

>>> from ipaddress import ip_network
>>> proxies = TrustedProxies([ip_network("10.0.0.0/8")])
>>> proxies.client("10.0.0.2", Headers({"X-Forwarded-For": "198.51.100.7, 10.0.0.9"}))
'198.51.100.7'
>>> proxies.client("203.0.113.5", Headers({"X-Forwarded-For": "198.51.100.7"}))  # not our proxy: ignored
'203.0.113.5'
>>> proxies.client("10.0.0.2", Headers(Forwarded='for=192.0.2.60;proto=https, for="[2001:db8::17]:4711"'))
'2001:db8::17'
>>> proxies.client("10.0.0.2", Headers({"X-Forwarded-For": "1.2.3.4, unknown"}))  # a garbled hop: the proxy
'10.0.0.2'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from websockets.datastructures import Headers

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class TrustedProxies:
    """Which peers may say whom they forward for, and the client's address they name."""

    __slots__ = ("_networks",)

    def __init__(self, networks: Iterable[Network]) -> None:
        self._networks = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self._networks)

    def trusts(self, address: str) -> bool:
        parsed = _address(address)
        return parsed is not None and any(parsed in network for network in self._networks)

    def client(self, peer: str, headers: Headers) -> str:
        """The client's address: ``peer`` itself unless it is a trusted proxy that names another
        (every line of a header, in order: a proxy may add a line instead of extending one)."""
        if not self.trusts(peer):
            return peer
        chain = _chain(headers.get_all("Forwarded"), forwarded=True) or _chain(
            headers.get_all("X-Forwarded-For"), forwarded=False
        )
        nearest = peer
        for hop in reversed(chain):
            parsed = _address(hop)
            if parsed is None:  # "unknown", a made-up name, garbage: all we have is the proxy that wrote it
                return nearest
            nearest = str(parsed)
            if not self.trusts(nearest):
                return nearest
        return nearest  # proxies all the way: the farthest one


def _chain(lines: Sequence[str], *, forwarded: bool) -> list[str]:
    """The addresses of the hops, the client's first: ``for=`` of each ``Forwarded`` element, or the
    comma-separated ``X-Forwarded-For``."""
    hops: list[str] = []
    for line in lines:
        for element in line.split(","):
            if not forwarded:
                hops.append(element.strip())
                continue
            for pair in element.split(";"):
                key, _, value = pair.strip().partition("=")
                if key.strip().lower() == "for":
                    hops.append(value.strip().strip('"'))
    return hops


def _address(text: str) -> Address | None:
    """An IP address from a hop: ``1.2.3.4``, ``1.2.3.4:80``, ``[::1]:80``, ``::1``; None if it is not one."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:  # IPv4 with a port (an IPv6 address has at least two colons)
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return mapped or address  # ::ffff:10.0.0.2 from a dual-stack socket is 10.0.0.2
