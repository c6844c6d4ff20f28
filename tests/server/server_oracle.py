"""The hidden-information oracle: every tile a connection received, checked against the true deal.

The truth is the game's record (every deal, widow and boneyard, every action). Walking one
connection's messages in order, a tile may reach a seat only if that seat could see it at a real
table: its own dealt tiles, the widow once it takes it as bidder, its own draws, tiles played face
up, and (Straight) the hands turned up for the count at the end of a hand. A spectator sees only
the tiles played and turned up. Nor may the server seed of the game's deals (which determines every
hand) reach anyone before the game is over (:func:`check_seed_secrecy`).
"""

from __future__ import annotations

from typing import Any

from boneyard.protocol import fairness, unfolded

Tile = tuple[int, int]


def _tile(value: Any) -> Tile:
    return (int(value[0]), int(value[1]))


def _tiles_in(value: Any, key: str | None = None) -> list[Tile]:
    """Every tile anywhere in a dumped message, found by the names of the fields that hold tiles."""
    if value is None:
        return []
    if key in ("tile", "opening", "spinner", "discard"):
        return [_tile(value)]
    if key in ("tiles", "hand") and isinstance(value, list | tuple):  # hand_thrown_in's hand is a number
        return [_tile(t) for t in value]
    if key == "hands":
        return [_tile(t) for hand in value for t in hand]
    if key == "trick":
        return [_tile(t) for _, t in value]
    if key == "played":
        return [_tile(t) for trick in value for _, t in trick]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _tiles_in(v, k)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _tiles_in(v)]
    return []


class Truth:
    """What the record says about one hand."""

    def __init__(self, record: dict[str, Any], number: int) -> None:
        hand = record["hands"][number]
        self.number = number
        self.deal = [{_tile(t) for t in tiles} for tiles in hand["deal"]]
        self.widow = _tile(hand["widow"]) if "widow" in hand else None
        actions = hand["actions"]
        self.played = {_tile(a["tile"]) for a in actions if a["type"] == "play"}
        self.draws: dict[int, list[Tile]] = {}
        for a in actions:
            if a["type"] == "draw":
                self.draws.setdefault(a["seat"], []).append(_tile(a["tile"]))
        bids = [a for a in actions if a["type"] == "discard"]
        self.bidder = bids[0]["seat"] if bids else None
        self.discard = _tile(bids[0]["tile"]) if bids else None
        held = [set(d) | set(self.draws.get(s, [])) for s, d in enumerate(self.deal)]
        self.left = [sorted(h - self.played) for h in held]

    def own(self, viewer: int | None) -> set[Tile]:
        """Every tile the viewer may hold in this hand (deal, draws, widow as bidder)."""
        if viewer is None:
            return set()
        out = set(self.deal[viewer]) | set(self.draws.get(viewer, []))
        if viewer == self.bidder and self.widow is not None:
            out.add(self.widow)
        return out


