"""Fair deals on the wire: the commitment, the players' seeds, the reveal, and the record's proof.

The algorithm itself (how the seeds become every deal) is :mod:`boneyard.protocol.fairness`; these
are the messages that carry the seeds (PROTOCOL.md section 5, "Fair deals").

>>> from boneyard.protocol import COMMAND_ADAPTER
>>> COMMAND_ADAPTER.validate_python({"type": "contribute_seed", "table_id": "t1", "seed": "0" * 64}).type
'contribute_seed'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from boneyard.protocol.envelope import CommandBase, ServerMessageBase
from boneyard.protocol.values import Count, Id, Seat, Seq, Str, WireModel

FEATURE = "fair_deals"
"""The name in ``hello.features`` of a server that commits to its deals (and takes ``contribute_seed``)."""

FIXED_SEED = "fixed_seed"
"""The name in ``hello.features`` of a server whose seeds are derived from a fixed seed (its operator's
``BONEYARD_SEED``, a setting for tests): its deals are committed to and dealt as usual, but predictable
to whoever knows that seed, so their check proves nothing (a client says they are not fair)."""

Hex32 = Annotated[str, Strict(), Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]
"""32 bytes as 64 lowercase hex digits (a seed, or a SHA-256)."""


class DealCommitment(ServerMessageBase):
    """A game starts: the server's commitment to its secret seed, before any tile is dealt.

    Sent to everyone at the table (players and spectators). Seated humans may now send
    ``contribute_seed``; the first deal comes after ``wait_ms``, or as soon as every seat in ``seats``
    has contributed."""

    type: Literal["deal_commitment"]
    table_id: Id
    game_number: Count
    """The table's game this is for: 1 for its first game, one more for each rematch."""
    algorithm: Str
    """How the seeds fix the deals: ``boneyard-deal/1`` (section 14)."""
    commitment: Hex32
    """SHA-256 of the server seed (revealed in ``deal_revealed`` when the game is over)."""
    seats: Seq[Seat]
    """The seats that may contribute a seed (those a human holds); empty: the deal follows at once."""
    wait_ms: Count
    """How long the server waits for the seeds before dealing (0 when ``seats`` is empty)."""


class ContributeSeed(CommandBase):
    """Add your seed to the next game's deals (seated humans, between ``deal_commitment`` and the first
    deal; once per game). Reply: ``ok``; ``seed_closed`` when too late or sent already. Feature
    ``fair_deals``."""

    type: Literal["contribute_seed"]
    table_id: Id
    seed: Hex32
    """32 bytes you chose at random (``secrets.token_hex(32)``)."""


class SeedContributed(ServerMessageBase):
    """A seat's seed, announced to everyone at the table as it arrives."""

    type: Literal["seed_contributed"]
    table_id: Id
    seat: Seat
    seed: Hex32


class DealRevealed(ServerMessageBase):
    """The game is over: the server's seed, so anyone can recompute every deal (after ``game_over``)."""

    type: Literal["deal_revealed"]
    table_id: Id
    game_number: Count
    algorithm: Str
    commitment: Hex32
    """As sent in ``deal_commitment``."""
    server_seed: Hex32
    """The secret seed: its SHA-256 is ``commitment``."""
    player_seeds: Seq[Hex32 | None]
    """Each seat's contributed seed, by seat: one entry per seat of the table (n, section 14); ``null``:
    none. A client checks it against the ``seed_contributed`` messages and its own seed (section 5)."""
    record_id: Id | None = None
    """The game's record (as in ``game_over``), whose ``fairness`` holds the same seeds."""


class DealProof(WireModel):
    """A record's ``fairness``: the seeds that fixed every deal of the game (section 14)."""

    algorithm: Str
    """``boneyard-deal/1``."""
    commitment: Hex32
    """SHA-256 of ``server_seed``, as sent before the first deal: the record proves its deals fixed only
    to whoever saw that commitment then (section 12)."""
    server_seed: Hex32
    player_seeds: Seq[Hex32 | None]
    """By seat, one entry per seat (n: the record's ``players``); ``null`` for a seat that contributed
    none (a bot, or a player who did not)."""


__all__ = [
    "FEATURE",
    "FIXED_SEED",
    "ContributeSeed",
    "DealCommitment",
    "DealProof",
    "DealRevealed",
    "Hex32",
    "SeedContributed",
]
