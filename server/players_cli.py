"""``boneyard-server players``: the operator's commands on accounts (feature ``accounts``) and reports
(feature ``moderation``), run on the database or on a cluster's accounts and reports (``--cluster URL``,
or the ``cluster`` setting); ``on_database``, the error handling every database command shares."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Coroutine
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


def on_accounts(
    args: argparse.Namespace,
    on_db: Callable[[Path], object],
    on_cluster: Callable[[str], Coroutine[Any, Any, None]],
) -> int:
    """Run an account (or reports) command on the cluster (``--cluster``, else the ``cluster`` setting
    unless ``--db`` names a database) or on the database: 0, or 1 with its one-line error."""
    url = args.cluster if args.cluster is not None else None if args.db is not None else Settings().cluster
    if url is None:
        return on_database(args, on_db)
    from boneyard.server.cluster import ClusterError  # nats-py (the cluster extra) only for a cluster

    try:
        asyncio.run(on_cluster(url))
    except ClusterError as error:
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    return 0


def _recovery_code(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import RECOVERY_CODE_SECONDS, issue_recovery_code

    def said(code: str) -> None:
        print(code)
        link = f"boneyard account link {args.name} CODE"
        print(f"give it to {args.name} once: `{link}` adds a key (good for a week)", file=sys.stderr)

    async def on_cluster(url: str) -> None:
        from boneyard.server.cluster.operator import recovery_code_on_cluster

        said(await recovery_code_on_cluster(url, args.name, time.time(), RECOVERY_CODE_SECONDS))

    return on_accounts(args, lambda path: said(issue_recovery_code(path, args.name, time.time())), on_cluster)


def _ban(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import set_banned

    said = "banned: its sign-ins are refused" if args.banned else "may sign in again"

    async def on_cluster(url: str) -> None:
        from boneyard.server.cluster.operator import set_banned_on_cluster

        print(f"{await set_banned_on_cluster(url, args.name, args.banned)} {said} on every node")

    return on_accounts(
        args, lambda path: print(f"{set_banned(path, args.name, args.banned)} {said}"), on_cluster
    )


def _rename(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.accounts.sqlite import rename_account

    async def on_cluster(url: str) -> None:
        from boneyard.server.cluster.operator import rename_on_cluster

        old = await rename_on_cluster(url, args.name, args.new_name, time.time())
        print(f"{old} is now {args.new_name} on every node")

    return on_accounts(
        args,
        lambda path: print(f"{rename_account(path, args.name, args.new_name)} is now {args.new_name}"),
        on_cluster,
    )


def _reports(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.moderation import export_reports

    async def on_cluster(url: str) -> None:
        from boneyard.server.cluster.operator import reports_on_cluster

        for line in await reports_on_cluster(url):
            print(line)

    return on_accounts(args, lambda path: export_reports(path, sys.stdout), on_cluster)


def add_players(commands: argparse._SubParsersAction[Any], db_help: str) -> None:
    """``players recovery-code|ban|unban|rename|reports``."""
    players = commands.add_parser(
        "players", help="players' accounts and reports (a database's or a cluster's)"
    )
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
    rename = actions.add_parser(
        "rename",
        help="rename an account, keys, ratings and history kept (a server stopped; a cluster's nodes may run,"
        " its player at no table)",
    )
    rename.add_argument("name", help="the account's name")
    rename.add_argument("new_name", metavar="NEW", help="its new name (the name rules hold; free)")
    rename.set_defaults(run=_rename)
    reports = actions.add_parser(
        "reports", help="players' reports, as JSON Lines, oldest first (a server may be running)"
    )
    reports.set_defaults(run=_reports)
    on_cluster = (recovery, *(actions.choices[name] for name in ("ban", "unban")), rename, reports)
    for parser in on_cluster:
        parser.add_argument("--db", type=Path, metavar="PATH", help=db_help)
        parser.add_argument(
            "--cluster",
            metavar="URL",
            help="the cluster's NATS (nats://HOST:4222): its accounts and reports, not a database's "
            "(default: the cluster setting, BONEYARD_CLUSTER, unless --db is given)",
        )
