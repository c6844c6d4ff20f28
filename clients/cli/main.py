"""``boneyard``: the reference terminal client (``connect``, ``play``, ``replay``, ``verify``,
``account``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any, NoReturn

from pydantic import TypeAdapter, ValidationError

from boneyard.clients.cli import account, standings
from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.games import load_games
from boneyard.clients.cli.core.identity import SavedSeats, saved_signer
from boneyard.clients.cli.core.session import Client
from boneyard.clients.cli.core.transport import CannotConnect
from boneyard.clients.cli.ui.app import LineUI
from boneyard.clients.cli.ui.controller import Controller
from boneyard.clients.cli.ui.options import OptionError, check_options, game_named, option_value, players_of
from boneyard.protocol import Identify
from boneyard.protocol.values import BotDelayMs, TurnSeconds


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _words(error: ValidationError) -> str:
    """A protocol model's first complaint as words, e.g. ``input should be greater than or equal to 1``."""
    message = str(error.errors(include_url=False)[0]["msg"]).removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


def _name(value: str) -> str:
    """The name as ``identify`` takes it (the protocol's rule: length, characters, ``bot-`` reserved)."""
    try:
        Identify(type="identify", name=value)
    except ValidationError as error:
        raise argparse.ArgumentTypeError(f"{value!r}: {_words(error)}") from None
    return value


_TURN_SECONDS: TypeAdapter[int] = TypeAdapter(TurnSeconds)
_BOT_DELAY_MS: TypeAdapter[int] = TypeAdapter(BotDelayMs)


def _number(adapter: TypeAdapter[int], value: str) -> int:
    """A whole number the protocol's own type accepts."""
    try:
        return adapter.validate_python(int(value))
    except ValueError as error:  # not a number, or out of the protocol's bounds (ValidationError)
        words = _words(error) if isinstance(error, ValidationError) else "not a whole number"
        raise argparse.ArgumentTypeError(f"{value!r}: {words}") from None


def _turn(value: str) -> int | None:
    return None if value in ("none", "0") else _number(_TURN_SECONDS, value)


def _bot_delay(value: str) -> int:
    return _number(_BOT_DELAY_MS, value)


