"""boneyard-deal/1: the worked example of PROTOCOL.md, an independent reading of the spec, uniformity,
and checking records (every deal recomputed from the seeds; tampering caught, saying where)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import random
import re
from collections import Counter
from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import pytest

from boneyard.protocol import fairness
from boneyard.protocol.spec.gen import GUIDE, PROTOCOL_MD
from boneyard.protocol.straight import straight_blocked
from boneyard.server.fairdeal import GameSeeds
from boneyard.server.games.record_replay import replay
from boneyard.server.games.registry import game_spec
from boneyard.server.record_store import validated
from boneyard.server.simulate import play_bots


def worked_example(path: Any) -> dict[str, str]:
    """The worked example's ``name  value`` lines (a value's continuation lines are joined)."""
    text = path.read_text(encoding="utf-8")
    block = re.search(r"\*\*Worked example\*\*.*?```text\n(.*?)\n```", text, re.DOTALL)
    assert block is not None, "the worked example is missing"
    out: dict[str, str] = {}
    key = ""
    for line in block.group(1).split("\n"):
        if line.startswith(" "):
            out[key] += " " + line.strip()
            continue
        match = re.match(r"(.+?)\s{2,}(.*)$", line)
        assert match is not None, line
        key = match.group(1)
        out[key] = match.group(2).strip()
    return out


def tiles(text: str) -> list[tuple[int, int]]:
    return [(int(t[0]), int(t[2])) for t in text.split()]


def reference_permutation(server: bytes, players: list[bytes | None], hand: int) -> tuple[list[int], int]:
    """The algorithm re-read from the spec's words alone (not the module): the permutation and the
    first player drawn after it."""
    seats = b"".join(b"\x01" + p if p is not None else b"\x00" * 33 for p in players)
    stream: list[int] = []

    def byte() -> int:
        if not stream:
            counter = byte.counter  # type: ignore[attr-defined]
            message = b"boneyard-deal/1\x00" + bytes([len(players)]) + seats
            message += hand.to_bytes(4, "big") + counter.to_bytes(4, "big")
            stream.extend(hmac.new(server, message, "sha256").digest())
            byte.counter = counter + 1  # type: ignore[attr-defined]
        return stream.pop(0)

    byte.counter = 0  # type: ignore[attr-defined]

    def below(k: int) -> int:
        while True:
            value = byte() & ((1 << (k - 1).bit_length()) - 1)
            if value < k:
                return value

    ids = list(range(28))
    for i in range(27, 0, -1):
        j = below(i + 1)
        ids[i], ids[j] = ids[j], ids[i]
    return ids, below(len(players))


@pytest.mark.parametrize("path", [GUIDE, PROTOCOL_MD], ids=["guide", "PROTOCOL.md"])
def test_the_worked_example_is_what_the_code_computes(path: Any) -> None:
    ex = worked_example(path)
    server = bytes.fromhex(ex["server seed"])
    players = [
        None if ex[f"seat {s} seed"] == "none" else bytes.fromhex(ex[f"seat {s} seed"]) for s in range(3)
    ]
    assert fairness.commitment(server) == ex["commitment"] == hashlib.sha256(server).hexdigest()
    block = fairness.seats_block(players)
    message = fairness.block_message(3, block, 0, 0)
    assert message.hex() == ex["M(0, 0)"].replace(" ", "")
    assert len(message) == 15 + 1 + 1 + 33 * 3 + 4 + 4
    for c in (0, 1):
        digest = hmac.new(server, fairness.block_message(3, block, 0, c), hashlib.sha256).hexdigest()
        assert digest == ex[f"B(0, {c})"]
    permutation = [int(i) for i in ex["permutation"].split()]
    moon = fairness.deal("moon", 3, server, players, 0)
    straight = fairness.deal("straight", 3, server, players, 0)
    assert list(moon.permutation) == list(straight.permutation) == permutation
    assert reference_permutation(server, players, 0) == (permutation, int(ex["first player"]))
    assert moon.chance_first == straight.chance_first == int(ex["first player"])
    for seat in range(3):
        assert list(moon.hands[seat]) == tiles(ex[f"moon seat {seat}"])
        assert list(straight.hands[seat]) == tiles(ex[f"straight seat {seat}"])
    assert list(moon.rest) == tiles(ex["moon widow"])
    assert list(straight.rest) == tiles(ex["straight bone"])
    swaps = re.findall(r"i=(\d+) j=(\d+)", ex["swaps"])
    ids = list(range(28))
    for i, j in swaps:
        ids[int(i)], ids[int(j)] = ids[int(j)], ids[int(i)]
    assert swaps and ids[int(swaps[-1][0]) :] == permutation[int(swaps[-1][0]) :]


def test_the_module_matches_an_independent_reading_of_the_spec() -> None:
    rng = random.Random(14)
    for _ in range(50):
        seats = rng.choice([2, 3, 4])
        server = rng.randbytes(32)
        players = [rng.choice([None, rng.randbytes(32)]) for _ in range(seats)]
        hand = rng.randrange(40)
        fair = fairness.deal("straight", seats, server, players, hand)
        assert reference_permutation(server, players, hand) == (list(fair.permutation), fair.chance_first)


def test_every_seed_and_the_hand_number_change_the_deal() -> None:
    server, players = bytes(32), [None, b"\x01" * 32, None]
    base = fairness.deal("moon", 3, server, players, 0).permutation
    assert fairness.deal("moon", 3, b"\x01" + bytes(31), players, 0).permutation != base
    assert fairness.deal("moon", 3, server, [b"\x00" * 32, b"\x01" * 32, None], 0).permutation != base
    assert fairness.deal("moon", 3, server, players, 1).permutation != base
    # A contributed all-zero seed is not the same as no seed (the presence byte).
    assert fairness.deal("moon", 3, server, [bytes(32), b"\x01" * 32, None], 0).permutation != base


def chi_squared(counts: Counter[int], cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(cells))


def critical_value(df: int, alpha: float) -> float:
    """The chi-squared critical value by the Wilson-Hilferty approximation (good to 0.3 % at 27 df)."""
    z = NormalDist().inv_cdf(1 - alpha)
    return float(df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3)


SAMPLES = 28 * 250


def first_tiles(
    shuffle: Callable[[fairness.HandStream], tuple[int, ...]],
) -> tuple[Counter[int], Counter[int]]:
    """Over many server seeds: which tile comes first, and where tile 0 (``0-0``) lands."""
    first: Counter[int] = Counter()
    double_blank: Counter[int] = Counter()
    for i in range(SAMPLES):
        server = hashlib.sha256(f"uniformity/{i}".encode()).digest()
        permutation = shuffle(fairness.HandStream(server, [None, None, None, None], 0))
        first[permutation[0]] += 1
        double_blank[permutation.index(0)] += 1
    return first, double_blank


def sattolo(stream: fairness.HandStream) -> tuple[int, ...]:
    """A classic wrong shuffle (``j`` below ``i``, not ``i + 1``): only cyclic permutations come out."""
    ids = list(range(28))
    for i in range(27, 0, -1):
        j = stream.below(i) if i > 1 else 0
        ids[i], ids[j] = ids[j], ids[i]
    return tuple(ids)


def test_the_permutation_is_uniform_by_chi_squared() -> None:
    limit = critical_value(27, 0.001)
    assert 55.3 < limit < 55.7  # the table value is 55.48
    for counts in first_tiles(fairness.shuffle):
        assert sum(counts.values()) == SAMPLES
        assert chi_squared(counts, 28, SAMPLES) < limit
    # The same test does catch a biased shuffle.
    biased = first_tiles(sattolo)
    assert min(chi_squared(counts, 28, SAMPLES) for counts in biased) > limit


# --- records -----------------------------------------------------------------------------------------


def fair_record(
    game: str, options: dict[str, Any], contributed: list[str | None], seed: int
) -> dict[str, Any]:
    spec = game_spec(game)
    opts = spec.options_from_dict(options)
    seats = spec.players_of(opts)
    seeds = GameSeeds.fresh(seats, fixed=f"test/{seed}")
    seeds.players = list(contributed)
    engine = play_bots(spec, spec.new_game(opts, seeds.dealer()), random.Random(seed))
    record = engine.record()
    record["fairness"] = seeds.proof()
    return validated(record).model_dump(mode="json")


@pytest.fixture(scope="module")
def moon_record() -> dict[str, Any]:
    return fair_record("moon", {"target": 21}, ["ab" * 32, None, "cd" * 32], 1)


@pytest.fixture(scope="module")
def straight_record() -> dict[str, Any]:
    return fair_record("straight", {"players": 2, "target": 150}, [None, "0f" * 32], 4)


def test_a_records_deals_are_recomputed_from_its_seeds(
    moon_record: dict[str, Any], straight_record: dict[str, Any]
) -> None:
    for record in (moon_record, straight_record):
        assert len(record["hands"]) > 1
        assert fairness.verify_record(record) == []
        proof = record["fairness"]
        server = bytes.fromhex(proof["server_seed"])
        players = [None if s is None else bytes.fromhex(s) for s in proof["player_seeds"]]
        for number, hand in enumerate(record["hands"]):
            fair = fairness.deal(record["game"], record["players"], server, players, number)
            assert [tuple(map(tuple, h)) for h in hand["deal"]] == [tuple(h) for h in fair.hands]


def test_a_straight_leader_is_checked_only_where_chance_chose_it(straight_record: dict[str, Any]) -> None:
    hands = straight_record["hands"]
    blocked = [n + 1 for n, h in enumerate(hands[:-1]) if straight_blocked(h, 2)]
    dominoed = [n + 1 for n, h in enumerate(hands[:-1]) if not straight_blocked(h, 2)]
    assert blocked and dominoed, "the game should have both a blocked and a dominoed hand"
    for number, caught in [(blocked[0], True), (dominoed[0], False)]:

        def other_leader(r: dict[str, Any], number: int = number) -> None:
            r["hands"][number]["first"] = (r["hands"][number]["first"] + 1) % 2

        problems = tampered(straight_record, other_leader)
        # After a domino the rules name the leader (checked by replaying the rules, not by the seeds).
        first = hands[number]["first"]
        expected = [
            f"hand {number}, first player: the record has seat {(first + 1) % 2}, chance (the seeds) "
            f"chose seat {first}"
        ]
        assert problems == (expected if caught else [])


def tampered(record: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> list[str]:
    copied = copy.deepcopy(record)
    change(copied)
    return fairness.verify_record(copied)


def test_tampering_is_caught_saying_where(
    moon_record: dict[str, Any], straight_record: dict[str, Any]
) -> None:
    def swap_hands(r: dict[str, Any]) -> None:  # one tile of seat 0 and of seat 2 traded in hand 1
        deal = r["hands"][1]["deal"]
        deal[0][0], deal[2][0] = deal[2][0], deal[0][0]

    problems = tampered(moon_record, swap_hands)
    assert len(problems) == 2
    assert problems[0].startswith("hand 1, seat 0's deal: the record has")
    assert problems[1].startswith("hand 1, seat 2's deal")

    def new_server_seed(r: dict[str, Any]) -> None:
        r["fairness"]["server_seed"] = "ee" * 32

    problems = tampered(moon_record, new_server_seed)
    assert problems[0].startswith("fairness.commitment: the server committed to")
    assert any(p.startswith("hand 0, seat 0's deal") for p in problems)

    def new_commitment(r: dict[str, Any]) -> None:
        r["fairness"]["commitment"] = "00" * 32

    assert tampered(moon_record, new_commitment) == [
        f"fairness.commitment: the server committed to {'00' * 32!r}, but SHA-256 of the revealed "
        f"server_seed is {moon_record['fairness']['commitment']!r}"
    ]

    def new_player_seed(r: dict[str, Any]) -> None:
        r["fairness"]["player_seeds"][0] = "11" * 32

    problems = tampered(straight_record, new_player_seed)
    assert problems[:-1] and all(p.startswith("hand ") for p in problems[:-1])
    assert problems[-1].startswith("every hand differs from what the seeds deal: the seeds in `fairness`")

    def widow(r: dict[str, Any]) -> None:
        hand = r["hands"][0]
        hand["widow"], hand["deal"][1][3] = hand["deal"][1][3], hand["widow"]

    problems = tampered(moon_record, widow)
    assert [p.split(":")[0] for p in problems] == ["hand 0, seat 1's deal", "hand 0, widow"]

    def boneyard(r: dict[str, Any]) -> None:
        bone = r["hands"][0]["boneyard"]
        bone[2], bone[3] = bone[3], bone[2]

    assert [p.split(":")[0] for p in tampered(straight_record, boneyard)] == [
        "hand 0, boneyard from position 2"
    ]

    def first(r: dict[str, Any]) -> None:
        r["hands"][0]["first"] = (r["hands"][0]["first"] + 1) % 3

    assert [p.split(":")[0] for p in tampered(moon_record, first)] == ["hand 0, first player"]

    def no_proof(r: dict[str, Any]) -> None:
        del r["fairness"]

    assert tampered(moon_record, no_proof) == [
        "the record has no `fairness` object: its deals cannot be verified"
    ]

    def short_seed(r: dict[str, Any]) -> None:
        r["fairness"]["player_seeds"][0] = "ab"

    assert tampered(moon_record, short_seed)[0].startswith(
        "fairness.player_seeds: seat 0's seed is not 64 hex"
    )


def test_the_order_of_a_seats_tiles_in_a_deal_means_nothing(
    moon_record: dict[str, Any], straight_record: dict[str, Any]
) -> None:
    """Each seat's dealt tiles are a set (PROTOCOL.md section 12): a record listing them in another order
    than dealt (the server writes dealing order) is the same game, verified and replayed alike; Straight's
    boneyard is an order (of drawing), and another one is caught."""
    for record in (moon_record, straight_record):

        def reorder(r: dict[str, Any]) -> None:
            for hand in r["hands"]:
                for tiles in hand["deal"]:
                    tiles.reverse()

        reordered = copy.deepcopy(record)
        reorder(reordered)
        assert reordered != record and tampered(record, reorder) == []
        replay(validated(reordered).model_dump(mode="json"))
    assert tampered(straight_record, lambda r: r["hands"][0]["boneyard"].reverse())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_blocked_straight_hand_is_told_from_the_record_alone(players: int) -> None:
    """How a verifier knows chance chose the next leader (PROTOCOL.md section 14, step 6): a hand was
    blocked exactly when every seat still holds a tile after its actions. Checked against the engine's own
    ``blocked`` and ``domino`` events, game after game."""
    spec = game_spec("straight")
    options = spec.options_from_dict({"players": players, "target": 150})
    kinds: Counter[bool] = Counter()
    for seed in range(12):
        engine = spec.new_game(options, GameSeeds.fresh(players, fixed=f"blocked/{seed}").dealer())
        rng, ends = random.Random(seed), []
        while (seat := engine.to_move) is not None:
            events = engine.apply(seat, spec.bot(engine.view(seat), rng))
            ends += [e.type == "blocked" for e in events if e.type in ("blocked", "domino")]
        hands = validated(engine.record()).model_dump(mode="json")["hands"]
        assert len(hands) - 1 <= len(ends) <= len(hands)  # the last hand may end mid-hand, at the target
        assert [straight_blocked(hand, players) for hand in hands[: len(ends)]] == ends
        kinds.update(ends)
    assert kinds[True] and kinds[False], kinds
