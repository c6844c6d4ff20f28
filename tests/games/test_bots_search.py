"""The bots of every level: only legal moves under every option set, and fair by construction.

Search sizes are small here (the suite stays fast); the registered ``good`` and
``strong`` bots are the same classes with larger sizes (``strong`` with the same features on:
exact endgames, the bidder's tiles inferred, bids judged widow by widow, 21s trusted more), and a
few positions check them too; ``strong-ismcts`` is the Information-Set MCTS card play (piloted, not
registered: bench/README.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.server.games.base import Engine, IllegalAction, RandomDealer
from boneyard.server.games.determinize import Holder, sample_holdings
from boneyard.server.games.moon import MoonGame, MoonOptions
from boneyard.server.games.moon.rules import MOON_TILES, trump_index
from boneyard.server.games.moon.search import MoonSearchBot
from boneyard.server.games.moon.worlds import plausible, tiles_mask
from boneyard.server.games.moon.worlds import worlds as moon_worlds
from boneyard.server.games.registry import LEVELS, game_spec
from boneyard.server.games.straight import Draw, StraightGame, StraightOptions
from boneyard.server.games.straight.search import StraightSearchBot, inferred_voids, worlds
from boneyard.server.games.straight.view import StraightView
from boneyard.server.games.texas42 import Texas42Game, TexasOptions
from boneyard.server.games.texas42.search import TexasSearchBot
from boneyard.server.games.tiles import ALL_TILES, Tile

Bot = Callable[[Any, random.Random], Any]

_MOON_STRONG: dict[str, Any] = {
    "play_worlds": 3,
    "bid_worlds": 6,
    "contract_worlds": 2,
    "solve_at": 3,
    "solve_worlds": 2,
    "infer": True,
    "widow_worlds": 1,
    "grand_trust": 1.5,
}
"""``strong``'s features at a tiny size."""

SMALL: dict[str, dict[str, Bot]] = {
    "moon": {
        "basic": game_spec("moon").bot,
        "good": MoonSearchBot(play_worlds=1, bid_worlds=3, contract_worlds=1).choose,
        "strong": MoonSearchBot(**_MOON_STRONG).choose,
        "strong-ismcts": MoonSearchBot(**_MOON_STRONG, iterations=40).choose,
    },
    "straight": {
        "basic": game_spec("straight").bot,
        "good": StraightSearchBot(rollouts=2).choose,
        "strong": StraightSearchBot(rollouts=6).choose,
    },
    "texas42": {
        "basic": game_spec("texas42").bot,
        "good": TexasSearchBot(play_worlds=1, bid_worlds=3, contract_worlds=1, trumps=2).choose,
        "strong": TexasSearchBot(play_worlds=3, bid_worlds=6, contract_worlds=2).choose,
    },
}

MOON_OPTIONS = st.builds(
    MoonOptions, all_pass=st.sampled_from(["redeal", "force_last"]), target=st.sampled_from([1, 7, 21])
)
STRAIGHT_OPTIONS = st.sampled_from(
    [
        StraightOptions(players=2, target=60),
        StraightOptions(players=3, target=60),
        StraightOptions(players=4, partnerships=True, target=60),
        StraightOptions(players=4, partnerships=False, target=60),
        StraightOptions(players=2),
    ]
)
TEXAS42_OPTIONS = st.builds(
    TexasOptions,
    all_pass=st.sampled_from(["redeal", "force_last"]),
    nello=st.booleans(),
    target=st.sampled_from([1, 7]),
)
SEEDS = st.integers(0, 2**32 - 1)
STEPS = 160  # moves checked per example (a long game is cut here to keep the suite fast)


class FixedDealer:
    """Deals the given order every hand and picks ``first``."""

    def __init__(self, order: Sequence[Tile], first: int) -> None:
        self.order = list(order)
        self.first = first

    def shuffled(self, tiles: Sequence[Tile]) -> list[Tile]:
        return list(self.order)

    def pick(self, n: int) -> int:
        return self.first % n


def _walk(engine: Engine, bots: dict[str, Bot], seed: int) -> int:
    """Every seat to move is played by a random level; each choice must be legal. Returns the moves made."""
    rng = random.Random(seed)
    moves = 0
    levels = sorted(bots)
    while (seat := engine.to_move) is not None and moves < STEPS:
        view = engine.view(seat)
        level = levels[rng.randrange(len(levels))]
        action = bots[level](view, random.Random(rng.random()))
        assert action in view.legal_actions, (level, action, view.legal_actions)
        engine.apply(seat, action)
        moves += 1
    return moves


@settings(max_examples=15, deadline=None)
@given(options=MOON_OPTIONS, seed=SEEDS)
def test_moon_levels_play_legal_moves(options: MoonOptions, seed: int) -> None:
    engine = MoonGame(options, RandomDealer(seed))
    assert _walk(engine, SMALL["moon"], seed) > 0