def _pause(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError("a number of seconds, e.g. 4 (0: no pause)") from None
    if not 0 <= seconds <= 60:
        raise argparse.ArgumentTypeError("0 to 60 seconds")
    return seconds


def _default_name() -> str:
    with contextlib.suppress(Exception):  # no user name, or one the protocol refuses
        return _name(getpass.getuser()[:32])
    return "player"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boneyard", description="Play dominoes on a Boneyard server from the terminal.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--name", type=_name, default=_default_name(), help="your display name")
        p.add_argument(
            "--guest", action="store_true", help="do not sign in to your account (`boneyard account`)"
        )
        p.add_argument("--auto", action="store_true", help="let the basic bot play your seat")
        p.add_argument("--json", action="store_true", help="print every server message as a JSON line")
        p.add_argument("--no-color", action="store_true", help="plain text, no colour (also NO_COLOR=1)")
        p.add_argument("--line", action="store_true", help="plain line mode (scripts, screen readers)")
        p.add_argument("--no-bell", action="store_true", help="no bell on your turn or when time runs low")
        p.add_argument(
            "--pause", type=_pause, default=4.0, metavar="SECONDS",
            help="how long a hand's result stays up where the server does not pause between hands (0: not"
            " shown, and ready at once); where it does, the server's countdown shows and Space says ready",
        )  # fmt: skip

    connect = sub.add_parser("connect", help="the lobby of a server: create, join, watch tables")
    connect.add_argument("url", help="the server, e.g. ws://localhost:8765/")
    common(connect)

    play = sub.add_parser("play", help="one command to a game against bots")
    play.add_argument("game", choices=list(load_games()))
    play.add_argument("--server", metavar="URL", help="play there (default: start a local server)")
    play.add_argument("--players", type=int, help="straight: 2, 3 or 4 seats (default 4)")
    teams = play.add_mutually_exclusive_group()
    teams.add_argument(
        "--partnerships", action="store_true", default=None,
        help="straight with 4 players: 0+2 against 1+3 (the default with 4, as in the rule book)",
    )  # fmt: skip
    teams.add_argument(
        "--no-partnerships", dest="partnerships", action="store_false", help="4 players, each alone"
    )
    play.add_argument(
        "--target", type=int, metavar="POINTS", help="points to win (moon 21, straight 250; texas42: 7 marks)"
    )
    play.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", type=_option,
        help="any other option of the game, e.g. nello=on or all_pass=redeal (texas42)",
    )  # fmt: skip
    play.add_argument("--turn", type=_turn, default=60, metavar="SECONDS", help="turn time, or none")
    play.add_argument(
        "--bot-delay", type=_bot_delay, metavar="MS", help="milliseconds before each bot move (0..10000)"
    )
    play.add_argument(
        "--rated", action="store_true", help="a rated game (with --server, signed in: `boneyard account`)"
    )
    play.add_argument(
        "--bots",
        choices=["basic", "good", "strong"],
        help="how well the bots play (default: the server's basic)",
    )
    common(play)
    play.set_defaults(usage_error=play.error)  # options that do not fit the game: `boneyard play: error: ...`

    replay = sub.add_parser("replay", help="step through a finished game's record")
    replay.add_argument("record", help="a boneyard-record/1 JSON file (one record, an array, or JSON Lines)")
    replay.add_argument("--game", type=int, default=1, help="which record in the file (from 1)")
    replay.add_argument("--all", action="store_true", help="print every step at once, no pausing")
    replay.add_argument("--no-color", action="store_true", help="plain text, no colour")
    replay.add_argument(
        "--line", action="store_true", help="a step per Enter as lines of text, not full screen"
    )

    account.add_parser(sub)
    standings.add_parsers(sub)

    verify = sub.add_parser("verify", help="check a saved record's deals against its seeds (fair deals)")
    verify.add_argument("record", help="a boneyard-record/1 JSON file (one record, an array, or JSON Lines)")
    return parser


def _colour(args: argparse.Namespace) -> bool:
    return not args.no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: write an option as KEY=VALUE, e.g. nello=on")
    return key.strip().lower(), option_value(value)


