"""One line of words per server message (and per connection notice), for the scrolling log.

>>> from boneyard.clients.cli.core.mirror import TableMirror
>>> from boneyard.protocol.game import BidMade
>>> plain(event_line(TableMirror("t1"), BidMade(type="bid_made", seat=1, bid=5)))
'seat 1 bids 5'
"""

from __future__ import annotations

from typing import Any

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.mirror import Mirror, TableMirror
from boneyard.clients.cli.core.rules import trump_word
from boneyard.clients.cli.core.session import Notice
from boneyard.clients.cli.ui.render import (
    Fragments,
    plain,
    seat_label,
    table_line,
    team_label,
    tile_text,
    tiles,
)
from boneyard.protocol import (
    ChatMessage,
    DealCommitment,
    DealRevealed,
    Error,
    HandPause,
    LobbyChanged,
    MoonEventMessage,
    SeatStatus,
    SeedContributed,
    StraightEventMessage,
    TableCreated,
    TableInfo,
    TableRemoved,
    TableUpdated,
    Welcome,
)
from boneyard.protocol.game import (
    BidMade,
    Blocked,
    Discarded,
    Domino,
    GameOver,
    HandDealt,
    HandStarted,
    HandThrownIn,
    MoonHandScored,
    MoonTilePlayed,
    Passed,
    StraightHandScored,
    StraightTilePlayed,
    TileDrawn,
    TrickWon,
    TrumpNamed,
    WidowTaken,
)
from boneyard.protocol.ratings import RatingChanges
from boneyard.protocol.seeks import Seeks

__all__ = ["error_line", "event_line", "message_line", "plain", "winner_text"]


GAME_TITLES = {"moon": "Moon", "straight": "Straight", "texas42": "Texas 42"}


def game_title(game: str) -> str:
    """A game's short name for a heading (its wire name for a game this client does not know).

    >>> game_title("texas42"), game_title("dominion")
    ('Texas 42', 'dominion')
    """
    return GAME_TITLES.get(game, game)


def _teams(mirror: TableMirror) -> bool:
    view = mirror.view
    return bool(getattr(view, "partnerships", False))


def _side(mirror: TableMirror, index: int) -> str:
    return team_label(mirror, index) if _teams(mirror) else seat_label(mirror, index)


def _score_list(mirror: TableMirror, values: Any) -> str:
    return ", ".join(f"{_side(mirror, i)} {v}" for i, v in enumerate(values))


def winner_text(mirror: TableMirror, event: GameOver) -> str:
    you = mirror.seat is not None and (
        event.winner == mirror.seat or (_teams(mirror) and mirror.seat % 2 == event.winner)
    )
    return f"{_side(mirror, event.winner)} wins{' — well played!' if you else ''}"


