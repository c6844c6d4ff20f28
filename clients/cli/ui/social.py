"""The typed commands of the features past the table: matchmaking (``seek``), ratings (``profile``,
``leaderboard``) and moderation (``mute``, ``report``); each an ``InputError`` when malformed.

>>> seek_request(["moon", "rated", "bots=30", "level=good"])
{'type': 'seek', 'kind': 'moon', 'rated': True, 'bots_after_ms': 30000, 'bot_level': 'good'}
>>> seek_request(["chess"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
boneyard.clients.cli.ui.commands.InputError: seek moon|straight-2|... [rated] [bots=SECONDS] ...
"""

from __future__ import annotations

from typing import Any, Protocol

from boneyard.clients.cli.core.session import Client
from boneyard.clients.cli.standings import KINDS, PAGE, leaderboard_lines, profile_lines
from boneyard.clients.cli.ui.commands import SEEK_USAGE, InputError


class Speaker(Protocol):
    """What these commands need of the controller: its client, and where lines go."""

    @property
    def client(self) -> Client: ...

    def info(self, text: str) -> None: ...

    def show(self, lines: list[str]) -> None: ...


def seek_request(args: list[str]) -> dict[str, Any]:
    if not args or args[0] not in KINDS:
        raise InputError(SEEK_USAGE)
    request: dict[str, Any] = {"type": "seek", "kind": args[0]}
    for word in args[1:]:
        key, _, value = word.partition("=")
        if word == "rated":
            request["rated"] = True
        elif key == "bots" and value.isdigit() and int(value) <= 600:
            request["bots_after_ms"] = int(value) * 1000
        elif key == "level" and value in ("basic", "good", "strong"):
            request["bot_level"] = value
        else:
            raise InputError(SEEK_USAGE)
    return request


async def run(controller: Speaker, name: str, args: list[str]) -> None:
    """One of ``commands.SOCIAL``."""
    client = controller.client
    if name == "seek":
        await client.request(seek_request(args))
        controller.info(f"Seeking {args[0]}: you are seated as soon as opponents are found")
    elif name == "unseek":
        await client.request({"type": "cancel_seek"})
        controller.info("No longer seeking")
    elif name == "profile":
        welcome = client.welcome
        player = args[0] if args else (welcome.account if welcome else None)
        if not player:
            raise InputError("profile NAME (you are not signed in)")
        reply = await client.request({"type": "get_profile", "player": player})
        controller.show(profile_lines(reply))
    elif name == "leaderboard":
        if not args or args[0] not in KINDS or (len(args) > 1 and not args[1].isdigit()):
            raise InputError(f"leaderboard {'|'.join(KINDS)} [PAGE]")
        page = int(args[1]) if len(args) > 1 else 1
        offset = max(0, page - 1) * PAGE
        command = {"type": "get_leaderboard", "kind": args[0], "offset": offset, "limit": PAGE}
        controller.show(leaderboard_lines(await client.request(command)))
    elif name in ("mute", "unmute"):
        if len(args) != 1:
            raise InputError(f"{name} NAME")
        await client.request({"type": name, "player": args[0]})
        controller.info(f"{args[0]}'s chat is {'hidden' if name == 'mute' else 'shown'} from now on")
    elif name == "report":
        if len(args) < 2:
            raise InputError("report NAME REASON")
        await client.request({"type": "report", "player": args[0], "reason": " ".join(args[1:])})
        controller.info(f"Reported {args[0]} to the server's operator")
