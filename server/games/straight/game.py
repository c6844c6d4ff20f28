"""The Straight Dominoes engine: :class:`StraightGame` and :class:`StraightOptions`.

>>> from boneyard.server.games.base import RandomDealer
>>> game = StraightGame(StraightOptions(players=2, target=100), RandomDealer(1))
>>> game.players, game.partnerships, game.hand_number, game.boneyard_count, game.scores
(2, False, 0, 14, (0, 0))
>>> seat = game.to_move
>>> events = game.apply(seat, game.legal_actions(seat)[0])
>>> events[0].type, game.to_move == 1 - seat
('tile_played', True)

Bots search through the lean path of :class:`~server.games.straight.core.StraightCore`
(``copy()``, ``legal_codes()``, ``push(code)``, ``playout(rng)``): the same rule code without events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from boneyard.server.games.base import Dealer, Event, IllegalAction, Viewer, either
from boneyard.server.games.straight.actions import ACTION_OF, Action, code_of
from boneyard.server.games.straight.core import BLOCKED, DOMINO, TARGET, StraightCore
from boneyard.server.games.straight.events import (
    Blocked,
    Domino,
    GameOver,
    HandDealt,
    HandScored,
    HandStarted,
    Passed,
    TileDrawn,
    TilePlayed,
)
from boneyard.server.games.straight.layout import DRAW, END_NAMES, OPENING, decode
from boneyard.server.games.straight.options import StraightOptions
from boneyard.server.games.straight.record import hand_record
from boneyard.server.games.straight.view import StraightView, layout_view
from boneyard.server.games.tiles import ALL_TILES, Tile, fmt, tiles_of


class StraightGame(StraightCore):
    """A whole game of Straight Dominoes, hand after hand, until a side reaches the target.

    The first hand is dealt on construction; its events are :meth:`opening_events`.
    """

    game: ClassVar[str] = "straight"

    __slots__ = ("_held", "_hold", "_opening")

    def __init__(
        self,
        options: StraightOptions | None = None,
        dealer: Dealer | None = None,
        *,
        hold_deals: bool = False,
    ) -> None:
        super().__init__(options, dealer)
        self._opening: list[Event] = self._deal_events()
        self._hold = hold_deals
        """Rest between hands until :meth:`deal_next` (a server pausing between hands); otherwise the
        next hand is dealt at once, in the same ``apply``."""
        self._held = False
        """A hand is over and the next one is held back."""

    @property
    def between_hands(self) -> bool:
        """A hand is over and the next is not dealt yet (only with ``hold_deals``)."""
        return self._held

    def deal_next(self) -> list[Event]:
        """Deal the hand held back (``hold_deals``): its ``hand_started`` and ``hand_dealt`` events."""
        if not self._held:
            raise ValueError("no hand is waiting to be dealt")
        self._held = False
        self._start_hand()
        return self._deal_events()

    def opening_events(self) -> list[Event]:
        """``HandStarted`` and ``HandDealt`` events of hand 0."""
        return list(self._opening)

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now; empty when it is not that seat's turn or the game is over."""
        if seat != self._turn:
            return []
        of = ACTION_OF
        return [of[c] for c in self.legal_codes()]

    # ----- the public path ----------------------------------------------------------------------

    def check_turn(self, seat: int) -> None:
        if self._winner is not None:
            raise IllegalAction("the game is over", "game_over")
        if self._held:
            raise IllegalAction("the hand is over: the next one is not dealt yet", "not_your_turn")
        if seat != self._turn:
            who = "no one" if self._turn < 0 else f"seat {self._turn}"
            raise IllegalAction(f"it is {who}'s turn, not yours (seat {seat})", "not_your_turn")

    def apply(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Take ``action`` for ``seat``; if it is illegal, raise :class:`IllegalAction` and change nothing."""
        self.check_turn(seat)
        code = code_of(action)
        if code is None:
            raise IllegalAction(f"{action!r} is not a Straight action")
        if not self.is_legal(code):
            raise IllegalAction(self._why(seat, code))
        out = self._step(seat, code, auto)
        if code >= 0:
            tid, end = decode(code)
            scores = tuple(self._scores)
            if out == DOMINO and self._last_award is not None:  # the play's scores come before the award
                scores = tuple(s - p for s, p in zip(scores, self._last_award.points, strict=True))
            played = TilePlayed(
                seat,
                ALL_TILES[tid],
                None if end == OPENING else END_NAMES[end],
                self._last_count,
                self._last_points,
                scores,
            )
            if out == TARGET:
                return [played, self._game_over()]
            if out == DOMINO:
                return [played, Domino(seat), *self._hand_end_events()]
            return [played]
        if code == DRAW:
            return [TileDrawn(seat, ALL_TILES[self._bone[self._bpos - 1]], self.boneyard_count)]
        if out == BLOCKED:
            return [Passed(seat), Blocked(), *self._hand_end_events()]
        return [Passed(seat)]

    def _why(self, seat: int, code: int) -> str:
        """Says why a well-formed but illegal action is not allowed."""
        hand = self._hands[seat]
        playable = self._layout.playable(hand)
        if code < 0:  # a draw or a pass
            actions = self._log.actions
            if playable and actions and actions[-1][0] == seat and actions[-1][1] == DRAW:
                drawn = fmt(ALL_TILES[self._bone[self._bpos - 1]])
                return f"you drew {drawn}, which fits: you must play it"
            if playable:
                verb = "draw" if code == DRAW else "pass"
                if self._layout.empty:
                    return f"you lead: play any of your tiles, you may not {verb}"
                tiles = either([fmt(t) for t in tiles_of(playable)])
                return f"you may not {verb} while you hold a tile that fits: play {tiles}"
            if code == DRAW:
                return "the boneyard is empty: you must pass"
            return f"the boneyard still holds {self.boneyard_count} tiles: you must draw"
        tid, end = decode(code)
        if not hand >> tid & 1:
            return f"you do not hold {fmt(ALL_TILES[tid])}"
        return self._layout.explain(tid, None if end == OPENING else end) or "not a legal play"

    def _game_over(self) -> GameOver:
        assert self._winner is not None
        return GameOver(self._winner, tuple(self._scores))

    def _hand_end_events(self) -> list[Event]:
        result = self._last_award
        assert result is not None
        scored = HandScored(
            result.winner,
            result.points,
            self._last_pips,
            tuple(tuple(tiles_of(h)) for h in self._hands),
            tuple(self._scores),
            result.winners,
        )
        if self._winner is not None:
            return [scored, self._game_over()]
        if self._dealer is None:  # a copy made for search stops at the end of its hand
            return [scored]
        if self._hold:
            self._held = True
            return [scored]
        self._start_hand()
        return [scored, *self._deal_events()]

    def _deal_events(self) -> list[Event]:
        log = self._log
        started = HandStarted(self._hand, self._leader, self.tile_counts, self.boneyard_count)
        return [started, *(HandDealt(s, tuple(ALL_TILES[t] for t in ids)) for s, ids in enumerate(log.deal))]

    # ----- views and records ----------------------------------------------------------------------

    def hand_of(self, seat: int) -> tuple[Tile, ...]:
        """``seat``'s tiles, sorted (server side only: secret to everyone else)."""
        return tuple(tiles_of(self._hands[seat]))

    def view(self, viewer: Viewer) -> StraightView:
        """The state as ``viewer`` may know it: own tiles, others' counts, the table, own legal actions."""
        own = viewer is not None and 0 <= viewer < self._n
        return StraightView(
            viewer=viewer,
            hand_number=self._hand,
            players=self._n,
            partnerships=self._teams,
            target=self._target,
            hand=self.hand_of(viewer) if own and viewer is not None else (),
            tile_counts=self.tile_counts,
            boneyard=self.boneyard_count,
            layout=layout_view(self._log.plays()),
            count=self._layout.count,
            scores=self.scores,
            leader=self._leader,
            to_move=self.to_move,
            legal_actions=tuple(self.legal_actions(viewer)) if own and viewer is not None else (),
            is_over=self.is_over,
            winner=self._winner,
            history=tuple((seat, code) for seat, code, _ in self._log.actions),
        )

    def record(self, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game so far as a ``boneyard-record/1`` object (secret until the game ends)."""
        out: dict[str, Any] = {
            "format": "boneyard-record/1",
            "game": self.game,
            "players": self._n,
            "options": self._opts.as_dict(),
        }
        if seat_names is not None:
            out["seat_names"] = list(seat_names)
        out["hands"] = [hand_record(log, self.scores) for log in self._logs]
        if self._winner is not None:
            out["final_scores"] = list(self._scores)
            out["winner"] = self._winner
        return out


__all__ = ["StraightGame", "StraightOptions"]
