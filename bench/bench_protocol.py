"""Encode and decode+validate timings for typical messages: ``python bench/bench_protocol.py``.

Prints microseconds per call (the best of several timing runs) for a few messages, from a
one-line ``ping`` to a whole game's ``record``. The goal is under 10 µs for a typical event.
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boneyard.protocol import decode_command, decode_server_message, encode
from boneyard.protocol.spec.examples import ALL_EXAMPLES

CASES = (
    "`ping`",
    "`act`: play",
    "moon `tile_played`",
    "straight `tile_played`",
    "moon `hand_dealt`",
    "`turn`, to the seat to move",
    "`table_updated`",
    "`snapshot` of a Moon game, as li (seat 2) sees it",
    "`record` of a Moon game",
)


def per_call_us(function: Callable[[], object]) -> float:
    """Microseconds per call: the best of 5 runs of enough calls to take about 0.2 s."""
    number, _ = timeit.Timer(function).autorange()
    return min(timeit.repeat(function, number=number, repeat=5)) / number * 1e6


def main() -> None:
    """Time every case and print a table."""
    examples = {e.title: e for e in ALL_EXAMPLES}
    print(f"{'message':52} {'bytes':>6} {'encode µs':>10} {'decode+validate µs':>19}")
    for title in CASES:
        example = examples[title]
        model = example.model
        frame = encode(model)
        decode = decode_command if example.direction == "command" else decode_server_message
        assert decode(frame) == model
        encode_us = per_call_us(partial(encode, model))
        decode_us = per_call_us(partial(decode, frame))
        print(f"{title.replace('`', ''):52} {len(frame):6} {encode_us:10.2f} {decode_us:19.2f}")


if __name__ == "__main__":
    main()
