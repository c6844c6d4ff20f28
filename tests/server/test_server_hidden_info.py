"""The hidden-information oracle over many complete games: no tile reaches anyone who could not see it.

Every frame every connection (each seat, and a spectator) received during the games is decoded and
every tile in it checked against the true deal, widow and boneyard from the game's record.
"""

from __future__ import annotations

import asyncio

import pytest
from server_oracle import check_connection, check_seed_secrecy
from server_testkit import running_server
from test_server_games import GAMES, play_game


async def test_no_connection_ever_receives_a_tile_it_could_not_see() -> None:
    games = [(game, options, seed) for seed in range(6) for game, options in GAMES]
    async with running_server(seed=7, deal_seed_wait_ms=20) as server:
        # Every other game's connections accept turn_in_event: turns (legal actions) inside events.
        results = await asyncio.gather(
            *(
                play_game(server.url, game, options, seed=100 + i, accept=("turn_in_event",) if i % 2 else ())
                for i, (game, options, seed) in enumerate(games)
            )
        )
    checked = frames = before_reveal = 0
    for result in results:
        for (log, seat), raw in zip(result["connections"], result["frames"], strict=True):
            checked += check_connection(log, seat, result["record"], result["table_id"])
            before_reveal += check_seed_secrecy(raw, log, result["record"], result["table_id"])
            frames += len(log)
    assert len(results) == 6 * len(GAMES) and checked > 15_000 and before_reveal > 5_000, (checked, frames)
    folded = [m for r in results[1::2] for log, _ in r["connections"] for m in log if m.type == "event"]
    assert sum(m.turn is not None and bool(m.turn.legal_actions) for m in folded) > 500


async def test_the_oracle_catches_a_leak() -> None:
    """The oracle itself: a tile slipped into a spectator's stream is caught."""
    async with running_server(seed=8) as server:
        result = await play_game(server.url, "moon", {"target": 7}, seed=8)
    log, seat = result["connections"][-1]
    assert seat is None
    check_connection(log, None, result["record"], result["table_id"])
    index, widow = next(
        (i, m) for i, m in enumerate(log) if m.type == "event" and m.event.type == "widow_taken"
    )
    truth = result["record"]["hands"][0]["widow"]
    leaked = widow.model_copy(update={"event": widow.event.model_copy(update={"tile": tuple(truth)})})
    with pytest.raises(AssertionError, match="widow_taken"):
        check_connection(
            [*log[:index], leaked, *log[index + 1 :]], None, result["record"], result["table_id"]
        )


async def test_the_oracle_catches_an_early_seed() -> None:
    """The oracle itself: the server seed in any frame before ``game_over`` is caught."""
    async with running_server(seed=9) as server:
        result = await play_game(server.url, "straight", {"players": 2, "target": 50}, seed=9)
    (log, _), raw = result["connections"][0], result["frames"][0]
    record, table_id = result["record"], result["table_id"]
    assert check_seed_secrecy(raw, log, record, table_id) > 0
    secret = bytes.fromhex(record["fairness"]["server_seed"])
    turn = next(i for i, m in enumerate(log) if m.type == "turn")
    for leak in (secret, secret.hex().encode()):
        frames = [*raw[:turn], raw[turn] + leak, *raw[turn + 1 :]]
        with pytest.raises(AssertionError, match="before the game was over"):
            check_seed_secrecy(frames, log, record, table_id)
    late = [m for m in log if m.type != "deal_commitment"]
    with pytest.raises(AssertionError, match="no commitment before the first deal"):
        check_seed_secrecy(raw[: len(late)], late, record, table_id)
