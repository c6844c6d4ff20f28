"""Provably fair deals, ``boneyard-deal/1``: every deal of a game computed from its seeds alone.

Commit, contribute, reveal (PROTOCOL.md section 5, "Fair deals"): before any tile is dealt the server
draws a secret 32-byte *server seed* and sends its SHA-256, the *commitment*; each seated human may
send a 32-byte seed of their own; when the game is over the server reveals its seed, and the record
carries all of them. This module is the whole algorithm, standard library only, so that any client
can recompute every deal of a record, byte for byte:

1. The *seats block*: for each seat in seat order (0 first), 33 bytes: ``0x01`` and the seat's 32
   seed bytes if it contributed, else ``0x00`` and 32 zero bytes.
2. The *stream* of hand ``h`` (0 for the first hand, as ``hand_started.hand``) is the concatenation of
   ``HMAC-SHA256(key = server seed, message = M(h, c))`` for ``c = 0, 1, 2, ...``, where
   ``M(h, c) = ASCII("boneyard-deal/1") || 0x00 || u8(seats) || seats block || u32be(h) || u32be(c)``.
3. A *number below n* (``2 <= n <= 256``) takes the stream's next byte, keeps its low ``k`` bits where
   ``k`` is the bit length of ``n - 1``, and returns it if it is below ``n``; otherwise it takes the
   next byte, and so on (rejection sampling: no modulo bias).
4. The *permutation*: the list ``[0, 1, ..., 27]`` of tile ids (the tile ``high-low`` has id
   ``high * (high + 1) / 2 + low``), then for ``i = 27`` down to ``1``: ``j`` = a number below
   ``i + 1``, swap the entries at ``i`` and ``j`` (Fisher-Yates).
5. The *deal*: the tiles in play, in permutation order (Moon plays 22 tiles, without ``1-0`` to
   ``6-0``: those are skipped; Straight and Texas 42 play all 28). Seat ``s`` gets positions ``7s`` to
   ``7s + 6``; Moon's widow is position 21; Straight's boneyard is the rest, in drawing order (Texas 42
   deals every tile: 4 x 7).
6. When the rules leave the first player to chance (every game's first hand; Straight after a blocked
   hand), it is the next number below the number of seats, from the same stream after step 4.

Each game's part of steps 5 and 6 (its tiles, its hand size, where a record shows the rest, when chance
picks the first player again) is its :class:`DealRule`, given in its wire module
(``boneyard.protocol.moon``, ...) and registered here with the game (:func:`register_deal_rule`).

>>> server = bytes.fromhex("00" * 32)
>>> commitment(server)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> d = deal("straight", 2, server, [None, None], 0)
>>> len(d.hands), [len(h) for h in d.hands], len(d.rest)
(2, [7, 7], 14)
>>> deal("straight", 2, server, [bytes(32), None], 0) != d   # a contribution changes the deal
True
>>> m = deal("moon", 3, server, [None, None, None], 0)
>>> len(m.rest), (1, 0) in [t for h in m.hands for t in h] + list(m.rest)
(1, False)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ALGORITHM = "boneyard-deal/1"
"""The algorithm's versioned name; a different algorithm gets a new name."""

SEED_BYTES = 32
"""Every seed (the server's and each player's) is exactly 32 bytes: 64 hex digits on the wire."""

HAND_SIZE = 7

Tile = tuple[int, int]
"""``(high, low)``."""

TILES: tuple[Tile, ...] = tuple((high, low) for high in range(7) for low in range(high + 1))
"""The 28 tiles of a double-six set, indexed by id (``high * (high + 1) // 2 + low``)."""

Game = str
"""A game's name, as its deal rule is registered (``moon``, ``straight``, ``texas42``)."""


