"""Exact resumes after a crash: a seated player's message log, made again from the journal.

A graceful stop stores each session's message log; a crash (``kill -9``, power loss) leaves none.
But every accepted action is journaled before anyone hears of it, and a restore replays the game
through the match's own fan-out, which makes each action's messages again, byte for byte: its
events as each seat sees them, the next ``turn``, and the ``ok`` that answered a player's ``act``.
What the journal also needs is *where* those messages sat in each player's numbering: after each
action's messages are queued, its row gets, by seat, the ``(epoch, seq)`` of the last one
(:class:`Ends`; the epoch names the connection whose ``seq`` counts, as each connection numbers
from its ``hello``), one small ``UPDATE`` in the same commit as the action.

The log is rebuilt from the last action back, for as long as each action's messages follow the
previous action's with nothing between (the seq gap equals the count of messages made again): a
chat line, a ``seat_status``, a ``table_updated``, a reply to another command, or a message of
another table the player sits at in between, all sent but not journaled, stop it there, and so
does an action whose messages cannot be made again (the game's end; a hand-over ending). Whatever
the journal cannot place ends the log, so a resume asking for more gets a snapshot, as any resume
asking for more than the log holds.

>>> a = Sent(end=10, bodies=None)                  # journaled, but not made again: only a landmark
>>> b = Sent(end=12, bodies=(b"event", b"turn"))   # two messages, right after a's
>>> c = Sent(end=15, bodies=(b"event", b"turn"))   # three seqs later: something else came between
>>> d = Sent(end=17, bodies=(b"event", b"turn"))
>>> rebuilt([a, b])
(12, [b'event', b'turn'])
>>> rebuilt([a, b, c, d])
(17, [b'event', b'turn'])
>>> rebuilt([]) is None
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from boneyard.protocol.values import CommandId
from boneyard.server.wire import ok_body

SeatEnds = Sequence[tuple[int, int] | None]
"""By seat, the ``(epoch, seq)`` of an action's last message to the player there (``None``: no player)."""


@dataclass(frozen=True, slots=True)
class Ends:
    """Where one action's messages ended, as journaled."""

    reply_to: CommandId | None
    """The id of the ``act`` it answered with ``ok`` (``None``: a bot's, the server's, or no id)."""
    seats: tuple[tuple[int, int] | None, ...]


_COMPACT = json.JSONEncoder(separators=(",", ":")).encode
# One encoder for every action's ends: ``json.dumps`` with separators builds a new one per call.


def ends_json(reply_to: CommandId | None, ends: SeatEnds) -> str:
    """An action's ends as stored.

    >>> ends_json(7, [(12345, 40), None])
    '[7,[[12345,40],null]]'
    >>> parsed_ends(ends_json(7, [(12345, 40), None]))
    Ends(reply_to=7, seats=((12345, 40), None))
    >>> ends_json('a"b', [None]) == _COMPACT(['a"b', [None]])
    True
    """
    # Formatted by hand, not by the encoder: this runs for every action (2.2 against 0.9 us). The seats'
    # numbers are ints; an id that is not an int (a string, or None) is left to the encoder.
    seats = ",".join(["null" if end is None else f"[{end[0]},{end[1]}]" for end in ends])
    reply = reply_to if type(reply_to) is int else _COMPACT(reply_to)
    return f"[{reply},[{seats}]]"


def parsed_ends(text: str | None) -> Ends | None:
    """An action's ends as read back (``None``: journaled before there were ends, or never completed)."""
    if text is None:
        return None
    reply_to, seats = json.loads(text)
    return Ends(reply_to, tuple(None if s is None else (int(s[0]), int(s[1])) for s in seats))


@dataclass(frozen=True, slots=True)
class Sent:
    """One action's messages to one player: the ``seq`` of the last, and the messages made again
    (``None``: not made again, so the action only marks a known place in the numbering)."""

    end: int
    bodies: tuple[bytes, ...] | None


def sent_to(
    seat: int,
    epoch: int,
    actors: Sequence[int],
    ends: Sequence[Ends | None],
    regenerated: Sequence[dict[int, tuple[bytes, ...]] | None],
    regenerated_from: int,
) -> list[Sent]:
    """The actions of one table's game that ``seat``'s player got on the connection ``epoch``:
    ``actors`` and ``ends`` are every action's seat and ends, ``regenerated`` the messages made again
    from action ``regenerated_from`` on (:meth:`boneyard.server.match.Match.replay`)."""
    out = []
    for k, end in enumerate(ends):
        place = None if end is None or seat >= len(end.seats) else end.seats[seat]
        if end is None or place is None or place[0] != epoch:
            continue
        bodies: tuple[bytes, ...] | None = None
        made = regenerated[k - regenerated_from] if k >= regenerated_from else None
        if made is not None and seat in made:
            bodies = made[seat]
            if actors[k] == seat and end.reply_to is not None:
                bodies = (*bodies, ok_body(end.reply_to))
        out.append(Sent(place[1], bodies))
    return out


def rebuilt(sent: Iterable[Sent]) -> tuple[int, list[bytes]] | None:
    """From every table's :func:`sent_to` one player: the ``seq`` their last journaled message had,
    and the messages before it that follow one another with nothing unknown between (possibly none);
    ``None`` when the journal places no message of theirs."""
    order = sorted(sent, key=_end)
    if not order:
        return None
    chunks: list[tuple[bytes, ...]] = []
    for earlier, later in zip(reversed(order[:-1]), reversed(order), strict=False):
        if later.bodies is None or later.end - earlier.end != len(later.bodies):
            break
        chunks.append(later.bodies)
    return order[-1].end, [body for chunk in reversed(chunks) for body in chunk]


def _end(sent: Sent) -> int:
    return sent.end


def regenerate_from(actions: int, log_frames: int) -> int:
    """The first action worth making again: each action sends a seated player at least one message
    (its event or the next ``turn``), so only the last ``log_frames`` can fit in a log.

    >>> regenerate_from(100, 32), regenerate_from(5, 32)
    (68, 0)
    """
    return max(0, actions - log_frames)
