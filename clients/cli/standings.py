"""``boneyard profile NAME`` and ``boneyard leaderboard KIND`` (feature ``ratings``): a player's ratings and
rated games, and the established players of a kind, as text.

A provisional rating is shown with a ``?`` (as chess servers do).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, get_args

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.identity import saved_signer
from boneyard.clients.cli.core.session import Client
from boneyard.protocol.ratings import RatingKind

KINDS: tuple[str, ...] = get_args(RatingKind)
PAGE = 20
"""Leaderboard entries asked for at a time."""


def add_parsers(sub: argparse._SubParsersAction[Any]) -> None:
    profile = sub.add_parser("profile", help="a player's ratings and rated games (or a bot's: bot-good)")
    profile.add_argument("player")
    profile.add_argument("--games", type=int, default=10, choices=range(1, 51), metavar="N", help="1-50 (10)")
    board = sub.add_parser("leaderboard", help="the established players of a kind of game, best first")
    board.add_argument("kind", choices=KINDS)
    board.add_argument("--page", type=int, default=1, help=f"{PAGE} to a page, from 1")
    for parser in (profile, board):
        parser.add_argument("--server", required=True, metavar="URL", help="e.g. ws://localhost:8765/")


def rating_text(rating: int, provisional: bool) -> str:
    """``1672?`` for a provisional rating, ``1614`` for an established one."""
    return f"{rating}{'?' if provisional else ''}"


def rating_words(rating: int, deviation: int, provisional: bool, width: int = 0) -> str:
    """A rating with its deviation, ``1672? (±300)``, the rating right-aligned to ``width``: how every view
    of the client (these lines, the full-screen client's players screen) shows one."""
    return f"{rating_text(rating, provisional):>{width}} (±{deviation})"


def leaderboard_title(reply: Any) -> str:
    return f"{reply.kind}: {reply.total} established player{'s' if reply.total != 1 else ''}"


def profile_lines(reply: Any) -> list[str]:
    lines = [reply.player]
    if not reply.ratings:
        lines.append("  no rated games yet")
    for r in reply.ratings:
        games = f"{r.games} game{'s' if r.games != 1 else ''}, {r.wins} won"
        lines.append(f"  {r.kind:<13} {rating_words(r.rating, r.deviation, r.provisional, 6)}  {games}")
    if reply.games:
        lines.append(f"rated games ({len(reply.games)} of {reply.total}, newest first):")
    for g in reply.games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_ms / 1000))
        result = "won " if g.won else "lost"
        lines.append(
            f"  {when}  {g.kind:<13} {g.before} -> {g.after}  {result}  {g.record_id or ''}".rstrip()
        )
    return lines


def leaderboard_lines(reply: Any) -> list[str]:
    lines = [leaderboard_title(reply)]
    for e in reply.entries:  # established ratings only: never a ``?``
        lines.append(
            f"  {e.rank:>3}. {e.player:<24} {rating_words(e.rating, e.deviation, False, 5)}  {e.games} games"
        )
    return lines


async def run(args: argparse.Namespace) -> int:
    """Ask the server and print; 1 with one line on standard error when it cannot."""
    signer = saved_signer()
    client = Client(args.server, signer.account if signer else "viewer", signer=signer, reconnect=False)
    try:
        await client.connect()
        if args.command == "profile":
            command = {"type": "get_profile", "player": args.player, "limit": args.games}
            lines = profile_lines(await client.request(command))
        else:
            page = max(1, args.page)
            command = {
                "type": "get_leaderboard",
                "kind": args.kind,
                "offset": (page - 1) * PAGE,
                "limit": PAGE,
            }
            lines = leaderboard_lines(await client.request(command))
    except (OSError, CommandError) as error:
        print(f"boneyard: {error}", file=sys.stderr)
        return 1
    finally:
        await client.close()
    print("\n".join(lines))
    return 0