@settings(max_examples=15, deadline=None)
@given(options=STRAIGHT_OPTIONS, seed=SEEDS)
def test_straight_levels_play_legal_moves(options: StraightOptions, seed: int) -> None:
    engine = StraightGame(options, RandomDealer(seed))
    assert _walk(engine, SMALL["straight"], seed) > 0


@settings(max_examples=15, deadline=None)
@given(options=TEXAS42_OPTIONS, seed=SEEDS)
def test_texas42_levels_play_legal_moves(options: TexasOptions, seed: int) -> None:
    engine = Texas42Game(options, RandomDealer(seed))
    assert _walk(engine, SMALL["texas42"], seed) > 0


def test_registered_levels_choose_legal_moves() -> None:
    """The real good and strong bots, in a few positions of each game."""
    for name, engine in (
        ("moon", MoonGame(dealer=RandomDealer(3))),
        ("straight", StraightGame(StraightOptions(players=4), RandomDealer(3))),
        ("texas42", Texas42Game(TexasOptions(nello=True), RandomDealer(3))),
    ):
        spec = game_spec(name)
        rng = random.Random(1)
        for _ in range(12):
            seat = engine.to_move
            assert seat is not None
            view = engine.view(seat)
            choices = {level: spec.bot_at(level)(view, random.Random(5)) for level in LEVELS}
            for level, action in choices.items():
                assert action in view.legal_actions, (name, level, action)
            engine.apply(seat, choices[LEVELS[rng.randrange(3)]])


# ----- fairness: the choice depends on the view alone ---------------------------------------------


def _seen(view: Any) -> set[Tile]:
    """Every tile the viewer can see."""
    seen = set(view.hand)
    if isinstance(view, StraightView):
        lay = view.layout
        for arm in (lay.left, lay.right, lay.up, lay.down):
            seen.update(p.tile for p in arm)
        if lay.opening is not None:
            seen.add(lay.opening)
        return seen
    seen.update(tile for trick in view.played for _, tile in trick)
    seen.update(tile for _, tile in view.trick)
    if getattr(view, "discard", None) is not None:  # Moon's bidder
        seen.add(view.discard)
    return seen


def _replayed(
    make: Callable[[FixedDealer], Engine], order: list[Tile], first: int, actions: list[Any]
) -> Any:
    """The engine after ``actions`` on the deal ``order``, or None if one of them is illegal there."""
    engine = make(FixedDealer(order, first))
    for seat, action in actions:
        try:
            engine.apply(seat, action)
        except IllegalAction:
            return None
    return engine


def _check_fair(
    make: Callable[[FixedDealer], Engine], bots: dict[str, Bot], seed: int, deal_size: int
) -> int:
    """Play into a hand, then permute the viewer's unseen tiles among their slots: same view, same choices.

    Returns how many permuted deals were checked.
    """
    rng = random.Random(seed)
    tiles = game_tiles(deal_size)
    order = rng.sample(tiles, len(tiles))
    first = rng.randrange(4)
    engine = make(FixedDealer(order, first))
    actions: list[tuple[int, Any]] = []
    for _ in range(rng.randrange(1, 25)):
        seat = engine.to_move
        if seat is None or engine.view(seat).hand_number != 0:
            break
        legal = engine.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        before = engine.view(seat).hand_number
        probe = _replayed(make, order, first, [*actions, (seat, action)])
        if probe is None or probe.to_move is None or probe.view(probe.to_move).hand_number != before:
            break
        engine.apply(seat, action)
        actions.append((seat, action))
    seat = engine.to_move
    assert seat is not None
    view = engine.view(seat)
    chosen = {level: bot(view, random.Random(seed)) for level, bot in bots.items()}
    seen = _seen(view)
    hidden = [i for i, tile in enumerate(order) if tile not in seen]
    checked = 0
    for _ in range(30):
        shuffled = rng.sample(hidden, len(hidden))
        other = order[:]
        for slot, source in zip(hidden, shuffled, strict=True):
            other[slot] = order[source]
        if other == order:
            continue
        twin = _replayed(make, other, first, actions)
        if twin is None or twin.to_move != seat or twin.view(seat) != view:
            continue  # not consistent with what the viewer saw (a void, a draw): not the same information set
        for level, bot in bots.items():
            assert bot(twin.view(seat), random.Random(seed)) == chosen[level], level
        checked += 1
    return checked


