"""Checking fair deals from the client's side: what it saw of a game, against the seeds revealed after it.

A :class:`DealWitness` follows one game at one table (the :class:`~clients.cli.core.mirror.Mirror`
keeps one per table and feeds it every message). It notes the commitment that came before the first
deal, every seed announced, the seed it sent itself, and every tile it saw: its own hands, Moon's
widow if it took it, its own draws (and where in the boneyard each seat's draw came from), every tile
played or discarded. When ``deal_revealed`` arrives it recomputes each hand it saw with
:mod:`boneyard.protocol.fairness` and says what does not match, if anything (:class:`Verdict`).

>>> from boneyard.protocol import DealCommitment, DealRevealed
>>> from boneyard.protocol.fairness import commitment
>>> server = "00" * 32
>>> witness = DealWitness(None, DealCommitment(type="deal_commitment", seq=1, table_id="t1",
...     game_number=1, algorithm="boneyard-deal/1", commitment=commitment(bytes(32)), seats=(), wait_ms=0))
>>> witness.apply(DealRevealed(type="deal_revealed", seq=2, table_id="t1", game_number=1,
...     algorithm="boneyard-deal/1", commitment=commitment(bytes(32)), server_seed=server,
...     player_seeds=(None, None, None)))
>>> witness.verdict.text()
'deals not checked: no hand was seen from its deal'
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from boneyard.clients.cli.core.rules import Tile, tile_word
from boneyard.protocol import DealCommitment, DealRevealed, GameEvent, SeedContributed
from boneyard.protocol import fairness as fair
from boneyard.protocol.game import (
    Blocked,
    Discarded,
    Domino,
    HandDealt,
    HandStarted,
    TileDrawn,
    WidowTaken,
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The check of one game's deals: ``ok``, or each problem in words."""

    problems: tuple[str, ...]
    hands: int
    """Hands this client saw and checked."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        """One line: ``deals verified (N hands seen)``, ``deals not checked: ...`` when no hand was seen
        from its deal (joined or back with a fresh snapshot mid-hand), or ``deals NOT verified: ...``."""
        if self.ok and not self.hands:
            return "deals not checked: no hand was seen from its deal"
        if self.ok:
            return f"deals verified ({self.hands} hand{'' if self.hands == 1 else 's'} seen)"
        return "deals NOT verified: " + "; ".join(self.problems)


@dataclass
class HandSeen:
    """One hand as this client saw it."""

    number: int
    first: int
    boneyard: int
    """Straight: the boneyard's size after the deal."""
    chance: bool
    """The rules left the first player to chance (so the seeds chose it)."""
    dealt: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    widow: tuple[int, Tile | None] | None = None
    """Moon: who took the widow, and the tile if it was shown to us."""
    draws: list[tuple[int, int, Tile | None]] = field(default_factory=list)
    """``(position in the boneyard, seat, tile or None if not shown)``."""
    shown: list[tuple[int, Tile, str]] = field(default_factory=list)
    """Tiles seats were seen to hold: ``(seat, tile, how)`` for plays and discards."""
    gap: bool = False
    """Some of the hand's events were missed (a fresh snapshot after a reconnection): who held what
    is not followed any further (a widow taken unseen would look like a tile from nowhere)."""


