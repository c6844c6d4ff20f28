"""Examples: snapshots, turns, actions and the events of both games."""

from __future__ import annotations

from typing import Any

from boneyard.protocol.spec.examples.base import (
    LI_HAND,
    MOON_TABLE,
    SIXES,
    STRAIGHT_TABLE,
    Data,
    Example,
    command,
    play,
    seat_info,
    server,
    tiles,
)


def event(
    seq: int, game: str, event: dict[str, Any], table_id: str = "t7k2", *, auto: bool = False
) -> Example:
    """An ``event`` message; a private event with its tile hidden says so in its title."""
    title = f"{game} `{event['type']}`"
    if ("tile" in event and event["tile"] is None) or ("tiles" in event and event["tiles"] is None):
        title += " (as the other seats see it)"
    if auto:
        title += " (the server played for the seat)"
    return server(title, type="event", seq=seq, table_id=table_id, game=game, auto=auto, event=event)


def placed(tile: list[int], inner: int, outer: int) -> dict[str, Any]:
    """A ``PlacedTile``."""
    return {"tile": tile, "inner": inner, "outer": outer, "crosswise": tile[0] == tile[1]}


def act(command_id: int, action: dict[str, Any], table_id: str = "t7k2") -> Example:
    """An ``act`` command."""
    return command(f"`act`: {action['type']}", type="act", id=command_id, table_id=table_id, action=action)


LI_LEGAL = [play(t) for t in LI_HAND]

MOON_VIEW: Data = {
    "game": "moon",
    "viewer": 2,
    "hand_number": 0,
    "phase": "playing",
    "hand": LI_HAND,
    "tile_counts": [6, 6, 7],
    "first": 0,
    "bids": [21, None, None],
    "high_bidder": 0,
    "high_bid": 21,
    "trump": 6,
    "trick": [[0, [6, 6]], [1, [4, 4]]],
    "leader": 0,
    "played": [],
    "tricks": [0, 0, 0],
    "scores": [0, 0, 0],
    "target": 21,
    "to_move": 2,
    "legal_actions": LI_LEGAL,
    "discard": None,
    "winner": None,
}
STRAIGHT_VIEW: Data = {
    # docs/RULES.md example 17, 4 players: [6-4] opens, [4-4] right (the spinner), [4-1] right, [4-3] up.
    "game": "straight",
    "viewer": 1,
    "hand_number": 0,
    "players": 4,
    "partnerships": True,
    "target": 250,
    "hand": tiles("66 61 53 33 20 10"),
    "tile_counts": [6, 6, 6, 6],
    "boneyard": 0,
    "layout": {
        "opening": [6, 4],
        "spinner": [4, 4],
        "spinner_arm": "right",
        "spinner_index": 0,
        "arms": {
            "left": [],
            "right": [placed([4, 4], 4, 4), placed([4, 1], 4, 1)],
            "up": [placed([4, 3], 4, 3)],
            "down": [],
        },
        "open_ends": {"left": 6, "right": 1, "up": 3, "down": 4},
        "count": 10,
    },
    "count": 10,
    "scores": [10, 10],
    "leader": 1,
    "to_move": 1,
    "legal_actions": [
        play([6, 6], "left"),
        play([6, 1], "left"),
        play([6, 1], "right"),
        play([5, 3], "up"),
        play([3, 3], "up"),
        play([1, 0], "right"),
    ],
    "is_over": False,
    "winner": None,
}

