"""The seeds of a table's current game: the server's secret, the commitment, the players' contributions.

A game's deals are fixed by ``boneyard-deal/1`` (:mod:`boneyard.protocol.fairness`) from a secret
server seed, drawn with :mod:`secrets` when the game starts, and the seeds the seated humans send
before the first deal. Its SHA-256 (the commitment) goes to the table before anything is dealt; the
seed itself leaves the server only when the game is over (``deal_revealed`` and the record), since it
determines every hand. :class:`GameSeeds` is that bookkeeping, stored with the table (so a restart
deals the same tiles) and turned into the engine's dealer.

Games stored before fair deals existed carry the algorithm :data:`LEGACY` and go on with the keyed
dealer they started with: a restart never changes a deal.

>>> seeds = GameSeeds.fresh(2, fixed="s/t1/1")
>>> seeds.commitment == fairness.commitment(bytes.fromhex(seeds.seed)), seeds.dealt
(True, False)
>>> seeds.contribute(0, "ab" * 32)
>>> seeds.contribute(0, "cd" * 32)
Traceback (most recent call last):
...
boneyard.server.errors.CommandError: seat 0 has contributed its seed already
>>> seeds.proof()["player_seeds"] == ["ab" * 32, None]
True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass

from boneyard.protocol import fairness
from boneyard.server.errors import CommandError
from boneyard.server.games.base import Dealer
from boneyard.server.games.dealers import FairDealer, KeyedDealer
from boneyard.server.wire import body_of_dict

LEGACY = "keyed-blake2b"
"""The algorithm of games stored before fair deals: :class:`KeyedDealer` over the stored seed."""


@dataclass(slots=True)
class GameSeeds:
    """One game's seeds. ``seed`` is the server seed as hex (any string for :data:`LEGACY`)."""

    algorithm: str
    seed: str
    players: list[str | None]
    """Each seat's contributed seed as hex, by seat; ``None``: none (yet)."""
    dealt: bool = False
    """The first deal is made: no more contributions."""

    @classmethod
    def fresh(cls, seats: int, fixed: str | None = None) -> GameSeeds:
        """A new game's seeds: 32 bytes from :mod:`secrets` (``fixed``: derived from it, for
        reproducible runs with ``settings.seed``, and so predictable to whoever knows it)."""
        server = secrets.token_bytes(fairness.SEED_BYTES) if fixed is None else _derived(fixed)
        return cls(fairness.ALGORITHM, server.hex(), [None] * seats)

    @property
    def fair(self) -> bool:
        return self.algorithm == fairness.ALGORITHM

    @property
    def commitment(self) -> str:
        return fairness.commitment(bytes.fromhex(self.seed))

    def contribute(self, seat: int, seed: str) -> None:
        """Seat ``seat``'s seed (64 lowercase hex digits, checked by the protocol model)."""
        if self.dealt or not self.fair:
            raise CommandError("seed_closed", "the deal is made: seeds are taken before the first deal")
        if self.players[seat] is not None:
            raise CommandError("seed_closed", f"seat {seat} has contributed its seed already")
        self.players[seat] = seed

    def dealer(self) -> Dealer:
        """The engine's dealer for this game (a fresh one deals the game again from its first hand)."""
        if not self.fair:
            return KeyedDealer(self.seed)
        players = [None if s is None else bytes.fromhex(s) for s in self.players]
        return FairDealer(bytes.fromhex(self.seed), players)

    def proof(self) -> dict[str, object]:
        """The record's ``fairness`` object (only once the game is over: it holds the secret seed)."""
        return {
            "algorithm": self.algorithm,
            "commitment": self.commitment,
            "server_seed": self.seed,
            "player_seeds": list(self.players),
        }

    # -- storage -------------------------------------------------------------------------------------

    def columns(self) -> tuple[str, str, bool]:
        """``deal_algorithm``, ``player_seeds`` (JSON) and ``dealt`` as stored with the table."""
        return self.algorithm, json.dumps(self.players), self.dealt

    @classmethod
    def stored(
        cls, seats: int, seed: str, algorithm: str | None, players: str | None, dealt: bool
    ) -> GameSeeds:
        """Back from the table's row (``algorithm`` ``NULL``: a game stored before fair deals)."""
        if algorithm is None:
            return cls(LEGACY, seed, [None] * seats, True)
        return cls(algorithm, seed, json.loads(players) if players else [None] * seats, dealt)

    # -- messages ------------------------------------------------------------------------------------

    def commitment_body(self, table_id: str, game_number: int, seats: list[int], wait_ms: int) -> bytes:
        return body_of_dict(
            {
                "type": "deal_commitment",
                "seq": 1,
                "table_id": table_id,
                "game_number": game_number,
                "algorithm": self.algorithm,
                "commitment": self.commitment,
                "seats": seats,
                "wait_ms": wait_ms,
            }
        )

    def contributed_body(self, table_id: str, seat: int) -> bytes:
        seed = self.players[seat]
        return body_of_dict(
            {"type": "seed_contributed", "seq": 1, "table_id": table_id, "seat": seat, "seed": seed}
        )

    def revealed_body(self, table_id: str, game_number: int, record_id: str | None) -> bytes:
        return body_of_dict(
            {
                "type": "deal_revealed",
                "seq": 1,
                "table_id": table_id,
                "game_number": game_number,
                **self.proof(),
                "record_id": record_id,
            }
        )


def _derived(fixed: str) -> bytes:
    return hashlib.sha256(f"boneyard-deal/fixed/{fixed}".encode()).digest()
