"""Examples: the pause between hands (feature ``hand_pause``)."""

from __future__ import annotations

from boneyard.protocol.spec.examples.base import Example, command, server

PAUSE_EXAMPLES: tuple[Example, ...] = (
    command(
        "`create_table`, a pause of 15 s between hands (feature `hand_pause`)",
        type="create_table",
        id=6,
        game="moon",
        bots=[1],
        hand_pause_ms=15000,
    ),
    server(
        "`hand_pause`, after hand 0: ana (seat 0) and li (seat 2) are to say they are ready",
        type="hand_pause",
        seq=91,
        table_id="t7k2",
        pause={"hand_number": 0, "time_left_ms": 10000, "ready": [], "waiting": [0, 2]},
    ),
    command("`ready`", type="ready", id=19, table_id="t7k2"),
    server(
        "`hand_pause`, li is ready",
        type="hand_pause",
        seq=93,
        table_id="t7k2",
        pause={"hand_number": 0, "time_left_ms": 7420, "ready": [2], "waiting": [0]},
    ),
)