def check_connection(messages: list[Any], viewer: int | None, record: dict[str, Any], table_id: str) -> int:
    """Assert that ``messages`` (one connection's, in order) leak nothing; returns the tiles checked."""
    truth: Truth | None = None
    public: set[Tile] = set()
    checked = 0

    def allow(tiles: list[Tile], allowed: set[Tile], what: str) -> None:
        nonlocal checked
        leaked = set(tiles) - allowed
        assert not leaked, f"seat {viewer} was sent {sorted(leaked)} in {what}"
        checked += len(tiles)

    # A turn inside an event (feature turn_in_event) is checked as the turn message it stands for.
    for message in (part for folded in messages for part in unfolded(folded)):
        if getattr(message, "table_id", None) != table_id and message.type != "snapshot":
            continue
        if message.type == "snapshot":
            if message.view is None or message.table.table_id != table_id:
                continue
            view = message.view
            if truth is None or view.hand_number != truth.number:
                truth = Truth(record, view.hand_number)
                public = set()
            own = truth.own(viewer)
            allow([_tile(t) for t in view.hand], own, "a snapshot's hand")
            if viewer is None:
                assert view.hand == () and not view.legal_actions
            if view.game == "moon":
                assert view.discard is None or (
                    viewer == truth.bidder and _tile(view.discard) == truth.discard
                )
            rest = _tiles_in(view.model_dump(exclude={"hand", "discard", "legal_actions"}))
            allow(rest, truth.played, "a snapshot's table")
            allow(_tiles_in([a.model_dump() for a in view.legal_actions]), own, "a snapshot's legal actions")
            public = set(rest)
            continue
        if truth is None and not (message.type == "event" and message.event.type == "hand_started"):
            assert not _tiles_in(message.model_dump()), f"tiles before any hand: {message}"
            continue
        if message.type == "turn":
            assert truth is not None
            if message.seat != viewer:
                assert message.legal_actions == ()
            allow(_tiles_in([a.model_dump() for a in message.legal_actions]), truth.own(viewer), "a turn")
            continue
        if message.type != "event":
            assert not _tiles_in(message.model_dump()), f"tiles in {message.type}"
            continue
        event = message.event
        kind = event.type
        if kind == "hand_started":
            truth = Truth(record, event.hand)
            public = set()
            continue
        assert truth is not None
        if kind == "hand_dealt":
            assert event.seat == viewer, "a deal went to another seat"
            assert event.tiles is not None and {_tile(t) for t in event.tiles} == truth.deal[viewer]
            checked += len(event.tiles)
        elif kind in ("widow_taken", "discarded", "tile_drawn"):
            if event.seat != viewer:
                assert event.tile is None, f"seat {viewer} saw another seat's {kind}: {event}"
            else:
                allow([_tile(event.tile)], truth.own(viewer), kind)
        elif kind == "tile_played":
            allow([_tile(event.tile)], truth.played, "tile_played")
            public.add(_tile(event.tile))
        elif kind == "trick_won":
            allow([_tile(t) for t in event.tiles], public, "trick_won")
        elif kind == "hand_scored" and message.game == "straight":
            assert [sorted(_tile(t) for t in h) for h in event.hands] == truth.left
            checked += sum(len(h) for h in event.hands)
        else:
            assert not _tiles_in(event.model_dump()), f"tiles in {kind}"
    return checked


def check_seed_secrecy(
    frames: list[bytes], messages: list[Any], record: dict[str, Any], table_id: str
) -> int:
    """Assert that the game's server seed (it determines every hand) reached this connection only after
    ``game_over``, in ``deal_revealed``, and that the record's deals verify from its seeds; returns the
    frames checked before the reveal.

    The seed is looked for in the raw frames, as hex text and as its 32 bytes, so no field or encoding
    can hide it; the commitment must have come before the first deal."""
    proof = record["fairness"]
    assert fairness.verify_record(record) == [], fairness.verify_record(record)
    secret = proof["server_seed"]
    forms = (secret.encode(), secret.upper().encode(), bytes.fromhex(secret))
    over = next(
        i
        for i, m in enumerate(messages)
        if m.type == "event" and m.table_id == table_id and m.event.type == "game_over"
    )
    for frame in frames[: over + 1]:
        assert not any(form in frame for form in forms), "the server seed was sent before the game was over"
    committed = [
        i for i, m in enumerate(messages[:over]) if m.type == "deal_commitment" and m.table_id == table_id
    ]
    dealt = next(
        (i for i, m in enumerate(messages) if m.type == "event" and m.table_id == table_id), len(messages)
    )
    assert committed and committed[0] < dealt, "no commitment before the first deal"
    assert messages[committed[0]].commitment == proof["commitment"]
    reveal = next(m for m in messages[over:] if m.type == "deal_revealed" and m.table_id == table_id)
    assert reveal.server_seed == secret and tuple(reveal.player_seeds) == tuple(proof["player_seeds"])
    return over + 1