def event_line(mirror: TableMirror, event: Any) -> Fragments | None:
    """Words for a game event, or None for events that say nothing new to a person."""
    who = (lambda seat: seat_label(mirror, seat)) if mirror else str
    match event:
        case HandStarted(hand=hand, first=first):
            role = "bids first" if mirror.view is None or mirror.view.game == "moon" else "leads"
            return [("class:title", f"── Hand {hand + 1}: {who(first)} {role} ──")]
        case HandDealt(seat=seat, tiles=dealt) if dealt is not None and seat == mirror.seat:
            return [("", "You are dealt "), *tiles(dealt)]
        case HandDealt():
            return None
        case BidMade(seat=seat, bid=bid):
            return [("", f"{who(seat)} bids {bid}")]
        case Passed(seat=seat):
            return [("class:dim", f"{who(seat)} passes")]
        case HandThrownIn():
            return [("class:notice", "Everyone passed: the hand is thrown in and redealt")]
        case WidowTaken(seat=seat, tile=t):
            return [("", f"{who(seat)} takes the widow{' ' + tile_text(t) if t else ''}")]
        case Discarded(seat=seat, tile=t):
            return [("", f"{who(seat)} discards {tile_text(t) if t else 'a tile face down'}")]
        case TrumpNamed(seat=seat, trump=trump):
            return [("class:trump", f"{who(seat)} names trump: {trump_word(trump)}")]
        case MoonTilePlayed(seat=seat, tile=t):
            return [("", f"{who(seat)} plays {tile_text(t)}")]
        case TrickWon(seat=seat, tiles=played, tricks=taken):
            return [("class:good" if seat == mirror.seat else "", f"{who(seat)} takes the trick "),
                    *tiles(played), ("class:dim", f"   tricks: {_score_list(mirror, taken)}")]  # fmt: skip
        case MoonHandScored(bidder=bidder, bid=bid, tricks=taken, points=points, scores=totals):
            made = points[bidder] > 0
            verdict = ("class:good", "made it") if made else ("class:bad", "went set")
            summary = f"   points: {_score_list(mirror, points)}   scores: {_score_list(mirror, totals)}"
            head = f"Hand scored: {who(bidder)} bid {bid}, took {taken[bidder]}: "
            return [("class:title", head), verdict, ("", summary)]
        case StraightTilePlayed(seat=seat, tile=t, end=end, count=count, points=points):
            where = f" on the {end} end" if end else " to open"
            scored = [("class:good", f"   scores {points}!")] if points else []
            return [("", f"{who(seat)} plays {tile_text(t)}{where}"), ("class:dim", f"   count {count}"),
                    *scored]  # fmt: skip
        case TileDrawn(seat=seat, tile=t, boneyard=left):
            return [("class:dim", f"{who(seat)} draws {tile_text(t)} ({left} left in the boneyard)")]
        case Domino(seat=seat):
            return [("class:title", f"{who(seat)} dominoes!")]
        case Blocked():
            return [("class:notice", "The hand is blocked: nobody can play")]
        case StraightHandScored(winners=winners, points=points, pips=left, scores=totals):
            names = " and ".join(_side(mirror, w) for w in winners) or "nobody"
            award = max(points) if points else 0
            pips = ", ".join(f"{mirror.seat_name(s)} {p}" for s, p in enumerate(left))
            return [("class:title", f"Hand scored: {names} +{award}"), ("class:dim", f"   pips left: {pips}"),
                    ("", f"   scores: {_score_list(mirror, totals)}")]  # fmt: skip
        case GameOver(scores=totals):
            said = winner_text(mirror, event)
            stop = "" if said.endswith("!") else "."  # "well played!", not "well played!."
            return [("class:title", f"Game over: {said}{stop}   Final scores: "),
                    ("class:score", _score_list(mirror, totals))]  # fmt: skip
    return None


ACTION_EVENTS = (BidMade, Passed, Discarded, TrumpNamed, MoonTilePlayed, StraightTilePlayed, TileDrawn)
"""The events that report a seat's action (the others follow from one)."""