@dataclass(frozen=True, slots=True)
class DealRule:
    """One game's part of the deal (steps 5 and 6).

    >>> DealRule(rest="boneyard").deals(2)
    14
    """

    tiles: frozenset[Tile] = frozenset(TILES)
    """The tiles in play (the others are skipped in the permutation)."""
    hand_size: int = HAND_SIZE
    rest: str | None = None
    """The field of a record's hand that holds the tiles left after the deal: a list in drawing order
    (Straight's ``boneyard``), or one tile when ``rest_is_tile`` (Moon's ``widow``); ``None``: every
    tile is dealt."""
    rest_is_tile: bool = False
    chance_after: Callable[[Mapping[str, Any], int], bool] | None = None
    """Whether chance picks the first player of the hand after a record's ``hand`` (with this many
    seats), besides the game's first hand; ``None``: only the first hand (Straight: after a blocked hand)."""

    def deals(self, seats: int) -> int:
        """The tiles dealt to seats."""
        return self.hand_size * seats


_RULES: dict[str, DealRule] = {}


def register_deal_rule(game: str, rule: DealRule | None) -> None:
    """Make ``game``'s deal known to :func:`deal` and :func:`verify_record` (its wire module does);
    ``None`` forgets it."""
    if rule is None:
        _RULES.pop(game, None)
    else:
        _RULES[game] = rule


def deal_rule(game: str) -> DealRule | None:
    """The registered rule of ``game``, or ``None``."""
    return _RULES.get(game)


class FairnessError(ValueError):
    """A seed is not usable (wrong length, not hex); the message says which."""


def commitment(server_seed: bytes) -> str:
    """The commitment to a server seed: its SHA-256, as 64 lowercase hex digits."""
    return hashlib.sha256(server_seed).hexdigest()


def seed_bytes(text: str, what: str = "seed") -> bytes:
    """A seed from its 64 hex digits; :class:`FairnessError` if it is not one.

    >>> seed_bytes("ab" * 32)[:2]
    b'\\xab\\xab'
    >>> seed_bytes("ab")
    Traceback (most recent call last):
    ...
    boneyard.protocol.fairness.FairnessError: seed is not 64 hex digits: 'ab'
    """
    if len(text) != 2 * SEED_BYTES or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise FairnessError(f"{what} is not {2 * SEED_BYTES} hex digits: {text!r}")
    return bytes.fromhex(text)


def seats_block(player_seeds: Sequence[bytes | None]) -> bytes:
    """Step 1: 33 bytes a seat, in seat order (``0x01`` + seed, or ``0x00`` + 32 zero bytes).

    >>> block = seats_block([b"\x07" * 32, None])
    >>> len(block), block[:2].hex(), block[32:35].hex(), block[35:] == bytes(31)
    (66, '0107', '070000', True)
    """
    out = bytearray()
    for seat, seed in enumerate(player_seeds):
        if seed is None:
            out += b"\x00" + bytes(SEED_BYTES)
        elif len(seed) != SEED_BYTES:
            raise FairnessError(f"seat {seat}'s seed is {len(seed)} bytes, not {SEED_BYTES}")
        else:
            out += b"\x01" + seed
    return bytes(out)


def block_message(seats: int, block: bytes, hand: int, counter: int) -> bytes:
    """Step 2's ``M(h, c)``."""
    return (
        ALGORITHM.encode("ascii")
        + b"\x00"
        + bytes([seats])
        + block
        + hand.to_bytes(4, "big")
        + (counter.to_bytes(4, "big"))
    )


