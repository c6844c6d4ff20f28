"""The client's basic bot, for ``--auto``: it picks one of the legal actions the server offered.

Why not the server's bot? ``boneyard.server.games`` bots read an *engine* view (Straight's needs the
engine's own layout object to weigh a play), which a client cannot build from the wire
without reaching into the server's internals. This bot reads only the mirror, like any
third-party client would, and never invents an action: it only chooses among
``view.legal_actions``. It plays sensibly, not well.

>>> from boneyard.protocol import PassAction, BidAction
>>> choose_moon_bid([(6, 6), (6, 5), (6, 4), (6, 3), (5, 5), (2, 1), (3, 1)],
...                 [PassAction(type="pass"), BidAction(type="bid", bid=4), BidAction(type="bid", bid=5)])
BidAction(type='bid', bid=4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from boneyard.clients.cli.core import layout as layouts
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import View
from boneyard.clients.cli.core.rules import Tile, is_double, is_trump, led_suit, pips, power
from boneyard.protocol import (
    BidAction,
    DiscardAction,
    MoonView,
    PassAction,
    PlayAction,
    StraightView,
    TexasView,
    TrumpAction,
)

TRUMP_CHOICES: tuple[int | str, ...] = (6, 5, 4, 3, 2, 1, "doubles")


def _trump_strength(hand: Sequence[Tile], trump: int | str) -> float:
    # Trumps win tricks; top trumps and off-suit doubles win more often.
    trumps = [t for t in hand if is_trump(t, trump)]
    top = sum(1 for t in trumps if power(t, trump, "trump") >= 105)
    doubles = sum(1 for t in hand if is_double(t) and not is_trump(t, trump))
    return len(trumps) * 0.6 + top * 0.5 + doubles * 0.5


def best_trump(hand: Sequence[Tile]) -> int | str:
    return max(TRUMP_CHOICES, key=lambda t: _trump_strength(hand, t))


def choose_moon_bid(hand: Sequence[Tile], legal: Sequence[Any]) -> Any:
    estimate = _trump_strength(hand, best_trump(hand)) + 0.8  # the widow helps a little
    bids = sorted((a for a in legal if isinstance(a, BidAction)), key=lambda a: a.bid)
    affordable = [a for a in bids if a.bid <= estimate and a.bid != 21]
    if affordable:
        return affordable[-1]
    passes = [a for a in legal if isinstance(a, PassAction)]
    return passes[0] if passes else bids[0]  # force_last: the cheapest bid


def choose_trick_game(view: MoonView | TexasView, legal: Sequence[Any]) -> Any:
    """Moon's basic player; it fits Texas 42 too (it bids what it can afford, else passes or makes the
    lowest bid; names its best trump; takes a trick as cheaply as it can)."""
    if view.phase == "bidding":
        return choose_moon_bid(view.hand, legal)
    if view.phase == "discarding":
        best = best_trump(view.hand)
        discards = [a for a in legal if isinstance(a, DiscardAction)]
        return min(discards, key=lambda a: (is_trump(a.tile, best), is_double(a.tile), pips(a.tile)))
    if view.phase == "naming_trump":
        best = best_trump(view.hand)
        named = [a for a in legal if isinstance(a, TrumpAction) and a.trump == best]
        return named[0] if named else legal[0]
    plays = [a for a in legal if isinstance(a, PlayAction)]
    if not plays:
        return legal[0]
    trump: int | str | None = view.trump
    if not view.trick:  # leading: strongest tile, hoping to take the trick
        return max(plays, key=lambda a: power(a.tile, trump, led_suit(a.tile, trump)))
    led = led_suit(view.trick[0][1], trump)
    top = max(power(tile, trump, led) for _, tile in view.trick)
    winners = [a for a in plays if power(a.tile, trump, led) > top]
    if winners:  # the cheapest tile that wins
        return min(winners, key=lambda a: power(a.tile, trump, led))
    return min(plays, key=lambda a: (is_trump(a.tile, trump), pips(a.tile)))


def choose_straight(view: StraightView, legal: Sequence[Any], rng: random.Random) -> Any:
    plays = [a for a in legal if isinstance(a, PlayAction)]
    if not plays:
        return legal[0]  # a draw or a pass: the only thing to do

    def value(action: PlayAction) -> tuple[int, int, float]:
        count = layouts.count_after(view.layout, action.tile, action.end)
        scored = count if count and count % 5 == 0 else 0
        return (scored, pips(action.tile), rng.random())

    return max(plays, key=value)


def choose(view: View, rng: random.Random | None = None) -> Any:
    """One of ``view.legal_actions``, by the view's game's own player; ValueError when there is none
    (not our turn) or the game is one this client does not know."""
    if not view.legal_actions:
        raise ValueError("no legal action to choose from")
    game = client_game(view.game)
    if game is None:
        raise ValueError(f"no player for {view.game}")
    return game.choose(view, rng or random.Random())