def message_line(mirror: Mirror, message: Any) -> Fragments | None:
    """Words for any server message or notice; None for the ones shown another way (snapshot, turn)."""
    match message:
        case Notice(kind=kind, text=text):
            style = "class:error" if kind in ("closed", "disconnected", "resume_rejected") else "class:notice"
            return [(style, f"[{kind}] {text}")]
        case Welcome(name=name, resumed=resumed):
            return [("class:notice", f"{'Resumed' if resumed else 'Connected'} as {name}")]
        case Error(code=code, message=text):
            return error_line(CommandError(code, text))
        case MoonEventMessage() | StraightEventMessage():
            line = event_line(mirror.table(message.table_id), message.event)
            if line is not None and message.auto and isinstance(message.event, ACTION_EVENTS):
                line.append(("class:notice", "   (the server played for them)"))
            return line
        case TableCreated(table=table):
            return [("class:dim", "new table: "), *table_line(table)]
        case TableUpdated(table=table):
            return [("class:dim", "table: "), *table_line(table)]
        case TableRemoved(table_id=table_id):
            return [("class:dim", f"table {table_id} is gone")]
        case LobbyChanged(tables=tables, removed=removed):
            return _lobby_changes(tables, removed)
        case SeatStatus(table_id=table_id, seat=seat, connected=connected, auto=auto):
            mirror_ = mirror.table(table_id)
            state = "is connected" if connected else "is away"
            played = ", the server plays for them" if auto else ""
            return [("class:notice", f"{seat_label(mirror_, seat)} {state}{played}")]
        case ChatMessage(name=name, text=text):
            return [("class:chat", f"<{name}> {text}")]
        case DealCommitment() | SeedContributed() | DealRevealed():
            return _deal_line(mirror.table(message.table_id), message)
        case HandPause(table_id=table_id, pause=pause):
            return pause_line(mirror.table(table_id), pause)
        case Seeks(seeking=seeking):
            return [("class:dim", seeking_text(seeking))]
        case RatingChanges(changes=changes):
            return [("class:notice", "ratings: " + ", ".join(rating_change_text(c) for c in changes))]
    return None


def seeking_text(seeking: Any) -> str:
    """``2 seeking moon (rated), 1 seeking straight-2``: the lobby's matchmaking (feature ``seeks``)."""
    if not seeking:
        return "nobody seeking a game"
    return ", ".join(f"{c.players} seeking {c.kind}{' (rated)' if c.rated else ''}" for c in seeking)


def rating_change_text(change: Any) -> str:
    """``ana 1500 -> 1672?`` (a ``?``: provisional)."""
    return f"{change.player} {change.before} -> {change.after}{'?' if change.provisional else ''}"


def pause_line(mirror: TableMirror, pause: Any) -> Fragments:
    """The pause between hands: when the next hand comes, and whom it waits for."""
    waiting = ", ".join(seat_label(mirror, s) for s in pause.waiting)
    after = f", or once {waiting} {'is' if len(pause.waiting) == 1 else 'are'} ready" if waiting else ""
    return [("class:dim", f"next hand in {pause.time_left_ms / 1000:.0f} s{after}")]


def _deal_line(mirror: TableMirror, message: Any) -> Fragments:
    """Fair deals: the commitment, each seed announced, and at the end the client's own check."""
    if isinstance(message, DealCommitment):
        wait = (
            f"; waiting up to {message.wait_ms / 1000:g} s for the players' seeds" if message.wait_ms else ""
        )
        return [("class:dim", f"deal committed: {message.commitment[:16]}… ({message.algorithm}){wait}")]
    if isinstance(message, SeedContributed):
        return [("class:dim", f"{seat_label(mirror, message.seat)} added a seed to the deal")]
    verdict = mirror.deals.verdict if mirror.deals is not None else None
    if verdict is None:
        return [("class:dim", "deal seeds revealed")]
    return [("class:notice" if verdict.ok else "class:error", verdict.text())]


LOBBY_LINES = 3
"""A push with more changed tables than this is summed up in one line (``list`` shows them all)."""


def _lobby_changes(tables: tuple[TableInfo, ...], removed: tuple[str, ...]) -> Fragments | None:
    """The lobby's news: a few tables line by line, many as a count."""
    if len(tables) + len(removed) > LOBBY_LINES:
        news = f"{len(tables)} tables new or changed, {len(removed)} gone (`list` shows them)"
        return [("class:dim", news)]
    lines: Fragments = []
    for table in tables:
        lines += [("class:dim", "\n" if lines else ""), ("class:dim", "lobby: "), *table_line(table)]
    for table_id in removed:
        lines += [("class:dim", f"{chr(10) if lines else ''}lobby: table {table_id} is gone")]
    return lines or None


def error_line(error: CommandError) -> Fragments:
    return [("class:error", "Error: "), ("", error.explain())]