PLAY_EXAMPLES: tuple[Example, ...] = (
    server(
        "`snapshot` of a Moon game, as li (seat 2) sees it",
        type="snapshot",
        seq=6,
        reply_to=None,
        table=MOON_TABLE,
        view=MOON_VIEW,
        time_left_ms=30000,
        pause=None,
        chat=[
            {"seat": 0, "name": "ana", "text": "good luck, both"},
            {"seat": None, "name": "wes", "text": "watching: go li!"},
        ],
    ),
    server(
        "`snapshot` of a Straight game, as ana (seat 1) sees it",
        type="snapshot",
        seq=6,
        reply_to=7,
        table={
            **STRAIGHT_TABLE,
            "status": "playing",
            "seats": [*STRAIGHT_TABLE["seats"][:3], seat_info(3, "kim")],
        },
        view=STRAIGHT_VIEW,
        time_left_ms=41250,
        pause=None,
        chat=[],
    ),
    server(
        "`snapshot` of a table waiting for players",
        type="snapshot",
        seq=6,
        reply_to=7,
        table=STRAIGHT_TABLE,
        view=None,
        time_left_ms=None,
        pause=None,
        chat=[],
    ),
    server(
        "`turn`, to the seat to move",
        type="turn",
        seq=21,
        table_id="t7k2",
        seat=2,
        time_left_ms=30000,
        legal_actions=LI_LEGAL,
    ),
    server(
        "`turn`, to everyone else",
        type="turn",
        seq=21,
        table_id="t7k2",
        seat=2,
        time_left_ms=30000,
        legal_actions=[],
    ),
    server(
        "moon `passed` carrying the next `turn` and the `ok` (feature `turn_in_event`, to the actor)",
        type="event",
        seq=40,
        table_id="t7k2",
        game="moon",
        auto=False,
        event={"type": "passed", "seat": 1},
        turn={"seat": 2, "time_left_ms": 30000, "legal_actions": []},
        reply_to=12,
    ),
    server(
        "moon `tile_played` carrying the next `turn` (feature `turn_in_event`, to the seat to move)",
        type="event",
        seq=41,
        table_id="t7k2",
        game="moon",
        auto=False,
        event={"type": "tile_played", "seat": 1, "tile": [6, 5]},
        turn={"seat": 2, "time_left_ms": 30000, "legal_actions": [play([6, 4]), play([6, 2])]},
    ),
    act(11, {"type": "bid", "bid": 21}),
    act(12, {"type": "pass"}),
    act(13, {"type": "discard", "tile": [0, 0]}),
    act(14, {"type": "trump", "trump": 6}),
    act(15, play([6, 6])),
    act(16, play([6, 1], "right"), table_id="t3q9"),
    act(17, {"type": "draw"}, table_id="t5m1"),
    # Moon events, in the order of the game.
    event(
        13, "moon", {"type": "hand_started", "hand": 0, "first": 0, "tile_counts": [7, 7, 7], "boneyard": 0}
    ),
    event(14, "moon", {"type": "hand_dealt", "seat": 0, "tiles": SIXES}),
    event(14, "moon", {"type": "hand_dealt", "seat": 0, "tiles": None}),
    event(15, "moon", {"type": "bid_made", "seat": 0, "bid": 21}),
    event(16, "moon", {"type": "widow_taken", "seat": 0, "tile": [0, 0]}),
    event(16, "moon", {"type": "widow_taken", "seat": 0, "tile": None}),
    event(17, "moon", {"type": "discarded", "seat": 0, "tile": [0, 0]}),
    event(17, "moon", {"type": "discarded", "seat": 0, "tile": None}),
    event(18, "moon", {"type": "trump_named", "seat": 0, "trump": 6}),
    event(19, "moon", {"type": "tile_played", "seat": 0, "tile": [6, 6]}),
    event(
        22,
        "moon",
        {"type": "trick_won", "seat": 0, "tiles": [[6, 6], [4, 4], [4, 1]], "leader": 0, "tricks": [1, 0, 0]},
    ),
    event(
        90,
        "moon",
        {
            "type": "hand_scored",
            "bidder": 0,
            "bid": 21,
            "tricks": [7, 0, 0],
            "points": [21, 0, 0],
            "scores": [21, 0, 0],
        },
    ),
    event(91, "moon", {"type": "game_over", "winner": 0, "scores": [21, 0, 0], "record_id": "g8d1"}),
    event(15, "moon", {"type": "passed", "seat": 1}, table_id="t9b4", auto=True),
    event(17, "moon", {"type": "hand_thrown_in", "hand": 3}, table_id="t9b4"),
    # Straight events (a 2-player table, t5m1).
    event(
        3,
        "straight",
        {"type": "hand_started", "hand": 0, "first": 0, "tile_counts": [7, 7], "boneyard": 14},
        table_id="t5m1",
    ),
    event(
        4,
        "straight",
        {"type": "hand_dealt", "seat": 1, "tiles": [[5, 2], [4, 4], [6, 3], [3, 0], [5, 4], [2, 2], [1, 1]]},
        table_id="t5m1",
    ),
    event(
        5,
        "straight",
        {
            "type": "tile_played",
            "seat": 0,
            "tile": [6, 4],
            "end": None,
            "count": 10,
            "points": 10,
            "scores": [10, 0],
        },
        table_id="t5m1",
    ),
    event(
        6,
        "straight",
        {
            "type": "tile_played",
            "seat": 1,
            "tile": [4, 4],
            "end": "right",
            "count": 14,
            "points": 0,
            "scores": [10, 0],
        },
        table_id="t5m1",
    ),
    event(7, "straight", {"type": "tile_drawn", "seat": 0, "tile": [2, 0], "boneyard": 13}, table_id="t5m1"),
    event(7, "straight", {"type": "tile_drawn", "seat": 0, "tile": None, "boneyard": 13}, table_id="t5m1"),
    event(30, "straight", {"type": "passed", "seat": 1}, table_id="t5m1"),
    event(41, "straight", {"type": "domino", "seat": 0}, table_id="t5m1"),
    event(52, "straight", {"type": "blocked"}, table_id="t5m1"),
    event(
        42,
        "straight",
        {
            "type": "hand_scored",
            "winner": 0,
            "points": [15, 0],
            "pips": [0, 13],
            "hands": [[], [[6, 5], [2, 0]]],
            "scores": [85, 40],
            "winners": [0],
        },
        table_id="t5m1",
    ),
    event(
        99,
        "straight",
        {"type": "game_over", "winner": 0, "scores": [255, 120], "record_id": None},
        table_id="t5m1",
    ),
)
