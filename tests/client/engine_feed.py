"""Test helper: play a game on a rules engine and produce the wire messages one seat would receive.

The mirror tests use this to check, message by message, that the client's mirror of a
table equals the engine's own view: the strongest check of "built only from protocol
events" that needs no server. (Tests may import ``server``; the client never does.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pydantic import TypeAdapter

from boneyard.protocol import SERVER_MESSAGE_ADAPTER, View, event_from_engine
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import GAMES

VIEW: TypeAdapter[Any] = TypeAdapter(View)


def wire_view(game: str, view: Any) -> Any:
    return VIEW.validate_python(view.as_dict() | {"game": game})


def comparable(view: Any) -> dict[str, Any]:
    """A view's fields as a mirror and its engine must agree on them (hands in any order)."""
    data: dict[str, Any] = view.model_dump()
    data["hand"] = sorted(data["hand"])  # the client sorts hands its own way
    return data


def table_info(game: str, engine: Any, options: dict[str, Any]) -> dict[str, Any]:
    n = engine.players
    opts = engine.options.as_dict()  # every option, defaults included, as a table listing has them
    seats = [{"seat": s, "name": f"p{s}", "bot": False, "connected": True, "auto": False} for s in range(n)]
    return {
        "table_id": "t1",
        "game": game,
        "seats": seats,
        "status": "playing",
        "turn_seconds": None,
        "spectators": 0,
        "rematch": [],
        "options": opts,
    }


WANTED: dict[str, list[dict[str, Any]]] = {
    "nello": [{"type": "bid", "bid": 42}, {"type": "trump", "trump": "nello"}],
}
"""Moves a feed plays whenever they are legal (``nello``: a mark bid, then nello), else the bot's."""


def feed(
    game: str, options: dict[str, Any], viewer: int | None, seed: int, wanted: str | None = None
) -> Iterator[tuple[Any, Any]]:
    """Yield ``(server message, engine view after it or None)`` for one whole game seen by ``viewer``.

    The view is given after each ``turn`` (the point where a mirror must equal a snapshot).
    """
    spec = GAMES[game]
    engine = spec.new_game(spec.options_from_dict(options), RandomDealer(seed))
    rng = random.Random(seed)
    seq = 0

    def message(data: dict[str, Any]) -> Any:
        nonlocal seq
        seq += 1
        return SERVER_MESSAGE_ADAPTER.validate_python(data | {"seq": seq})

    def turn() -> Any:
        seat = engine.to_move
        legal = [a for a in engine.view(viewer).as_dict()["legal_actions"]] if viewer == seat else []
        return message(
            {"type": "turn", "table_id": "t1", "seat": seat, "time_left_ms": 30000, "legal_actions": legal}
        )

    table = table_info(game, engine, options)
    yield (
        message(
            {
                "type": "snapshot",
                "reply_to": None,
                "table": table,
                "view": wire_view(game, engine.view(viewer)).model_dump(),
                "time_left_ms": 30000,
            }
        ),
        wire_view(game, engine.view(viewer)),
    )
    while not engine.is_over:
        seat = engine.to_move
        legal = {str(a.as_dict()): a for a in engine.legal_actions(seat)}
        liked = [legal[str(w)] for w in WANTED.get(wanted or "", []) if str(w) in legal]
        events = engine.apply(seat, liked[0] if liked else spec.bot(engine.view(seat), rng))
        for event in events:
            seen = event.seen_by(viewer)
            if seen is None:
                continue
            wire = event_from_engine(game, seen)  # type: ignore[arg-type]
            data = {"type": "event", "table_id": "t1", "game": game, "event": wire.model_dump()}
            yield message(data), None
        if not engine.is_over:
            yield turn(), wire_view(game, engine.view(viewer))
    yield None, wire_view(game, engine.view(viewer))