def game_tiles(size: int) -> list[Tile]:
    return list(MOON_TILES) if size == 22 else list(ALL_TILES)


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS)
def test_moon_choice_is_unchanged_when_hidden_tiles_are_permuted(seed: int) -> None:
    _check_fair(lambda dealer: MoonGame(dealer=dealer), SMALL["moon"], seed, 22)


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]))
def test_straight_choice_is_unchanged_when_hidden_tiles_are_permuted(seed: int, players: int) -> None:
    _check_fair(
        lambda dealer: StraightGame(StraightOptions(players=players), dealer), SMALL["straight"], seed, 28
    )


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, nello=st.booleans())
def test_texas42_choice_is_unchanged_when_hidden_tiles_are_permuted(seed: int, nello: bool) -> None:
    _check_fair(lambda dealer: Texas42Game(TexasOptions(nello=nello), dealer), SMALL["texas42"], seed, 28)


def test_fairness_check_finds_permuted_worlds() -> None:
    """The permutation check is not vacuous: across seeds it checks many permuted deals."""
    moon = sum(_check_fair(lambda d: MoonGame(dealer=d), SMALL["moon"], s, 22) for s in range(6))
    straight = sum(
        _check_fair(lambda d: StraightGame(StraightOptions(players=2), d), SMALL["straight"], s, 28)
        for s in range(6)
    )
    texas42 = sum(_check_fair(lambda d: Texas42Game(dealer=d), SMALL["texas42"], s, 28) for s in range(6))
    assert moon > 20 and straight > 20 and texas42 > 20


# ----- inference and sampling ---------------------------------------------------------------------


def test_sampling_respects_sizes_and_forbidden_tiles() -> None:
    rng = random.Random(4)
    for _ in range(200):
        masks = sample_holdings(rng, (1 << 14) - 1, [Holder(7, forbidden=0b1111111), Holder(5), Holder(2)])
        assert [m.bit_count() for m in masks] == [7, 5, 2]
        assert masks[0] & 0b1111111 == 0
        assert masks[0] | masks[1] | masks[2] == (1 << 14) - 1


def test_a_player_who_drew_lacks_the_open_numbers() -> None:
    """Straight inference: a seat that drew on some open ends is sampled without tiles of those numbers,
    and that is the truth: the tiles it kept carry none of them."""
    found = 0
    for seed in range(300):
        game = StraightGame(StraightOptions(players=2), RandomDealer(seed))
        seat = game.to_move
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
        other = 1 - seat
        if not isinstance(game.legal_actions(other)[0], Draw):
            continue
        ends = {n for _, n in game.view(other).layout.open_ends}
        while isinstance(game.legal_actions(other)[0], Draw):
            game.apply(other, game.legal_actions(other)[0])
        game.apply(other, game.legal_actions(other)[0])  # the drawn tile that fits (or a pass)
        forbidden, _ = inferred_voids(game.view(seat))
        assert {ALL_TILES[i] for i in range(28) if forbidden[other] >> i & 1} == {
            t for t in ALL_TILES if ends & set(t)
        }
        assert not any(ends & set(t) for t in game.hand_of(other))
        for world in worlds(game.view(seat), random.Random(seed), 20):
            assert not forbidden[other] & world.hand_mask(other)
        found += 1
    assert found > 5


def test_the_bidders_tiles_are_sampled_to_fit_its_contract() -> None:
    """Moon inference: at a defender's first turn its worlds give the bidder tiles that could carry its
    bid about as often as the bidder's real tiles do, and far more often than uniform worlds would."""
    fitting = {False: 0, True: 0}
    truth = checked = 0
    for seed in range(40):
        game = MoonGame(dealer=RandomDealer(seed))
        rng = random.Random(seed)
        while (seat := game.to_move) is not None and not game.view(seat).played:
            if game.view(seat).phase == "playing" and game.view(seat).high_bidder != seat:
                break  # a defender's first turn
            game.apply(seat, SMALL["moon"]["good"](game.view(seat), rng))
        if seat is None or game.view(seat).phase != "playing" or game.view(seat).played:
            continue
        view = game.view(seat)
        bidder = view.high_bidder
        assert bidder is not None and view.trump is not None and view.high_bid is not None
        t = trump_index(view.trump)
        checked += 1
        led = tiles_mask([x for s, x in view.trick if s == bidder])  # the bidder's lead, before the hand
        truth += plausible(game.fast_state().hands[bidder] | led, t, view.high_bid)
        for infer in (False, True):
            for hands in moon_worlds(view, random.Random(seed), 20, infer=infer):
                assert hands[view.viewer] == tiles_mask(view.hand)
                fitting[infer] += plausible(hands[bidder] | led, t, view.high_bid)
    assert checked >= 10
    assert truth >= 0.8 * checked
    # Seen: the real bidders fit 85 %, inferred worlds 82 %, uniform ones 28 %.
    assert fitting[True] >= 0.7 * 20 * checked
    assert fitting[True] > 2 * fitting[False]
