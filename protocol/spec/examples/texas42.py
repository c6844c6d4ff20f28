"""Examples: a Texas 42 table, its snapshot and its own events (docs/RULES.md worked example 31: a nello
hand, seat 3 bidding 42, seat 1 sitting out)."""

from __future__ import annotations

from boneyard.protocol.spec.examples.base import Data, Example, command, play, seat_info, server, tiles
from boneyard.protocol.spec.examples.play import event

TEXAS42_TABLE: Data = {
    "table_id": "t4n8",
    "game": "texas42",
    "seats": [
        seat_info(0, "ana"),
        seat_info(1, "bot-1", bot=True, level="strong"),
        seat_info(2, "li"),
        seat_info(3, "bot-3", bot=True, level="strong"),
    ],
    "status": "playing",
    "turn_seconds": 30,
    "spectators": 0,
    "rematch": [],
    "bot_delay_ms": None,
    "record_id": None,
    "private": False,
    "open_bot_seats": False,
    "rated": False,
    "hand_pause_ms": None,
    "options": {"all_pass": "force_last", "nello": True, "target": 7},
}
TEXAS42_VIEW: Data = {
    "game": "texas42",
    "viewer": 2,
    "hand_number": 0,
    "phase": "playing",
    "hand": tiles("44 43 42 41 40 33 32"),
    "tile_counts": [6, 7, 7, 6],
    "first": 3,
    "bids": ["pass", "pass", "pass", 42],
    "high_bidder": 3,
    "high_bid": 42,
    "trump": "nello",
    "out": 1,
    "trick": [[3, [0, 0]], [0, [6, 6]]],
    "leader": 3,
    "played": [],
    "tricks": [0, 0, 0, 0],
    "points": [0, 0],
    "scores": [0, 0],
    "target": 7,
    "to_move": 2,
    "legal_actions": [play([3, 3]), play([4, 4])],
    "winner": None,
}

TEXAS42_EXAMPLES: tuple[Example, ...] = (
    command(
        "`create_table`, Texas 42 with nello, three bots",
        type="create_table",
        id=6,
        game="texas42",
        bots=[1, 2, 3],
        bot_levels=["strong", "good", "strong"],
        seat=0,
        options={"nello": True},
    ),
    server(
        "`snapshot` of a Texas 42 nello hand, as li (seat 2) sees it",
        type="snapshot",
        seq=9,
        reply_to=None,
        table=TEXAS42_TABLE,
        view=TEXAS42_VIEW,
        time_left_ms=30000,
        pause=None,
        chat=[],
    ),
    event(40, "texas42", {"type": "bid_made", "seat": 3, "bid": 42}, table_id="t4n8"),
    event(41, "texas42", {"type": "trump_named", "seat": 3, "trump": "nello", "out": 1}, table_id="t4n8"),
    event(
        44,
        "texas42",
        {
            "type": "trick_won",
            "seat": 0,
            "tiles": [[0, 0], [6, 6], [3, 3]],
            "leader": 3,
            "points": [1, 0],
            "tricks": [1, 0, 0, 0],
        },
        table_id="t4n8",
    ),
    event(
        70,
        "texas42",
        {
            "type": "hand_scored",
            "bidder": 3,
            "bid": 42,
            "trump": "nello",
            "made": True,
            "points": [42, 0],
            "marks": [0, 1],
            "scores": [2, 5],
        },
        table_id="t4n8",
    ),
)
