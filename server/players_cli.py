"""``boneyard-server players``: the operator's commands on accounts (feature ``accounts``) and reports
(feature ``moderation``), run on the database; ``on_database``, the error handling every database command
shares."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boneyard.server.settings import Settings
from boneyard.server.storage.db import StorageError


def on_database(args: argparse.Namespace, work: Callable[[Path], object]) -> int:
    """Run ``work`` on the database (``--db``, else the setting): 0, or 1 with its one-line error."""
    path = args.db if args.db is not None else Settings().db
    try:
        work(path)
    except StorageError as error:
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    return 0


def _recovery_code(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import issue_recovery_code

    def issue(path: Path) -> None:
        print(issue_recovery_code(path, args.name, time.time()))
        link = f"boneyard account link {args.name} CODE"
        print(f"give it to {args.name} once: `{link}` adds a key (good for a week)", file=sys.stderr)

    return on_database(args, issue)


def _ban(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import set_banned

    said = "banned: its sign-ins are refused" if args.banned else "may sign in again"
    return on_database(args, lambda path: print(f"{set_banned(path, args.name, args.banned)} {said}"))


def _rename(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import rename_account

    return on_database(
        args, lambda path: print(f"{rename_account(path, args.name, args.new_name)} is now {args.new_name}")
    )


def _reports(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.moderation import export_reports

    return on_database(args, lambda path: export_reports(path, sys.stdout))


def add_players(commands: argparse._SubParsersAction[Any], db_help: str) -> None:
    """``players recovery-code|ban|unban|rename|reports``."""
    players = commands.add_parser("players", help="players' accounts in the database")
    actions = players.add_subparsers(
        dest="action", required=True, metavar="ACTION", parser_class=type(players)
    )
    recovery = actions.add_parser(
        "recovery-code",
        help="print a one-time code that adds a new key to an account (a week; a server may be running)",
    )
    recovery.add_argument("name", help="the account's name")
    recovery.set_defaults(run=_recovery_code)
    bans = (("ban", "refuse the account's sign-ins"), ("unban", "let the account sign in again"))
    for action, text in bans:
        moderation = actions.add_parser(action, help=f"{text} (a server may be running)")
        moderation.add_argument("name", help="the account's name")
        moderation.set_defaults(run=_ban, banned=action == "ban")
    rename = actions.add_parser("rename", help="rename an account, keys and ratings kept (server stopped)")
    rename.add_argument("name", help="the account's name")
    rename.add_argument("new_name", metavar="NEW", help="its new name (the name rules hold; free)")
    rename.set_defaults(run=_rename)
    reports = actions.add_parser("reports", help="players' reports, as JSON Lines (a server may be running)")
    reports.set_defaults(run=_reports)
    for parser in (recovery, *(actions.choices[name] for name in ("ban", "unban")), rename, reports):
        parser.add_argument("--db", type=Path, metavar="PATH", help=db_help)
