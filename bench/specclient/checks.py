"""What the spec-only client checks, written from protocol/spec/PROTOCOL.md alone (no import of the package).

Schema validation (schema.json's server messages), the fair-deal algorithm of PROTOCOL.md section 14, and the
hidden-information check of section 6 replayed over every frame a receiver got, once the game's seeds are out.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

Tile = tuple[int, int]
Message = dict[str, Any]

SCHEMA = Path(__file__).resolve().parents[2] / "protocol" / "spec" / "schema.json"

_CODES = """malformed_frame frame_too_large unknown_type invalid_message not_identified already_identified
rate_limited no_such_table no_such_seat seat_taken not_a_bot not_invited not_seated already_seated
invalid_options game_in_progress not_your_turn illegal_action game_over chat_too_long no_such_record
seed_closed unavailable internal_error"""
ERROR_CODES = frozenset(_CODES.split())
"""PROTOCOL.md section 8, the error code table."""

CLOSE_CODES = frozenset(
    [1000, 1001, 1002, 1007, 1008, 1009, 1011, 1012, 4000, 4001, 4002, 4003, 4004, 4005, 4006, 4007]
)
"""PROTOCOL.md section 9, the close code table."""


class SchemaChecker:
    """Validates a server message against its own definition in schema.json (the `type` discriminator)."""

    def __init__(self, path: Path = SCHEMA) -> None:
        schema = json.loads(path.read_text())
        defs: dict[str, Any] = schema["$defs"]
        self._by_type: dict[str, Any] = {}
        for option in defs["ServerMessage"]["oneOf"]:
            refs = [option["$ref"]] if "$ref" in option else [o["$ref"] for o in option["oneOf"]]
            for ref in refs:
                name = ref.rsplit("/", 1)[1]
                kind = defs[name]["properties"]["type"]["const"]
                game = defs[name]["properties"].get("game", {}).get("const")
                self._by_type[kind if game is None else f"{kind}/{game}"] = jsonschema.Draft202012Validator(
                    {"$ref": ref, "$defs": defs}
                )

    def errors(self, message: Message) -> list[str]:
        """Why `message` is not a valid server message (empty when it is)."""
        kind = message.get("type")
        key = f"{kind}/{message.get('game')}" if kind == "event" else str(kind)
        validator = self._by_type.get(key)
        if validator is None:
            return [f"no server message type {key!r}"]
        return [
            f"{'.'.join(map(str, e.absolute_path))}: {e.message[:160]}"
            for e in validator.iter_errors(message)
        ]


# --- Fair deals, PROTOCOL.md section 14 ---------------------------------------------------------------------


def tile_of_id(tile_id: int) -> Tile:
    """The tile `high-low` has id high (high + 1) / 2 + low."""
    high = 0
    while (high + 1) * (high + 2) // 2 <= tile_id:
        high += 1
    return (high, tile_id - high * (high + 1) // 2)


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[Tile, ...], ...]
    rest: tuple[Tile, ...]
    """Moon: the widow; Straight: the boneyard in draw order."""
    first: int


def deal(game: str, server_seed: bytes, seeds: list[bytes | None], hand: int) -> Deal:
    """boneyard-deal/1: hand `hand`'s deal from the server seed and each seat's seed (None: none sent)."""
    n = len(seeds)
    block = b"".join(b"\x01" + s if s is not None else b"\x00" + bytes(32) for s in seeds)
    prefix = b"boneyard-deal/1\x00" + bytes([n]) + block + hand.to_bytes(4, "big")

    def stream() -> Iterator[int]:
        counter = 0
        while True:
            yield from hmac.new(server_seed, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
            counter += 1

    source = stream()

    def below(k: int) -> int:
        """Rejection sampling: the low bits of each next byte until they fall below `k`."""
        mask = (1 << (k - 1).bit_length()) - 1
        return next(v for v in (byte & mask for byte in source) if v < k)

    order = list(range(28))
    for i in reversed(range(1, 28)):  # Fisher-Yates, from the top
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    first = below(n)
    tiles = [tile_of_id(t) for t in order]
    if game == "moon":
        tiles = [t for t in tiles if not (t[1] == 0 and t[0] > 0)]
    hands = tuple(tuple(tiles[7 * s : 7 * s + 7]) for s in range(n))
    return Deal(hands, tuple(tiles[7 * n :]), first)


# --- Hidden information, PROTOCOL.md section 6 --------------------------------------------------------------

_ONE = ("tile", "opening", "spinner", "discard")
_TILE_TEXT = re.compile(r"\[(\d)-(\d)\]")


def tiles_in(value: Any) -> Iterator[Tile]:
    """Every tile a message carries, wherever the spec puts one (a tile, a list, `[seat, tile]` pairs)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None:
                continue
            if key in _ONE and isinstance(item, list):
                yield (item[0], item[1])
            elif key in ("tiles", "hand") and isinstance(item, list):
                yield from ((t[0], t[1]) for t in item)
            elif key == "hands":
                yield from ((t[0], t[1]) for tiles in item for t in tiles)
            elif key == "trick":
                yield from ((t[0], t[1]) for _, t in item)
            elif key == "played":
                yield from ((t[0], t[1]) for trick in item for _, t in trick)
            elif key == "message" and isinstance(item, str):
                yield from ((int(a), int(b)) for a, b in _TILE_TEXT.findall(item))
            else:
                yield from tiles_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from tiles_in(item)


