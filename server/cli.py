"""``boneyard-server``: the command line (``serve``, ``backup``, ``records``; ``players`` in
:mod:`~boneyard.server.players_cli`, ``simulate`` and ``arena`` in :mod:`~boneyard.server.bots_cli`)."""

from __future__ import annotations

import argparse
import asyncio
import errno
import importlib.util
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from boneyard.server.bots_cli import add_bot_commands
from boneyard.server.cluster import ClusterError
from boneyard.server.players_cli import add_players, on_database
from boneyard.server.settings import Settings, describe, unknown_variables, variable
from boneyard.server.storage.backup import backup_database
from boneyard.server.storage.db import StorageError
from boneyard.server.storage.export import export_records, prune_records


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _run_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    flags = {"host": args.host, "port": args.port, "log_level": args.log_level, "db": args.db}
    flags |= {"cluster": args.cluster, "node": args.node}
    given = {k: v for k, v in flags.items() if v is not None}
    try:
        # Flags given override BONEYARD_* variables, which override the defaults.
        settings = Settings(**given)
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        where = f"--{name.replace('_', '-')}" if name in given else variable(name) if name else "settings"
        parser.error(f"invalid {where}: {first['msg']}")
    for warning in unknown_variables(os.environ):
        print(f"boneyard-server: warning: {warning}", file=sys.stderr)
    if settings.cluster is not None and importlib.util.find_spec("nats") is None:
        parser.error("--cluster needs nats-py: pip install 'boneyard[cluster]'")
    try:
        return _loop_runner(settings)(serve(settings))
    except StorageError as error:  # corrupt, locked by another server, from a newer version, ...
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    except ClusterError as error:
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # e.g. the port is taken
        where = f"{settings.host}:{settings.port}"
        print(f"boneyard-server: cannot serve on {where}: {_bind_trouble(error)}", file=sys.stderr)
        return 1


def _bind_trouble(error: OSError) -> str:
    """Why the server could not listen, in words and with what to do (not an errno)."""
    if isinstance(error, socket.gaierror):
        return "no such host (BONEYARD_HOST or --host: an address or a name of this machine)"
    if error.errno == errno.EADDRINUSE:
        return "the port is taken (another server on it?): choose another with --port or BONEYARD_PORT"
    if error.errno == errno.EACCES:
        return "not allowed to listen on that port (below 1024 needs privileges): choose another with --port"
    if error.errno == errno.EADDRNOTAVAIL:
        return "that address is not one of this machine's (BONEYARD_HOST or --host)"
    return error.strerror or str(error)


def _loop_runner(settings: Settings) -> Callable[[Coroutine[Any, Any, int]], int]:
    """``uvloop.run`` if asked for and installed, else ``asyncio.run``."""
    if settings.uvloop:
        try:
            import uvloop
        except ImportError:  # not installed (no wheel for this platform): the standard loop
            pass
        else:
            return uvloop.run
    return asyncio.run


async def serve(settings: Settings) -> int:
    """Run a server until SIGTERM or SIGINT, then stop it gracefully (clients see 1012) and return 0."""
    # Imported here so that ``simulate`` does not load websockets, prometheus and the whole server.
    from boneyard.server.app import BoneyardServer
    from boneyard.server.logs import configure

    configure(settings.log_level, settings.log_format)
    server = BoneyardServer(settings)
    await server.start()
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []
    for signum in (signal.SIGTERM, signal.SIGINT):  # before "serving": a SIGTERM right after it is graceful
        loop.add_signal_handler(signum, lambda: stopping.append(loop.create_task(server.stop())))
    print(f"boneyard: serving ws://{settings.host}:{server.port}", flush=True)
    logging.getLogger("boneyard.server").info(
        "event loop: %s", "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
    )
    await server.serve_forever()
    if server.failed is not None:
        print(f"boneyard-server: stopped, the database failed: {server.failed}", file=sys.stderr)
        return 1
    return 0


