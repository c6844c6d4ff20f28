"""One line of words per server message (and per connection notice), for the scrolling log.

>>> from boneyard.clients.cli.core.mirror import TableMirror
>>> from boneyard.protocol.game import Passed
>>> plain(event_line(TableMirror("t1"), Passed(type="passed", seat=1)))
'seat 1 passes'
"""

from __future__ import annotations

from typing import Any

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.mirror import Mirror, TableMirror
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
    SeatStatus,
    SeedContributed,
    TableCreated,
    TableInfo,
    TableRemoved,
    TableUpdated,
    Welcome,
)
from boneyard.protocol.game import (
    EventMessageBase,
    GameOver,
    HandDealt,
    HandStarted,
    HandThrownIn,
    MoonTilePlayed,
    Passed,
)
from boneyard.protocol.ratings import RatingChanges
from boneyard.protocol.seeks import Seeks

__all__ = ["error_line", "event_line", "message_line", "plain", "winner_text"]


def game_title(game: str) -> str:
    """A game's short name for a heading (its wire name for a game this client does not know).

    >>> game_title("texas42"), game_title("dominion")
    ('Texas 42', 'dominion')
    """
    known = client_game(game)
    return known.title if known is not None else game


def teams(mirror: TableMirror) -> bool:
    """The table plays in partnerships (seats 0+2 against 1+3)."""
    view = mirror.view
    game = client_game(view.game) if view is not None else None
    return view is not None and game is not None and game.teams(view)


def side(mirror: TableMirror, index: int) -> str:
    """A scoring side: a team where the game has them, else a seat."""
    return team_label(mirror, index) if teams(mirror) else seat_label(mirror, index)


def score_list(mirror: TableMirror, values: Any) -> str:
    """``ana 3, bo 5``: a value per side."""
    return ", ".join(f"{side(mirror, i)} {v}" for i, v in enumerate(values))


def winner_text(mirror: TableMirror, event: GameOver) -> str:
    you = mirror.seat is not None and (
        event.winner == mirror.seat or (teams(mirror) and mirror.seat % 2 == event.winner)
    )
    return f"{side(mirror, event.winner)} wins{' — well played!' if you else ''}"


def event_line(mirror: TableMirror, event: Any) -> Fragments | None:
    """Words for a game event, or None for events that say nothing new to a person: the game's own
    events said by its module, the ones every game shares here."""
    game = client_game(mirror.view.game) if mirror.view is not None else None
    if game is None and mirror.table is not None:
        game = client_game(mirror.table.game)
    if game is not None:
        own = game.event_line(mirror, event)
        if own is not None:
            return own
    who = (lambda seat: seat_label(mirror, seat)) if mirror else str
    match event:
        case HandStarted(hand=hand, first=first):
            role = game.first_role if game is not None else "begins"
            return [("class:title", f"── Hand {hand + 1}: {who(first)} {role} ──")]
        case HandDealt(seat=seat, tiles=dealt) if dealt is not None and seat == mirror.seat:
            return [("", "You are dealt "), *tiles(dealt)]
        case Passed(seat=seat):
            return [("class:dim", f"{who(seat)} passes")]
        case HandThrownIn():
            return [("class:notice", "Everyone passed: the hand is thrown in and redealt")]
        case MoonTilePlayed(seat=seat, tile=t):
            return [("", f"{who(seat)} plays {tile_text(t)}")]
        case GameOver(scores=totals):
            said = winner_text(mirror, event)
            stop = "" if said.endswith("!") else "."  # "well played!", not "well played!."
            return [("class:title", f"Game over: {said}{stop}   Final scores: "),
                    ("class:score", score_list(mirror, totals))]  # fmt: skip
    return None


def action_event(event: Any) -> bool:
    """Whether an event reports a seat's action (the others follow from one): it names the seat whose
    move it was, and is not the result of a trick or of a hand."""
    return isinstance(getattr(event, "seat", None), int) and event.type not in NOT_ACTIONS


NOT_ACTIONS = frozenset({"hand_dealt", "trick_won", "domino", "hand_started", "widow_taken"})
"""Events with a seat that are not that seat's own action."""


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
        case EventMessageBase():
            line = event_line(mirror.table(message.table_id), message.event)
            if line is not None and message.auto and action_event(message.event):
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