@dataclass
class Received:
    """One frame a receiver (a seat's session across its connections, or a spectator) got, in order."""

    message: Message
    named: frozenset[Tile] = frozenset()
    """Tiles the receiver itself had just named in a command (an error message may echo them)."""


@dataclass
class GameFacts:
    game: str
    players: int
    commitment: str | None = None
    server_seed: bytes | None = None
    seeds: list[bytes | None] = field(default_factory=list)
    announced: dict[int, str] = field(default_factory=dict)
    """seed_contributed, by seat."""


def leaks(facts: GameFacts, seat: int | None, frames: list[Received]) -> Iterator[str]:
    """Each tile a frame carried that `seat` (None: a spectator) could not see at a real table."""
    assert facts.server_seed is not None
    deals: dict[int, Deal] = {}

    def of(hand: int) -> Deal:
        if hand not in deals:
            assert facts.server_seed is not None
            deals[hand] = deal(facts.game, facts.server_seed, facts.seeds, hand)
        return deals[hand]

    hand = 0
    public: set[Tile] = set()
    private: set[Tile] = set()
    drawn = 0
    for frame in frames:
        message = frame.message
        where = f"{message['type']} seq {message.get('seq')}"
        if message["type"] == "snapshot" and message.get("view"):
            view = message["view"]
            if view["hand_number"] != hand:
                hand, public, private, drawn = view["hand_number"], set(), set(), 0
            if view["viewer"] != seat:
                yield f"{where}: view for seat {view['viewer']} sent to seat {seat}"
            current = of(hand)
            mine = set(current.hands[seat]) if seat is not None else set()
            if facts.game == "straight":
                drawn = len(current.rest) - view["boneyard"]
                mine |= set(current.rest[:drawn])
            elif view.get("high_bidder") == seat and view["phase"] not in ("bidding",):
                mine |= set(current.rest)
            for tile in view["hand"]:
                if tile_key(tile) not in mine:
                    yield f"{where}: hand holds {tile} that seat {seat} was never dealt nor drew"
            if view.get("discard") is not None and view.get("high_bidder") != seat:
                yield f"{where}: the discard {view['discard']} shown to seat {seat}, not the bidder"
            private |= {tile_key(t) for t in view["hand"]}
            if view.get("discard") is not None:
                private.add(tile_key(view["discard"]))
            public |= set(tiles_in({"trick": view.get("trick", []), "played": view.get("played", [])}))
            public |= set(tiles_in(view.get("layout") or {}))
            continue
        if message["type"] == "event":
            event = message["event"]
            kind = event["type"]
            if kind == "hand_started":
                hand, public, private, drawn = event["hand"], set(), set(), 0
                if hand == 0 and event["first"] != of(0).first:
                    yield f"{where}: hand 0 led by seat {event['first']}, the seeds give seat {of(0).first}"
            elif kind == "hand_dealt" and event["tiles"] is not None:
                if seat is None or event["seat"] != seat:
                    yield f"{where}: seat {event['seat']}'s deal {event['tiles']} sent to seat {seat}"
                elif sorted(map(tile_key, event["tiles"])) != sorted(of(hand).hands[seat]):
                    dealt = list(of(hand).hands[seat])
                    yield f"{where}: seat {seat} dealt {event['tiles']}, the seeds give {dealt}"
                else:
                    private |= set(map(tile_key, event["tiles"]))
            elif kind == "tile_drawn":
                expected = of(hand).rest[drawn] if drawn < len(of(hand).rest) else None
                drawn += 1
                if event["tile"] is not None:
                    if event["seat"] != seat:
                        yield f"{where}: seat {event['seat']}'s draw {event['tile']} sent to seat {seat}"
                    elif tile_key(event["tile"]) != expected:
                        yield f"{where}: drew {event['tile']}, the seeds' boneyard gives {expected}"
                    else:
                        private.add(expected)
            elif kind in ("widow_taken", "discarded") and event["tile"] is not None:
                if event["seat"] != seat:
                    yield f"{where}: seat {event['seat']}'s {kind} {event['tile']} sent to seat {seat}"
                elif kind == "widow_taken" and tile_key(event["tile"]) != of(hand).rest[0]:
                    yield f"{where}: widow {event['tile']}, the seeds give {of(hand).rest[0]}"
                else:
                    private.add(tile_key(event["tile"]))
            elif kind == "tile_played":
                public.add(tile_key(event["tile"]))
            elif kind == "hand_scored" and facts.game == "straight":
                public |= set(tiles_in({"hands": event["hands"]}))
        for tile in tiles_in(message):
            if tile not in public and tile not in private and tile not in frame.named:
                yield f"{where}: carries {list(tile)}, which seat {seat} could not see"


def tile_key(tile: list[int]) -> Tile:
    return (tile[0], tile[1])


def fairness_problems(facts: GameFacts) -> Iterator[str]:
    """The reveal against the commitment and the seeds announced (PROTOCOL.md section 5, "Fair deals")."""
    assert facts.server_seed is not None
    if hashlib.sha256(facts.server_seed).hexdigest() != facts.commitment:
        yield f"SHA-256 of the revealed seed is not the commitment {facts.commitment}"
    for seat, seed in facts.announced.items():
        revealed = facts.seeds[seat]
        if revealed is None or revealed.hex() != seed:
            yield f"seat {seat}'s announced seed differs from the revealed one"
