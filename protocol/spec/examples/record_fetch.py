"""Examples: fetching records, with a whole (short) game of each kind."""

from __future__ import annotations

from typing import Any

from boneyard.protocol.spec.examples.base import BOT_HAND, LI_HAND, SIXES, Example, command, server, tiles


def moon_record() -> dict[str, Any]:
    # ana leads her six trumps, then [5-5]; the others follow as they must (docs/RULES.md M9).
    bot_order = [[4, 4], [4, 3], [4, 2], [5, 1], [5, 2], [5, 3], [5, 4]]
    actions: list[dict[str, Any]] = [
        {"seat": 0, "type": "bid", "bid": 21},
        {"seat": 0, "type": "discard", "tile": [0, 0]},
        {"seat": 0, "type": "trump", "trump": 6},
    ]
    for lead, bot_tile, li_tile in zip(SIXES, bot_order, LI_HAND, strict=True):
        actions += [
            {"seat": 0, "type": "play", "tile": lead},
            {"seat": 1, "type": "play", "tile": bot_tile},
            # li timed out on the last trick: the server played for her.
            {"seat": 2, **({"auto": True} if li_tile == [1, 1] else {}), "type": "play", "tile": li_tile},
        ]
    return {
        "format": "boneyard-record/1",
        "game": "moon",
        "players": 3,
        "options": {"all_pass": "redeal", "target": 21},
        "seat_names": ["ana", "bot-1", "li"],
        "hands": [
            {
                "deal": [SIXES, BOT_HAND, LI_HAND],
                "widow": [0, 0],
                "first": 0,
                "actions": actions,
                "scores": [21, 0, 0],
            }
        ],
        "final_scores": [21, 0, 0],
        "winner": 0,
    }


STRAIGHT_RECORD = {
    # Target 10: the opening [5-5] scores 10 and ends the game at once (docs/RULES.md S4, S13).
    "format": "boneyard-record/1",
    "game": "straight",
    "players": 2,
    "options": {"players": 2, "partnerships": False, "target": 10},
    "hands": [
        {
            "deal": [
                [[5, 5], [6, 1], [4, 0], [3, 3], [2, 1], [6, 6], [1, 0]],
                [[5, 2], [4, 4], [6, 3], [3, 0], [5, 4], [2, 2], [1, 1]],
            ],
            "boneyard": tiles("65 64 62 60 53 51 50 43 42 41 32 31 20 00"),
            "first": 0,
            "actions": [{"seat": 0, "type": "play", "tile": [5, 5], "end": None}],
            "scores": [10, 0],
        }
    ],
    "final_scores": [10, 0],
    "winner": 0,
}

RECORD_EXAMPLES: tuple[Example, ...] = (
    command("`get_record`", type="get_record", id=18, record_id="g8d1"),
    server(
        "`record` of a Moon game", type="record", seq=92, reply_to=18, record_id="g8d1", record=moon_record()
    ),
    server(
        "`record` of a Straight game",
        type="record",
        seq=12,
        reply_to=19,
        record_id="g2x7",
        record=STRAIGHT_RECORD,
    ),
)