class HandStream:
    """Steps 2 and 3: the byte stream of one hand, and uniform numbers drawn from it.

    >>> s = HandStream(bytes(32), [None, None], 0)
    >>> s.below(28) < 28, s.used
    (True, 1)
    """

    __slots__ = ("_buffer", "_counter", "_mac", "_prefix", "hand", "used")

    def __init__(self, server_seed: bytes, player_seeds: Sequence[bytes | None], hand: int) -> None:
        if len(server_seed) != SEED_BYTES:
            raise FairnessError(f"the server seed is {len(server_seed)} bytes, not {SEED_BYTES}")
        if not 2 <= len(player_seeds) <= 4:
            raise FairnessError(f"{len(player_seeds)} seats: a table has 2 to 4")
        self.hand = hand
        # M(h, c) without u32(c): the key and this prefix are hashed once, each block copies from here.
        self._prefix = block_message(len(player_seeds), seats_block(player_seeds), hand, 0)[:-4]
        self._mac = hmac.new(server_seed, self._prefix, hashlib.sha256)
        self._counter = 0
        self._buffer = b""
        self.used = 0
        """Bytes taken from the stream so far."""

    def next_byte(self) -> int:
        at = self.used - 32 * (self._counter - 1)
        if not self._counter or at >= len(self._buffer):
            mac = self._mac.copy()
            mac.update(self._counter.to_bytes(4, "big"))
            self._buffer = mac.digest()
            self._counter += 1
            at = 0
        self.used += 1
        return self._buffer[at]

    def below(self, n: int) -> int:
        """A uniform number in ``range(n)``, ``2 <= n <= 256``: one byte per try, low bits kept."""
        if not 2 <= n <= 256:
            raise ValueError(f"cannot draw below {n}")
        mask = (1 << (n - 1).bit_length()) - 1
        while True:
            value = self.next_byte() & mask
            if value < n:
                return value


def shuffle(stream: HandStream) -> tuple[int, ...]:
    """Step 4: the permutation of the 28 tile ids."""
    ids = list(range(len(TILES)))
    for i in range(len(ids) - 1, 0, -1):
        j = stream.below(i + 1)
        ids[i], ids[j] = ids[j], ids[i]
    return tuple(ids)


def tiles_in_play(rule: DealRule, permutation: Sequence[int]) -> list[Tile]:
    """Step 5's order: the game's tiles, in permutation order."""
    return [t for t in (TILES[i] for i in permutation) if t in rule.tiles]


def _rule(game: str | DealRule) -> DealRule:
    if isinstance(game, DealRule):
        return game
    rule = _RULES.get(game)
    if rule is None:
        raise FairnessError(f"no deal rule for the game {game!r}")
    return rule


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand's deal as the seeds fix it."""

    permutation: tuple[int, ...]
    hands: tuple[tuple[Tile, ...], ...]
    """Each seat's 7 tiles, in dealing order."""
    rest: tuple[Tile, ...]
    """The tiles left (its ``DealRule.rest``): Moon's widow, Straight's boneyard in drawing order."""
    chance_first: int
    """Step 6: the first player, for a hand whose first player the rules leave to chance."""


def deal(
    game: str | DealRule, seats: int, server_seed: bytes, player_seeds: Sequence[bytes | None], hand: int
) -> Deal:
    """Hand ``hand``'s deal (steps 2 to 6), for a game by name or by its rule."""
    rule = _rule(game)
    if len(player_seeds) != seats:
        raise FairnessError(f"{len(player_seeds)} players' seeds for {seats} seats")
    stream = HandStream(server_seed, player_seeds, hand)
    permutation = shuffle(stream)
    order = tiles_in_play(rule, permutation)
    size = rule.hand_size
    hands = tuple(tuple(order[size * s : size * (s + 1)]) for s in range(seats))
    return Deal(permutation, hands, tuple(order[size * seats :]), stream.below(seats))


# --- checking a record ------------------------------------------------------------------------------


def _tile(value: Any) -> Tile:
    high, low = (int(v) for v in value)
    return (high, low) if high >= low else (low, high)


def _fmt(tiles: Sequence[Tile]) -> str:
    return " ".join(f"[{a}-{b}]" for a, b in tiles) or "nothing"


def proof_seeds(proof: Mapping[str, Any], seats: int) -> tuple[bytes, list[bytes | None], list[str]]:
    """The server seed and players' seeds of a record's ``fairness`` object, and what is wrong with it."""
    problems: list[str] = []
    algorithm = proof.get("algorithm")
    if algorithm != ALGORITHM:
        problems.append(f"fairness.algorithm: {algorithm!r} is not {ALGORITHM!r}, which this checker knows")
    server = b""
    try:
        server = seed_bytes(str(proof.get("server_seed")), "fairness.server_seed")
    except FairnessError as error:
        problems.append(str(error))
    if server and commitment(server) != proof.get("commitment"):
        problems.append(
            f"fairness.commitment: the server committed to {proof.get('commitment')!r}, but SHA-256 of the "
            f"revealed server_seed is {commitment(server)!r}"
        )
    raw = proof.get("player_seeds")
    players: list[bytes | None] = []
    if not isinstance(raw, list | tuple) or len(raw) != seats:
        problems.append(f"fairness.player_seeds: expected a list of {seats} (a seed or null per seat)")
    else:
        for seat, text in enumerate(raw):
            try:
                players.append(None if text is None else seed_bytes(str(text), f"seat {seat}'s seed"))
            except FairnessError as error:
                problems.append(f"fairness.player_seeds: {error}")
    return server, players, problems