def _run_export(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return on_database(args, lambda path: export_records(path, sys.stdout, args.game))


def _days(value: str) -> float:
    """A number of days, 0 to 999999 (``nan`` and ``inf`` are not)."""
    try:
        days = float(value)
    except ValueError:
        days = -1.0
    if not 0 <= days < 1e6:
        raise argparse.ArgumentTypeError(f"{value!r}: a number of days, 0 to 999999")
    return days


def _run_prune(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    path = args.db if args.db is not None else Settings().db
    before = time.time() - args.older_than * 86_400
    try:
        removed = prune_records(path, before)
    except StorageError as error:
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(before))
    print(f"boneyard-server: removed {removed} records of games finished before {when}", file=sys.stderr)
    return 0


def _run_backup(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    path = args.db if args.db is not None else Settings().db
    shown = _show_progress if sys.stderr.isatty() else None
    try:
        pages = backup_database(path, args.out, shown)
    except StorageError as error:
        if shown is not None:
            print(file=sys.stderr)  # after the progress line
        print(f"boneyard-server: {error}", file=sys.stderr)
        return 1
    if shown is not None:
        print(file=sys.stderr)
    size = args.out.stat().st_size
    print(f"boneyard-server: backed up {path} to {args.out} ({pages} pages, {size:,} bytes)", file=sys.stderr)
    return 0


def _show_progress(done: int, total: int) -> None:
    print(f"\rbacking up: {done * 100 // max(total, 1)}% ({done} of {total} pages)", end="", file=sys.stderr)


_DB_HELP = (
    "the SQLite database (default $XDG_DATA_HOME/boneyard/boneyard.db, else "
    "~/.local/share/boneyard/boneyard.db, made if missing; any other PATH's directory must exist; "
    "env BONEYARD_DB)"
)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="boneyard-server", description="Boneyard: a real-time game server for domino tables."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    srv = commands.add_parser(
        "serve",
        help="run the websocket game server until SIGTERM or SIGINT",
        description="Run the websocket game server until SIGTERM or SIGINT (then every client gets 1012).",
        epilog=describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    srv.add_argument("--host", help="address to listen on (default 127.0.0.1; env BONEYARD_HOST)")
    srv.add_argument("--port", type=int, help="port, 0 for any free one (default 8765; env BONEYARD_PORT)")
    srv.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        help="log level (default info; env BONEYARD_LOG_LEVEL)",
    )
    srv.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    srv.add_argument(
        "--cluster",
        metavar="URL",
        help="join a cluster on NATS JetStream at URL, e.g. nats://HOST:4222 (env BONEYARD_CLUSTER)",
    )
    srv.add_argument("--node", metavar="NAME", help="this node's name in the cluster (env BONEYARD_NODE)")
    srv.set_defaults(run=_run_serve)

    backup = commands.add_parser(
        "backup",
        help="copy the database, also while a server runs on it (SQLite's online backup)",
        description="Copy the database to OUT, a new file: a consistent snapshot, taken while a server may "
        "be running on the database (it neither waits nor is stopped). Restore: stop the server, put the "
        "copy in place of PATH (and remove PATH-wal and PATH-shm), start it.",
    )
    backup.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    backup.add_argument("out", type=Path, metavar="OUT", help="the copy (must not exist yet)")
    backup.set_defaults(run=_run_backup)

    records = commands.add_parser("records", help="finished games' records in the database")
    actions = records.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=_Parser)
    export = actions.add_parser("export", help="write the stored records as JSON Lines to standard output")
    export.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    export.add_argument("--game", metavar="ID", help="only the game with this record id (as in game_over)")
    export.set_defaults(run=_run_export)
    prune = actions.add_parser(
        "prune", help="remove the records of games finished more than DAYS days ago (export them first)"
    )
    prune.add_argument("--db", type=Path, metavar="PATH", help=_DB_HELP)
    prune.add_argument(
        "--older-than", type=_days, required=True, metavar="DAYS", help="days since the game finished"
    )
    prune.set_defaults(run=_run_prune)

    add_players(commands, _DB_HELP)

    add_bot_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args, parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