@dataclass
class DealWitness:
    """What one client saw of one game's deals (see the module's docstring)."""

    seat: int | None
    commitment: DealCommitment | None
    """The commitment that came before the first deal (``None``: we saw none)."""
    game: str | None = None
    announced: dict[int, str] = field(default_factory=dict)
    sent: str | None = None
    """The seed this client contributed (and the server did not refuse)."""
    players: int | None = None
    """The table's number of seats, when known: the reveal must have a seed (or ``null``) for each."""
    fixed_seed: bool = False
    """The server deals from a fixed seed (its ``hello`` said ``fixed_seed``): nothing is proved."""
    hands: list[HandSeen] = field(default_factory=list)
    verdict: Verdict | None = None
    _blocked: bool = False
    _current: HandSeen | None = None

    def apply(self, message: Any, game: str | None = None) -> None:
        """Note a table message (``game``: the game's name, for events)."""
        if isinstance(message, SeedContributed):
            self.announced[message.seat] = message.seed
        elif isinstance(message, DealRevealed):
            self.verdict = self.check(message)
        elif game is not None:
            self.game = game
            self._event(message)

    def resync(self, hand_number: int | None) -> None:
        """A snapshot replaced the picture (after a reconnection): events may have been missed."""
        if self.hands and self.hands[-1].number == hand_number:
            self.hands[-1].gap = True
        elif self.hands or hand_number is not None:
            self._current = None  # a hand started unseen: not checked

    def _event(self, event: Any) -> None:
        if isinstance(event, HandStarted):
            # The rules leave the first player to chance in a game's first hand, and after a blocked
            # hand (only Straight's hands block).
            chance = event.hand == 0 or self._blocked
            self._current = HandSeen(event.hand, event.first, event.boneyard, chance)
            self.hands.append(self._current)
            self._blocked = False
            return
        if isinstance(event, Blocked | Domino):
            self._blocked = isinstance(event, Blocked)
        hand = self._current
        if hand is None:
            return  # joined mid-hand: this hand is not checked
        if isinstance(event, HandDealt) and event.tiles is not None:
            hand.dealt[event.seat] = tuple(event.tiles)
        elif isinstance(event, WidowTaken):
            hand.widow = (event.seat, event.tile)
        elif isinstance(event, TileDrawn):
            hand.draws.append((hand.boneyard - event.boneyard - 1, event.seat, event.tile))
        elif hand.gap:
            return
        elif isinstance(event, GameEvent) and event.type == "tile_played":  # every game's play names these
            hand.shown.append((getattr(event, "seat"), getattr(event, "tile"), "played"))  # noqa: B009
        elif isinstance(event, Discarded) and event.tile is not None:
            hand.shown.append((event.seat, event.tile, "discarded"))

    # -- the check ----------------------------------------------------------------------------------

    def check(self, reveal: DealRevealed) -> Verdict:
        problems = self._seed_problems(reveal)
        seats = len(reveal.player_seeds)
        game = self.game
        rule = fair.deal_rule(game) if game is not None else None
        if problems or rule is None:  # a game whose deals the protocol does not say
            return Verdict(tuple(problems), 0)
        server = bytes.fromhex(reveal.server_seed)
        players = [None if s is None else bytes.fromhex(s) for s in reveal.player_seeds]
        for hand in self.hands:
            problems += _hand_problems(hand, fair.deal(rule, seats, server, players, hand.number))
        return Verdict(tuple(problems), len(self.hands))

    def _seed_problems(self, reveal: DealRevealed) -> list[str]:
        problems: list[str] = []
        if self.fixed_seed:
            problems.append("not fair: the server seed is fixed (a test setting): every deal was predictable")
        if reveal.algorithm != fair.ALGORITHM:
            problems.append(f"the deals used {reveal.algorithm!r}, which this client does not know")
        if self.commitment is None:
            problems.append("no commitment came before the deal (joined late?): cannot tell it was fixed")
        elif self.commitment.commitment != reveal.commitment:
            problems.append(
                f"the server committed to {self.commitment.commitment} before the deal but reveals it "
                f"committed to {reveal.commitment}"
            )
        if fair.commitment(bytes.fromhex(reveal.server_seed)) != reveal.commitment:
            problems.append("SHA-256 of the revealed server seed is not the commitment")
        # A server that left out seeds it had seen could choose among the deals of each subset of them:
        # each seed announced must be in the reveal, each revealed seed must have been announced.
        count = len(reveal.player_seeds)
        if self.players is not None and count != self.players:
            problems.append(f"the reveal has {count} players' seeds for a table of {self.players} seats")
        for seat in sorted(s for s in self.announced if s >= count):
            said = self.announced[seat]
            problems.append(f"seat {seat}'s seed was announced as {said} but is not in the reveal")
        for seat, seed in enumerate(reveal.player_seeds):
            if self.announced.get(seat) != seed:
                said = self.announced.get(seat) or "none"
                problems.append(
                    f"seat {seat}'s seed was announced as {said} but revealed as {seed or 'none'}"
                )
        if self.sent is not None and self.seat is not None:
            revealed = reveal.player_seeds[self.seat] if self.seat < len(reveal.player_seeds) else None
            if revealed != self.sent:
                problems.append(f"our seed {self.sent} was not used (the reveal has {revealed or 'none'})")
        return problems


def _fmt(tiles: Any) -> str:
    return " ".join(map(tile_word, tiles))


def _hand_problems(hand: HandSeen, deal: fair.Deal) -> list[str]:
    where = f"hand {hand.number}"  # numbered from 0, as the protocol does
    problems: list[str] = []
    # A seat beyond the reveal's seats (a reveal of too few seeds) holds nothing the seeds gave.
    holds: defaultdict[int, set[Tile]] = defaultdict(set, enumerate(map(set, deal.hands)))
    for seat, tiles in hand.dealt.items():
        dealt = sorted(holds[seat])
        if sorted(tiles) != dealt:
            problems.append(
                f"{where}: seat {seat} was dealt {_fmt(sorted(tiles))}, the seeds deal {_fmt(dealt)}"
            )
    if hand.chance and hand.first != deal.chance_first:
        problems.append(f"{where}: seat {hand.first} went first, the seeds chose seat {deal.chance_first}")
    if hand.widow is not None:
        seat, widow = hand.widow
        if widow is not None and widow != deal.rest[0]:
            problems.append(f"{where}: the widow was {_fmt([widow])}, the seeds deal {_fmt(deal.rest)}")
        holds[seat].add(deal.rest[0])
    for position, seat, tile in hand.draws:
        want = deal.rest[position] if 0 <= position < len(deal.rest) else None
        if tile is not None and tile != want:
            problems.append(
                f"{where}: the draw from boneyard position {position} was {_fmt([tile])}, the seeds "
                f"put {_fmt([want]) if want else 'nothing'} there"
            )
        if want is not None:
            holds[seat].add(want)
    for seat, tile, how in hand.shown:
        if tile not in holds[seat]:
            problems.append(f"{where}: seat {seat} {how} {_fmt([tile])}, which the seeds never gave it")
    return problems
