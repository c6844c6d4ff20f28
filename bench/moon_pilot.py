"""Pilot a variant of Moon ``strong``: the arena with ``strong`` built from the given parameters.

A variant is a set of :class:`~boneyard.server.games.moon.search.MoonSearchBot` parameters over the
registered ``strong``'s; the arena runs in this process (``--jobs 1``: the variant replaces
``strong`` here only, worker processes would play the registered one). Run pilots under
``nice -n 19``: they are long, and the arena's times are CPU time.

    nice -n 19 python bench/moon_pilot.py --params '{"grand_trust": 2.0}' --against good --games 60 --seed 11
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from boneyard.server.arena import report, run_arena
from boneyard.server.games.moon import search
from boneyard.server.games.registry import game_spec


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", default="{}", help="JSON: MoonSearchBot parameters over strong's")
    parser.add_argument("--against", default="good", choices=("basic", "good"))
    parser.add_argument("--games", type=int, default=60, help="duplicate games (default 60)")
    parser.add_argument("--seed", type=int, default=11, help="default 11 (the aims use 2026)")
    parser.add_argument("--save", metavar="FILE", help="as the arena's --save")
    args = parser.parse_args()
    params = {**vars(search.STRONG), **json.loads(args.params)}
    variant = search.MoonSearchBot(**params)
    game_spec("moon").searchers["strong"] = variant.choose  # type: ignore[index]
    result = run_arena(
        "moon",
        ("strong", args.against, args.against),
        games=args.games,
        seed=args.seed,
        progress=sys.stderr.isatty(),
        save=None if args.save is None else Path(args.save),
    )
    print(json.dumps(params, sort_keys=True))
    print(report(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
