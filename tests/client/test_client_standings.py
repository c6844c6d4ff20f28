"""How the client words leaderboards and the lobby's seekers (pure functions over protocol models)."""

from __future__ import annotations

from boneyard.clients.cli.core.mirror import Mirror
from boneyard.clients.cli.standings import leaderboard_lines
from boneyard.clients.cli.ui.describe import message_line
from boneyard.protocol import decode_server_message, encode
from boneyard.protocol.ratings import Leaderboard
from boneyard.protocol.seeks import Seeks


def text(fragments: object) -> str:
    assert isinstance(fragments, list)
    return "".join(part for _, part in fragments)


def test_the_lobby_says_how_many_seek_what() -> None:
    seeks = Seeks.model_validate(
        {"type": "seeks", "seq": 3, "seeking": [{"kind": "moon", "rated": True, "players": 2},
                                                 {"kind": "straight-2", "rated": False, "players": 1}]}
    )  # fmt: skip
    message = decode_server_message(encode(seeks))
    assert text(message_line(Mirror(), message)) == "2 seeking moon (rated), 1 seeking straight-2"
    nobody = Seeks(type="seeks", seq=4, seeking=())
    assert text(message_line(Mirror(), nobody)) == "nobody seeking a game"


def test_a_leaderboard_page() -> None:
    board = Leaderboard.model_validate(
        {"type": "leaderboard", "seq": 5, "kind": "moon", "total": 21, "entries": [
            {"rank": 21, "player": "bot-good", "rating": 1614, "deviation": 238, "games": 36}]}
    )  # fmt: skip
    assert leaderboard_lines(board) == [
        "moon: 21 established players",
        "   21. bot-good                  1614 (±238)  36 games",
    ]
