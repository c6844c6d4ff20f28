"""``boneyard-server simulate`` and ``arena``: bots playing in-process, for records and for measures of
strength (``--option NAME=VALUE``, any option of the game's model, in both)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from boneyard.protocol.values import option_refusal
from boneyard.protocol.wiregames import wire_game
from boneyard.server.games.registry import GAMES, game_spec
from boneyard.server.simulate import simulate, write_records

_TARGET_HELP = "points to win (default: moon 21, straight 250; texas42: marks, 7)"


def _simulate_options(args: argparse.Namespace) -> dict[str, object]:
    """The table options the simulate flags ask for, checked by the game's options model (its messages);
    ValueError when they do not fit the game."""
    model = wire_game(args.game).options
    given: dict[str, object] = {
        name: value
        for name, value in (
            ("players", args.players),
            ("partnerships", args.partnerships),
            ("all_pass", args.all_pass),
            ("nello", True if args.nello else None),
            ("target", args.target),
        )
        if value is not None
    }
    fixed = model.fixed_players()
    if fixed is not None and given.pop("players", fixed) != fixed:
        raise ValueError(f"{args.game} is played by exactly {fixed} players")
    try:
        model.model_validate(given)
    except ValidationError as error:
        name, words = option_refusal(model, error, args.game)
        if name and name not in model.model_fields:  # a flag of another game's option
            raise ValueError(f"--{name.replace('_', '-')} is not a {args.game} option") from None
        raise ValueError(words) from None
    return given


def _run_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    spec = game_spec(args.game)
    if args.games < 0:
        parser.error("--games must be 0 or more")
    try:
        options = spec.options_from_dict({**_simulate_options(args), **dict(args.option)})
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    records = simulate(spec, options, args.games, args.seed)
    if args.out is None:
        write_records(records, sys.stdout, args.games, progress=sys.stderr.isatty())
        return 0
    try:
        out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - closed below, after the error check
    except OSError as error:
        parser.error(f"cannot write {args.out}: {error.strerror}")
    with out:
        count = write_records(records, out, args.games, progress=sys.stderr.isatty())
    print(f"wrote {count} {args.game} game records to {args.out}", file=sys.stderr)
    return 0


def _option(text: str) -> tuple[str, object]:
    """``NAME=VALUE``, the value as JSON reads it (``true``, ``3``) or else as text (``redeal``)."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    try:
        parsed: object = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return name, parsed


def _add_option_flag(parser: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``: any option of the game's options model, a new one included."""
    parser.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of the game, as create_table takes it (e.g. nello=true, all_pass=redeal); "
        "repeat for more",
    )


def _run_arena(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from boneyard.server.arena import report, run_arena
    from boneyard.server.arenafile import SaveMismatch

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = dict(args.option)
    fixed = game_spec(args.game).fixed_players
    if args.players is not None and args.players != fixed:
        if fixed is not None:
            parser.error(f"{args.game} is played by exactly {fixed} players")
        options["players"] = args.players
    players = options.get("players", fixed or len(bots))
    if not isinstance(players, int):
        parser.error(f"option players: {players!r} is not a number")
    if bots and players % len(bots) == 0:
        bots = bots * (players // len(bots))  # strong,basic for 4 players: strong,basic,strong,basic
    if len(bots) != players:
        parser.error(f"--bots gives {len(bots)} levels for {players} players")
    if args.games < 1:
        parser.error("--games must be 1 or more")
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    try:
        result = run_arena(
            args.game,
            bots,
            games=args.games,
            seed=args.seed,
            options=options,
            partnerships=args.partnerships,
            target=args.target,
            jobs=args.jobs,
            progress=sys.stderr.isatty(),
            save=None if args.save is None else Path(args.save),
        )
    except SaveMismatch as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        parser.error(f"cannot use --save {args.save}: {error.strerror}")
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    if result.resumed:
        print(f"{parser.prog}: {result.resumed} duplicate games read from {args.save}", file=sys.stderr)
    print(report(result))
    return 0


def add_bot_commands(commands: argparse._SubParsersAction[Any]) -> None:
    """``simulate`` and ``arena``."""
    sim = commands.add_parser(
        "simulate", help="play bot games in-process and write their records as JSON Lines"
    )
    sim.add_argument("--game", required=True, choices=sorted(GAMES))
    sim.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    sim.add_argument(
        "--seed", type=int, default=0, help="the same seed always gives the same output (default 0)"
    )
    sim.add_argument("--players", type=int, help="straight: 2, 3 or 4 (default 4)")
    sim.add_argument(
        "--partnerships",
        action=argparse.BooleanOptionalAction,
        help="straight with 4 players: seats 0+2 against 1+3 (default on)",
    )
    sim.add_argument(
        "--all-pass",
        choices=("redeal", "force_last"),
        help="moon, texas42: when all pass (default: moon redeal, texas42 force_last)",
    )
    sim.add_argument("--nello", action="store_true", help="texas42: a mark bid may name nello (default off)")
    sim.add_argument("--target", type=int, help=_TARGET_HELP)
    _add_option_flag(sim)
    sim.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    sim.set_defaults(run=_run_simulate)

    arena = commands.add_parser(
        "arena", help="bot levels against each other on duplicate deals, with win rates and timings"
    )
    arena.add_argument("--game", required=True, choices=sorted(GAMES))
    arena.add_argument(
        "--bots",
        required=True,
        metavar="LEVELS",
        help="one level per seat, comma-separated: basic, good, strong (e.g. strong,basic,basic); "
        "a shorter list repeats to fill --players",
    )
    arena.add_argument("--players", type=int, choices=(2, 3, 4), help="straight: 2, 3 or 4")
    arena.add_argument(
        "--partnerships",
        action=argparse.BooleanOptionalAction,
        help="straight with 4 players: seats 0+2 against 1+3 (default on)",
    )
    _add_option_flag(arena)
    arena.add_argument("--games", type=int, default=100, help="duplicate games (default 100)")
    arena.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    arena.add_argument("--target", type=int, help=_TARGET_HELP)
    arena.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument(
        "--save",
        metavar="FILE",
        help="append each finished duplicate game to FILE; the same command again goes on from "
        "where FILE stops (and refuses a FILE made with other arguments, bots or code)",
    )
    arena.set_defaults(run=_run_arena)
