"""Texas 42 in the terminal client (issue 28): a whole game against bots on a real local server in line
mode, and every record replayed, with the client's own count of each trick checked against the record."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tui_support
from engine_feed import WANTED
from textual.widgets import Static
from tui_support import make_app, table, until

from boneyard.clients.cli.core.games import load_games
from boneyard.clients.cli.games.texas42_replay import positions
from boneyard.clients.cli.replay import load_records
from boneyard.clients.cli.tui.replay import ReplayApp
from boneyard.clients.cli.tui.screens import GameOverScreen
from boneyard.clients.cli.tui.widgets import Board
from boneyard.clients.cli.ui.commands import InputError, parse_move
from boneyard.protocol import BidAction, PassAction, Texas42Record, TexasView, TrumpAction
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import GAMES

FAST_BOTS = {
    **os.environ,
    "BONEYARD_BOT_DELAY_SECONDS": "0",  # the local server's bots answer at once (a person's pace costs 10 s)
    "BONEYARD_BOT_WORKERS": "0",  # basic bots think on the loop anyway; a worker process costs seconds
}


def _records(options: dict[str, Any], games: int, wanted: str | None = None) -> list[dict[str, Any]]:
    """Whole games of the engine with its bot in every seat (``wanted``: moves played whenever legal,
    engine_feed.WANTED), as ``boneyard-record/1`` records."""
    spec = GAMES["texas42"]
    out = []
    for seed in range(games):
        engine = spec.new_game(spec.options_from_dict(options), RandomDealer(seed))
        rng = random.Random(seed)
        while not engine.is_over:
            seat = engine.to_move
            legal = {str(a.as_dict()): a for a in engine.legal_actions(seat)}
            liked = [legal[str(w)] for w in WANTED.get(wanted or "", []) if str(w) in legal]
            engine.apply(seat, liked[0] if liked else spec.bot(engine.view(seat), rng))
        out.append(engine.record([f"p{s}" for s in range(4)]))
    return out


def _loaded(tmp_path: Path, records: list[dict[str, Any]]) -> list[Texas42Record]:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records))
    loaded = load_records(path)
    assert all(isinstance(r, Texas42Record) for r in loaded)
    return [r for r in loaded if isinstance(r, Texas42Record)]


@pytest.mark.parametrize(
    ("options", "wanted"), [({}, None), ({"nello": True}, "nello"), ({"all_pass": "redeal"}, None)]
)
def test_replay_counts_every_trick_as_the_record_scores_it(
    tmp_path: Path, options: dict[str, Any], wanted: str | None
) -> None:
    """The record holds no trick winners: the replay works them out (nello's suits too), and its points
    per team must come to the record's result, its winners lead the next trick, and nello's partner
    never plays."""
    for record in _loaded(tmp_path, _records(options, 6, wanted)):
        shown = positions(record)
        assert shown[-1].title == "Game over" and shown[-1].mirror.game_over is not None
        for number, hand in enumerate(record.hands, 1):
            scored = [p for p in shown if p.hand == number][-1].mirror.view
            assert isinstance(scored, TexasView)
            assert scored.scores == hand.scores
            if hand.result is None:
                assert scored.phase == "thrown_in"
                continue
            assert scored.points == hand.result.points, (number, scored.points, hand.result)
            plays = [a for a in hand.actions if a.type == "play"]
            size = 3 if hand.result.trump == "nello" else 4
            assert sum(scored.tricks) == len(plays) // size
            if hand.result.trump == "nello":
                assert scored.out == (hand.result.bidder + 2) % 4
                assert all(a.seat != scored.out for a in plays)
            # Whoever the replay says took a trick leads the next one in the record.
            takers = [
                p.mirror.last_trick_winner for p in shown if p.hand == number and " takes trick " in p.title
            ]
            leaders = [a.seat for a in plays[size::size]]
            assert takers[: len(leaders)] == leaders, (number, takers, leaders)
        assert shown[-2].mirror.view is not None and shown[-2].mirror.view.scores == record.final_scores
    assert any(h.result is not None and h.result.trump == "nello" for h in record.hands) or wanted is None


def test_the_line_replay_shows_the_contract_and_the_marks(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_records({"nello": True}, 1, "nello")[0]))
    done = subprocess.run(
        [sys.executable, "-m", "boneyard.clients.cli.main", "replay", str(path), "--all", "--no-color"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "── Texas 42 · table replay · hand 1" in out and "Contract p" in out
    assert "bids 1 mark" in out and "names nello" in out and "sits out, face down ▒▒ ▒▒" in out
    assert "Game over" in out and "team " in out and "wins" in out


def test_play_texas42_is_a_whole_game_against_bots_in_line_mode() -> None:
    """``boneyard play texas42``: a local server, three bots, our seat played by ``--auto``; the board
    a 42 player reads (the auction in marks, the contract, the trick, the points against the bid), a
    game over and the deals checked."""
    done = subprocess.run(
        [sys.executable, "-m", "boneyard.clients.cli.main", "play", "texas42", "--line", "--auto",
         "--target", "1", "--option", "nello=on", "--name", "tester", "--no-color", "--turn", "none"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, env=FAST_BOTS,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "Traceback" not in done.stderr + out
    assert "── Texas 42 · table" in out and "first to 1 mark ──" in out
    assert "Marks    team 0 (tester+bot-2) 0 · team 1 (bot-1+bot-3) 0" in out
    assert "Contract" in out and "Trick" in out and "Points   team 0" in out
    # The auction offers mark bids in marks: "bid 42 (1 mark)", unless a bot bid a mark before our turn
    # (2 of 3,000 simulated deals), when the least we may bid is the next mark, "bid 84 (2 marks)".
    auction = next(line for line in out.splitlines() if line.startswith("Your move:") and ")bid " in line)
    offered = [(int(bid), said) for bid, said in re.findall(r"bid (\d+)( \(\d+ marks?\))?", auction)]
    marks = [(bid, said) for bid, said in offered if bid >= 42]
    assert marks and all(said == f" ({bid // 42} mark{'s' * (bid > 42)})" for bid, said in marks), auction
    assert "Game over: team " in out and "deals verified (1 hand seen)" in out


def test_play_refuses_an_option_texas42_does_not_have() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boneyard.clients.cli.main", "play", "texas42", "--players", "3"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "argument --players: texas42 is played by exactly 4 players" in done.stderr
    assert "Traceback" not in done.stderr


def test_typed_moves_know_the_42_auction_and_nello() -> None:
    """``bid 30`` and ``trump nello`` were refused as not Moon's ("bids are 4, 5, 6, 7 or 21")."""
    texas = load_games()["texas42"]
    auction = [PassAction(type="pass"), *(BidAction(type="bid", bid=b) for b in (31, 32, 42, 84))]

    def typed(text: str, legal: list[Any]) -> Any:
        return parse_move(text, legal, bids=texas.bids, contracts=texas.contracts)

    assert typed("bid 42", auction) == BidAction(type="bid", bid=42)
    with pytest.raises(InputError, match=r"the high bid is 30: bid 31, 32, 42, 84 or pass"):
        typed("bid 30", auction)
    with pytest.raises(InputError, match=r"bids are 30-41, 42, 84, 126, 168 or 210"):
        typed("bid 5", auction)
    assert typed("trump nello", [TrumpAction(type="trump", trump="nello")]).trump == "nello"
    with pytest.raises(InputError, match=r"0-6, `trump doubles`, `trump nello` or `trump none`"):
        typed("trump sevens", [TrumpAction(type="trump", trump=5)])
    with pytest.raises(InputError, match="there is no bidding in this game"):
        parse_move("bid 5", [PassAction(type="pass")], bids=load_games()["straight"].bids)


seeded = tui_support.seeded


async def test_a_full_screen_game_to_the_end(seeded: Any) -> None:
    """The full-screen table through a whole Texas 42 game with our seat on --auto: each hand's window
    says the contract and the team points, the game-over window names the winning team."""
    app = await make_app(seeded, table("texas42", target=1), auto=True, rng=random.Random(5), pause=0.5)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60)
        mirror = app.controller.mirror
        assert mirror is not None and mirror.game_over is not None and mirror.hands
        said = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "team" in said and "wins" in said, said
        assert "Hand scored: " in tui_support.log_text(app) and "marks: team 0" in tui_support.log_text(app)


async def test_the_full_screen_replay_of_a_42_record(tmp_path: Path) -> None:
    record = _loaded(tmp_path, _records({"nello": True}, 1, "nello"))[0]
    app = ReplayApp(record, colour=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        heading = str(app.screen.query_one("#title").render())
        assert heading.startswith("Replay · Texas 42 · hand 1"), heading
        at = next(i for i, s in enumerate(app.steps) if "names nello" in s.title)
        await pilot.press(*["right"] * (at + 1))
        board = str(app.screen.query_one(Board).render())
        assert "nello" in board and "sits out, face down" in board, board
        await pilot.press("e")
        status = str(app.screen.query_one("#status", Static).render())
        assert status.startswith(f"[{len(app.steps)}/{len(app.steps)}] Game over: team ") and "wins" in status
