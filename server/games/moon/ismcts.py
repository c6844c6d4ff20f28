"""Information-Set Monte Carlo Tree Search for Moon card play (single observer, as Cowling et al. 2012).

PIMC (:mod:`.search`) solves each sampled world as if every hand were known, and so
credits the seat with plays that only work when it knows where the tiles are (*strategy
fusion*). ISMCTS grows one tree over the seat's information set instead: every
iteration draws a fresh world (:func:`~.worlds.worlds`), walks the tree by UCB among
the moves legal in that world (a move's *availability*, the iterations in which it was
legal, stands for its parent's visits), adds one node, finishes the hand with the
greedy playout (:func:`~.playout.play_out`) and backs each seat's judgement of the hand
(:func:`~.playout.outcome`) up the nodes where that seat moved. The seat's own later
moves and the others' replies are thus chosen from what each can know, not per world.

>>> import random
>>> from boneyard.server.games.base import RandomDealer
>>> from boneyard.server.games.moon.game import MoonGame
>>> from boneyard.server.games.moon import bot
>>> from boneyard.server.games.tiles import ALL_TILES
>>> game = MoonGame(dealer=RandomDealer(5))
>>> while game.view(game.to_move).phase != "playing":
...     _ = game.apply(game.to_move, bot.choose(game.view(game.to_move), random.Random(0)))
>>> view = game.view(game.to_move)
>>> move = best_move(view, random.Random(1), iterations=200, explore=3.0, infer=False)
>>> ALL_TILES[move] in view.hand
True
"""

from __future__ import annotations

import math
import random

from boneyard.server.games.moon.playout import outcome, play_out
from boneyard.server.games.moon.state import PLAYING
from boneyard.server.games.moon.view import MoonView
from boneyard.server.games.moon.worlds import state_at, worlds


class _Node:
    """The statistics of one move in the tree, from the side of the seat that made it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1


def best_move(view: MoonView, rng: random.Random, *, iterations: int, explore: float, infer: bool) -> int:
    """The tile id to play: the root move visited most in ``iterations`` iterations (``view`` is
    the seat's, in card play; ``explore`` is UCB's constant on the scale of :func:`outcome`)."""
    me = view.viewer
    assert me is not None
    root = _Node()
    for hands in worlds(view, rng, iterations, infer=infer):
        st = state_at(view, hands)
        node = root
        path: list[tuple[_Node, int]] = []
        while st.phase == PLAYING:
            seat = st.to_move
            moves = st.legal_moves()
            children = node.children
            fresh = [m for m in moves if m not in children]
            if fresh:
                move = fresh[int(rng.random() * len(fresh))]
                child = children[move] = _Node()
                for m in moves:
                    if m != move and m in children:
                        children[m].available += 1
                path.append((child, seat))
                st.push(move)
                break
            log_of = math.log
            best_key = -math.inf
            move = moves[0]
            for m in moves:
                c = children[m]
                c.available += 1
                key = c.total / c.visits + explore * math.sqrt(log_of(c.available) / c.visits)
                if key > best_key:
                    best_key, move = key, m
            node = children[move]
            path.append((node, seat))
            st.push(move)
        if st.phase == PLAYING:
            play_out(st)
        rewards = [outcome(st, s) for s in range(3)]
        for visited, seat in path:
            visited.visits += 1
            visited.total += rewards[seat]
    return max(root.children, key=lambda m: (root.children[m].visits, -m))
