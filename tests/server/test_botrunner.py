"""The bot runner: searching bots in a real worker process, human tables first, cancellation, same choices."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

from boneyard.server.botrunner import BotRunner, think
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.moon import MoonGame


def _view(seed: int) -> Any:
    game = MoonGame(dealer=RandomDealer(seed))
    seat = game.to_move
    assert seat is not None
    return game.view(seat)


async def test_human_tables_go_first_and_choices_match_the_inline_bot() -> None:
    runner = BotRunner(asyncio.get_running_loop(), workers=1, nice=0)
    runner.start()
    done: list[tuple[str, Any]] = []
    finished = asyncio.Event()
    jobs = [(f"bots-{i}", _view(i), False) for i in range(3)] + [("human", _view(9), True)]

    def land(name: str) -> Any:
        def landed(action: Any) -> None:
            done.append((name, action))
            if len(done) == len(jobs):
                finished.set()

        return landed

    try:
        for name, view, human in jobs:
            runner.choose("moon", "strong", view, b"seed", land(name), human=human)
        assert runner.queued == 3  # one job in flight: the worker takes one at a time
        await asyncio.wait_for(finished.wait(), 60)
    finally:
        runner.close()
    # The bots-only job already in flight ends first; the human table's job overtakes the queued ones.
    assert [name for name, _ in done] == ["bots-0", "human", "bots-1", "bots-2"]
    for name, view, _ in jobs:
        assert dict(done)[name] == think("moon", "strong", view, b"seed")


async def test_a_cancelled_job_is_never_delivered_and_close_drops_the_queue() -> None:
    runner = BotRunner(asyncio.get_running_loop(), workers=1, nice=0)
    delivered: list[str] = []
    try:

        def ask(level: str, seed: int, name: str) -> Any:
            return runner.choose(
                "moon", level, _view(seed), b"s", lambda a: delivered.append(name), human=True
            )

        first = ask("good", 1, "first")
        second = ask("good", 2, "second")
        third = ask("basic", 3, "basic")
        second.cancel()
        third.cancel()
        for _ in range(600):
            if delivered:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        assert delivered == ["first"]
        assert first.cancelled is False
        ask("good", 4, "late")
        ask("good", 5, "later")
    finally:
        runner.close()
    assert runner.queued == 0
    await asyncio.sleep(0.5)
    assert delivered == ["first"]  # nothing arrives once the runner is closed


async def test_without_workers_bots_think_on_the_loop_but_never_inside_choose() -> None:
    runner = BotRunner(asyncio.get_running_loop(), workers=0)
    got: list[Any] = []
    view = _view(6)
    runner.choose("moon", "strong", view, b"k", got.append, human=True)
    assert got == []  # delivered later, from the loop
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert got == [think("moon", "strong", view, b"k")]


async def test_a_killed_worker_is_replaced_and_every_move_is_still_made(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker killed (the OOM killer, an operator's kill -9) breaks its pool: the move in flight is made
    on the loop, and the next ones go to a new pool (before, every later move raised and its table hung)."""
    runner = BotRunner(asyncio.get_running_loop(), workers=1, nice=0)

    async def move(seed: int) -> Any:
        landed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        runner.choose("moon", "good", _view(seed), b"s", landed.set_result, human=True)
        return await asyncio.wait_for(landed, 60)

    def workers() -> set[int]:
        pool = runner._pool
        return set(pool._processes or {}) if pool is not None else set()

    try:
        assert await move(1) == think("moon", "good", _view(1), b"s")
        killed = workers()
        assert len(killed) == 1
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(10):  # the pool's manager notices and marks the pool broken
            while not getattr(runner._pool, "_broken", False):
                await asyncio.sleep(0.02)
        for seed in (2, 3):
            assert await move(seed) == think("moon", "good", _view(seed), b"s")
        assert workers() and not workers() & killed, "a new worker made those moves"
        # Killed with a move in flight (sent to the pool, tens of milliseconds from done): that move
        # is made on the loop, the same one, and the next goes to a new pool again.
        landed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        runner.choose("moon", "strong", _view(4), b"s", landed.set_result, human=True)
        killed = workers()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        assert await asyncio.wait_for(landed, 60) == think("moon", "strong", _view(4), b"s")
        assert any("a bot worker died" in r.getMessage() for r in caplog.records), "made on the loop"
        assert await move(5) == think("moon", "good", _view(5), b"s")
        assert workers() and not workers() & killed
    finally:
        runner.close()