def verify_record(record: Mapping[str, Any]) -> list[str]:
    """Every way a record's deals disagree with its seeds, one line each (empty: verified).

    Checks the commitment against the revealed server seed, then every hand: each seat's dealt tiles
    (as a set: their order in ``deal`` means nothing), Moon's widow, Straight's boneyard (in drawing
    order), and the first player where chance chose one. It checks the deal, not the play (replaying the
    rules is another check). The record's own commitment proves nothing by itself: compare it with the
    one the server sent before the first deal (``deal_commitment``).
    """
    proof = record.get("fairness")
    if not isinstance(proof, Mapping):
        return ["the record has no `fairness` object: its deals cannot be verified"]
    game = record.get("game")
    seats = record.get("players")
    rule = _RULES.get(game) if isinstance(game, str) else None
    if rule is None or not isinstance(seats, int) or not 2 <= seats <= 4:
        return [f"the record's game {game!r} with {seats!r} players is not one this checker knows"]
    server, players, problems = proof_seeds(proof, seats)
    if problems and (not server or len(players) != seats):
        return problems
    previous: Mapping[str, Any] | None = None
    hands = record.get("hands", [])
    wrong = 0
    for number, hand in enumerate(hands):
        where = f"hand {number}"  # hands are numbered from 0, as in `hand_started.hand`
        before = len(problems)
        fair = deal(rule, seats, server, players, number)
        dealt = hand.get("deal", [])
        for seat in range(seats):
            have = sorted(_tile(t) for t in dealt[seat]) if seat < len(dealt) else []
            want = sorted(fair.hands[seat])
            if have != want:
                problems.append(
                    f"{where}, seat {seat}'s deal: the record has {_fmt(have)}, the seeds deal {_fmt(want)}"
                )
        problems += _rest_problems(where, rule, hand, fair.rest)
        chance = number == 0 or (
            rule.chance_after is not None and previous is not None and rule.chance_after(previous, seats)
        )
        if chance and hand.get("first") != fair.chance_first:
            problems.append(
                f"{where}, first player: the record has seat {hand.get('first')!r}, chance "
                f"(the seeds) chose seat {fair.chance_first}"
            )
        previous = hand
        wrong += len(problems) > before
    if len(hands) > 1 and wrong == len(hands):
        problems.append(
            "every hand differs from what the seeds deal: the seeds in `fairness` were changed, or the "
            "deals were not dealt from them"
        )
    return problems


def _rest_problems(where: str, rule: DealRule, hand: Mapping[str, Any], rest: tuple[Tile, ...]) -> list[str]:
    """What is wrong with a record hand's undealt tiles (Moon's widow, Straight's boneyard)."""
    if rule.rest is None:
        return []
    if rule.rest_is_tile:
        tile = _tile(hand[rule.rest]) if rule.rest in hand else None
        if tile is None or (tile,) != rest:
            shown = _fmt([tile] if tile else [])
            return [f"{where}, {rule.rest}: the record has {shown}, the seeds deal {_fmt(rest)}"]
        return []
    left = [_tile(t) for t in hand.get(rule.rest, [])]
    if left == list(rest):
        return []
    at = next(
        (i for i, (a, b) in enumerate(zip(left, rest, strict=False)) if a != b), min(len(left), len(rest))
    )
    return [
        f"{where}, {rule.rest} from position {at}: the record has {_fmt(left[at:])}, "
        f"the seeds deal {_fmt(rest[at:])}"
    ]