def play_options(args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """The table options ``play`` asks for, and the number of seats; ValueError, in words and naming the
    flag, if they do not fit (the game's options model in the protocol is the check)."""
    game = game_named(args.game)
    options: dict[str, Any] = dict(args.option)
    flags = {"target": args.target, "players": args.players, "partnerships": args.partnerships}
    options |= {key: value for key, value in flags.items() if value is not None}
    options = game.complete_options(options)
    try:
        checked = check_options(args.game, options)
    except OptionError as error:
        said = (
            f"argument --{error.field.replace('_', '-')}: {error.words}"
            if error.field in flags
            else str(error)
        )
        raise ValueError(said) from None
    return options, players_of(checked)


@contextlib.asynccontextmanager
async def local_server() -> AsyncIterator[str]:
    """A server in this process on a free loopback port (the only place the client imports ``server``)."""
    from boneyard.server.app import BoneyardServer
    from boneyard.server.settings import Settings

    # BONEYARD_* environment variables still apply to everything not set here.
    settings: dict[str, Any] = {"host": "127.0.0.1", "port": 0, "log_level": "warning", "durable": False}
    async with BoneyardServer(Settings(**settings)) as server:
        yield f"ws://127.0.0.1:{server.port}/"


def full_screen(args: argparse.Namespace) -> bool:
    """The full-screen table when both ends are a terminal; line mode for scripts, pipes, --line, --json."""
    return not (args.line or args.json) and sys.stdin.isatty() and sys.stdout.isatty()


async def _session(
    url: str, args: argparse.Namespace, table: dict[str, Any] | None = None, *, local: bool = False
) -> int:
    # A local server is new and knows no account: its player is a guest, and nothing to come back to.
    signer = None if args.guest or local else saved_signer()
    seats = None if local else SavedSeats(url)
    client = Client(
        url,
        args.name,
        signer=signer,
        token=seats.token() if seats else None,
        on_token=seats.keep if seats else None,
    )
    try:
        await client.connect()
    except (OSError, CommandError) as error:
        hint = " (--guest to play without your account)" if signer is not None else ""
        said = str(error) if isinstance(error, CannotConnect) else f"cannot connect to {url}: {error}"
        print(f"boneyard: {said}{hint}", file=sys.stderr)
        return 1
    if full_screen(args):
        from boneyard.clients.cli.tui.app import BoneyardApp

        async def create(app: BoneyardApp) -> None:
            await _begin(app.controller, table)

        app = BoneyardApp(
            client,
            startup=create,
            auto=args.auto,
            colour=_colour(args),
            bell=not args.no_bell,
            pause=args.pause,
        )
        return deals_checked(client, await app.run_session())

    async def startup(ui: LineUI) -> None:
        if not await _begin(ui.controller, table):
            # `connect` opens on the lobby: every table now; changes then print as they happen
            await ui.execute("tables")

    ui = LineUI(
        client, auto=args.auto, json_mode=args.json, colour=_colour(args), exit_on_game_over=args.auto
    )
    return deals_checked(client, await ui.run(startup))


DEALS_NOT_VERIFIED = 3
"""The exit status of a session that went well but saw a game whose deals did not verify."""


def deals_checked(client: Client, code: int) -> int:
    """``code``, or :data:`DEALS_NOT_VERIFIED` (said on standard error) when it is 0 and the deals of a
    game this client checked were NOT verified (the check's words were shown when the seeds came)."""
    unverified = client.mirror.unverified
    if code != 0 or not unverified:
        return code
    for (table_id, game), verdict in unverified.items():
        print(f"boneyard: table {table_id}, game {game}: {verdict.text()}", file=sys.stderr)
    return DEALS_NOT_VERIFIED


async def _begin(controller: Controller, table: dict[str, Any] | None) -> bool:
    """Back at the seats a crashed client left (the server gave them back), else at the table ``play``
    asks for; whether either."""
    welcome = controller.client.welcome
    if welcome is not None and welcome.resumed and welcome.seats:
        back = welcome.seats[0]
        controller.current = back.table_id
        controller.info(f"back at your game at {back.table_id}, seat {back.seat}")
        return True
    if table is not None:
        await controller.create(table)
        return True
    return False


async def _play(args: argparse.Namespace) -> int:
    options, players = play_options(args)
    table = {"game": args.game, "options": options, "bots": list(range(1, players)),
             "turn_seconds": args.turn, "seat": 0}  # fmt: skip
    if args.bot_delay is not None:
        table["bot_delay_ms"] = args.bot_delay
    if args.bots:
        table["bot_levels"] = [args.bots] * (players - 1)
    if args.rated:
        table["rated"] = True
    if args.server:
        return await _session(args.server, args, table)
    async with local_server() as url:
        return await _session(url, args, table, local=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "replay":
            from boneyard.clients.cli.replay import run_replay

            whole = not (args.all or args.line) and sys.stdin.isatty() and sys.stdout.isatty()
            return run_replay(
                args.record, game=args.game, all_steps=args.all, colour=_colour(args), full_screen=whole
            )
        if args.command == "account":
            return asyncio.run(account.run(args))
        if args.command in ("profile", "leaderboard"):
            return asyncio.run(standings.run(args))
        if args.command == "verify":
            from boneyard.clients.cli.verify import run_verify

            return run_verify(args.record)
        if args.command == "play":
            try:
                play_options(args)
            except ValueError as error:
                args.usage_error(str(error))
            return asyncio.run(_play(args))
        return asyncio.run(_session(args.url, args))
    except KeyboardInterrupt:  # Ctrl-C outside the prompt (e.g. while connecting)
        return 130
    except BrokenPipeError:  # `boneyard replay game.json --all | head`: the reader left, nothing to say
        return 0


if __name__ == "__main__":
    sys.exit(main())
