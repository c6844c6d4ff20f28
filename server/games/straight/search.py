"""A searching Straight bot: determinized rollouts with inference, from the seat's view alone.

The tiles the seat cannot see (the other hands and the boneyard) are sampled into
*worlds* consistent with the view: tile counts, and what drawing and passing showed
(a player who drew or passed held nothing matching the open ends then, so none of the
tiles it still holds since carries those numbers). In each world every legal action is
played, then the hand is rolled out to its end with a greedy policy for every seat
(most points now, then the heaviest tile) on the engine's lean path. An action is worth
its side's points in the rest of the hand (plays and the end award) minus the best
opposing side's, plus a bonus for deciding the game: points now, points left open to
the next player, blocking and the award all show up in that difference; with
partnerships the side is the team.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.straight.game import StraightGame, StraightOptions
>>> game = StraightGame(StraightOptions(players=2, target=100), RandomDealer(3))
>>> bot = StraightSearchBot(rollouts=8)
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(seat, bot.choose(game.view(seat), random.Random(seat)))
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from boneyard.server.games.base import forced
from boneyard.server.games.determinize import Holder, sample_holdings
from boneyard.server.games.straight.actions import Action, code_of
from boneyard.server.games.straight.core import StraightCore
from boneyard.server.games.straight.layout import DRAW, PASS, Layout
from boneyard.server.games.straight.options import StraightOptions
from boneyard.server.games.straight.scoring import play_points, side_of
from boneyard.server.games.straight.view import StraightView
from boneyard.server.games.tiles import ALL_TILES, PIPS, TILE_IDS

ALL_MASK = (1 << len(ALL_TILES)) - 1
WIN_BONUS = 100.0
"""What deciding the game is worth on top of the points (a hand rarely scores more)."""


def greedy_code(core: StraightCore) -> int:
    """The rollout policy: the play scoring most now, then the heaviest tile; a draw or pass when forced."""
    codes = core.legal_codes()
    if len(codes) == 1:
        return codes[0]
    layout = core.layout
    best = codes[0]
    best_key = -1
    for code in codes:
        tid = code & 31
        key = play_points(layout.count_after(tid, code >> 5)) * 16 + PIPS[tid]
        if key > best_key:
            best, best_key = code, key
    return best


def roll_out(core: StraightCore) -> None:
    """Play the hand to its end with :func:`greedy_code` for every seat."""
    push = core.push
    while core.to_move is not None:
        push(greedy_code(core))


def _open_numbers(layout: Layout) -> int:
    """The tiles that fit some open end now (a bitmask)."""
    return layout.playable(ALL_MASK)


def inferred_voids(view: StraightView) -> tuple[list[int], int]:
    """Per seat, the tiles it cannot hold (from this hand's draws and passes), and the trailing pass count.

    A draw sequence starts a seat's inference afresh (tiles drawn since are new to it);
    a pass adds to it (a pass draws nothing).
    """
    forbidden = [0] * view.players
    layout = Layout()
    passes = 0
    previous: tuple[int, int] | None = None
    for seat, code in view.history:
        if code >= 0:
            layout.play(code & 31, code >> 5)
            passes = 0
        elif code == DRAW:
            if previous != (seat, DRAW):
                forbidden[seat] = _open_numbers(layout)
        elif code == PASS:
            forbidden[seat] |= _open_numbers(layout)
            passes += 1
        previous = (seat, code)
    return forbidden, passes


def worlds(view: StraightView, rng: random.Random, count: int) -> Iterator[StraightCore]:
    """``count`` lean-path positions at the viewer's decision, hidden tiles sampled to fit the view."""
    me = view.viewer
    assert me is not None
    own = sum(1 << TILE_IDS[t] for t in view.hand)
    layout = Layout.from_snapshot(view.layout.snapshot) if view.layout.snapshot else Layout()
    unknown = ALL_MASK & ~own & ~layout.tiles
    forbidden, passes = inferred_voids(view)
    others = [s for s in range(view.players) if s != me]
    holders = [Holder(view.tile_counts[s], forbidden[s]) for s in others]
    holders.append(Holder(view.boneyard))
    options = StraightOptions(players=view.players, partnerships=view.partnerships, target=view.target)
    for _ in range(count):
        masks = sample_holdings(rng, unknown, holders)
        hands = [0] * view.players
        hands[me] = own
        for seat, mask in zip(others, masks, strict=False):
            hands[seat] = mask
        bone = [i for i in range(len(ALL_TILES)) if masks[-1] >> i & 1]
        rng.shuffle(bone)
        yield StraightCore.position(
            options,
            hands,
            bone,
            layout,
            scores=view.scores,
            to_move=me,
            passes=passes,
            leader=view.leader,
            hand_number=view.hand_number,
        )


def outcome(core: StraightCore, side: int, before: tuple[int, ...]) -> float:
    """Points ``side`` gained since ``before`` minus the best other side's, and the game's end."""
    gains = [after - b for after, b in zip(core.scores, before, strict=True)]
    value = float(gains[side] - max(g for s, g in enumerate(gains) if s != side))
    if core.winner is not None:
        value += WIN_BONUS if core.winner == side else -WIN_BONUS
    return value


class StraightSearchBot:
    """Determinized rollouts; ``rollouts`` (playouts per decision, all actions) sets strength and time."""

    def __init__(self, *, rollouts: int) -> None:
        self.rollouts = rollouts

    def choose(self, view: StraightView, rng: random.Random) -> Action:
        """One of ``view.legal_actions`` (the view must be of the seat to move)."""
        legal = view.legal_actions
        if (only := forced(legal)) is not None:
            return only
        me = view.viewer
        assert me is not None
        codes = [code_of(a) for a in legal]
        side = side_of(me, view.partnerships)
        totals = [0.0] * len(legal)
        for world in worlds(view, rng, max(2, self.rollouts // len(legal))):
            for i, code in enumerate(codes):
                core = world.copy()
                assert code is not None
                core.push(code)
                roll_out(core)
                totals[i] += outcome(core, side, view.scores)
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return legal[best]


STRONG = StraightSearchBot(rollouts=500)
GOOD = StraightSearchBot(rollouts=50)
