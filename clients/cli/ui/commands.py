"""What the player types, turned into an action or a session command.

At the table a move is chosen by its number in the list of legal moves, or by naming it:
a tile as ``6-4``, ``64``, ``6|4`` or ``[6|4]`` (either order), with the end in Straight
(``64 left``, ``64 l``) when it fits more than one; ``pass``, ``draw``, ``bid 5``,
``trump 6`` / ``trump doubles`` / ``trump none``, ``discard 31``. A tile of the hand that is not a
legal move now is sent all the same, so that the server's refusal says why (``you must follow 5s``);
a tile not in the hand, and anything malformed, is refused here.

>>> from boneyard.protocol import PlayAction
>>> legal = [PlayAction(type="play", tile=(6, 4), end=end) for end in ("left", "right")]
>>> parse_move("1 right", legal, hand=[(6, 4), (2, 1)])
PlayAction(type='play', tile=(6, 4), end='right')
>>> parse_move("46 l", legal)
PlayAction(type='play', tile=(6, 4), end='left')
>>> parse_move("64", legal)
Traceback (most recent call last):
boneyard.clients.cli.ui.commands.InputError: [6|4] fits left or right: say which, e.g. `64 left`
>>> parse_tile("[5|3]")
(5, 3)
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.clients.cli.core.rules import Tile, tile_word
from boneyard.clients.cli.standings import KINDS
from boneyard.clients.cli.ui.choices import choices
from boneyard.clients.cli.ui.forms import create_request
from boneyard.protocol import PlayAction

ENDS = {"left": "left", "l": "left", "right": "right", "r": "right", "up": "up", "u": "up", "down": "down"}
TRUMPS: dict[str, int | str] = {
    **{str(n): n for n in range(7)},
    "doubles": "doubles",
    "double": "doubles",
    "d": "doubles",
    "none": "none",
    "no": "none",
    "n": "none",
    "notrump": "none",
}
_TILE = re.compile(r"^\[?\s*([0-6])\s*[-|:,/]?\s*([0-6])\s*\]?$")


class InputError(ValueError):
    """The input is not a command or a legal move; the message says what would be."""


def parse_tile(text: str) -> Tile | None:
    match = _TILE.match(text.strip())
    if match is None:
        return None
    a, b = int(match[1]), int(match[2])
    return (max(a, b), min(a, b))


def _pick(legal: Sequence[Any], kind: str, **fields: Any) -> Any:
    for action in legal:
        if action.type == kind and all(getattr(action, k, None) == v for k, v in fields.items()):
            return action
    return None


MOVE_WORDS = ("pass", "p", "draw", "d", "bid", "b", "trump", "t", "discard")


def _bids_left(legal: Sequence[Any]) -> str:
    """``5, 6, 21 or pass``: what the auction still allows."""
    words = [str(a.bid) for a in legal if a.type == "bid"] + (["pass"] if _pick(legal, "pass") else [])
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words) or "nothing"


def _by_number(n: int, legal: Sequence[Any], hand: Sequence[Tile]) -> Any:
    menu = choices(hand, legal)
    if not 1 <= n <= len(menu):
        raise InputError(f"there are choices 1 to {len(menu)}" if menu else "nothing to choose now")
    choice = menu[n - 1]
    if not choice.actions:
        if choice.tile is not None:
            return held_play(choice.tile)
        raise InputError(f"{choice.label} (number {n}) cannot be played now: the legal ones are highlighted")
    if len(choice.actions) > 1:
        ends = " or ".join(str(getattr(a, "end", a.type)) for a in choice.actions)
        first = choice.actions[0]
        raise InputError(f"{choice.label} fits {ends}: say which, e.g. `{n} {getattr(first, 'end', '')}`")
    return choice.actions[0]


def shortened(word: str, most: int = 24) -> str:
    """A word the player typed, cut to ``most`` characters to be echoed (a pasted page stays one line)."""
    return word if len(word) <= most else word[: most - 1] + "…"


def check_move_words(text: str) -> None:
    """InputError unless ``text`` could be a move at all (a number, a tile, or a move word)."""
    words = text.lower().split()
    head = words[0] if words else ""
    if head not in MOVE_WORDS and not head.isdigit() and parse_tile(head) is None:
        raise InputError(f"unknown command {shortened(head)!r}: type `help`")


MOON_BIDS = (4, 5, 6, 7, 21)


def ladder_words(bids: Sequence[int]) -> str:
    """A bid ladder in words, runs of five or more shortened: ``30-41, 42, 84 or 126``.

    >>> ladder_words((4, 5, 6, 7, 21)), ladder_words((30, 31, 32, 42, 84)), ladder_words(range(30, 36))
    ('4, 5, 6, 7 or 21', '30, 31, 32, 42 or 84', '30-35')
    """
    runs: list[list[int]] = []
    for bid in bids:
        if runs and bid == runs[-1][-1] + 1 and bid - runs[-1][0] < 12:
            runs[-1].append(bid)
        else:
            runs.append([bid])
    words: list[str] = []
    for run in runs:
        words += [f"{run[0]}-{run[-1]}"] if len(run) > 4 else [str(b) for b in run]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def parse_move(
    text: str,
    legal: Sequence[Any],
    not_yours: str = "it is not your turn",
    hand: Sequence[Tile] = (),
    bids: Sequence[int] = MOON_BIDS,
    contracts: Mapping[str, int | str] | None = None,
) -> Any:
    """The legal action ``text`` names; :class:`InputError` saying why not otherwise.

    A number is a position in ``hand`` while tiles are being played (see :mod:`.choices`), else
    the number of an offered action; ``not_yours`` is the message when ``legal`` is empty. ``bids``
    is the game's bid ladder, ``contracts`` its words for what may be named besides a trump.
    """
    words = text.lower().split()
    if not words:
        raise InputError("type a move")
    head, rest = words[0], words[1:]
    check_move_words(head)
    named = {**TRUMPS, **(contracts or {})}
    if head in ("bid", "b") and not bids:
        raise InputError("there is no bidding in this game")
    if head in ("bid", "b") and not (len(rest) == 1 and rest[0].isdigit() and int(rest[0]) in bids):
        raise InputError(f"bids are {ladder_words(bids)} (e.g. `bid {bids[0] if bids else 5}`), or `pass`")
    if head in ("trump", "t") and not (len(rest) == 1 and rest[0] in named):
        more = "".join(f", `trump {word}`" for word in (contracts or {}))
        raise InputError(f"trump is a number 0-6, `trump doubles`{more} or `trump none`")
    if not legal:
        raise InputError(not_yours)
    if head.isdigit() and len(rest) <= 1:
        # "12" could be choice 12 or the tile [2|1]: a tile that is a legal move wins.
        as_tile = parse_tile(head) if len(head) == 2 else None
        tile_is_legal = any(tuple(getattr(a, "tile", ()) or ()) == as_tile for a in legal)
        if not tile_is_legal and (as_tile is None or int(head) <= len(choices(hand, legal))):
            if not rest:
                return _by_number(int(head), legal, hand)
            head = _numbered_tile(int(head), hand)  # "3 left": hand tile 3 on the left end
    if head in ("pass", "p") and not rest:
        return _pick(legal, "pass") or _fail("you cannot pass now")
    if head in ("draw", "d") and not rest:
        return _pick(legal, "draw") or _fail(
            "you cannot draw now (you hold a playable tile, or the boneyard is empty)"
        )
    if head in ("bid", "b"):
        action = _pick(legal, "bid", bid=int(rest[0]))
        open_bids = [a.bid for a in legal if a.type == "bid"]
        if action is not None:
            return action
        if not open_bids:
            raise InputError("you cannot bid now" + (": you can only pass" if _pick(legal, "pass") else ""))
        if int(rest[0]) < min(open_bids):
            raise InputError(f"the high bid is {_high_bid(bids, min(open_bids))}: bid {_bids_left(legal)}")
        raise InputError(f"you can bid {_bids_left(legal)}")
    if head in ("trump", "t"):
        return _pick(legal, "trump", trump=named[rest[0]]) or _fail("you are not naming trump now")
    if head == "discard" and len(rest) == 1:
        tile = parse_tile(rest[0]) or _fail(f"{rest[0]!r} is not a tile (write it like 6-4)")
        return _pick(legal, "discard", tile=tile) or _fail(f"you cannot discard {tile_word(tile)} now")
    tile = parse_tile(head)
    if tile is None:
        raise InputError(f"unknown command {shortened(head)!r}: type `help`")
    if len(rest) > 1 or (rest and rest[0] not in ENDS):
        raise InputError("after a tile, name an end: left, right, up or down")
    end = ENDS[rest[0]] if rest else None
    candidates = [a for a in legal if a.type in ("play", "discard") and tuple(a.tile) == tile]
    if end is not None:
        candidates = [a for a in candidates if getattr(a, "end", None) == end]
    if not candidates:
        if tile in {tuple(t) for t in hand}:
            return held_play(tile, end)
        if hand:
            raise InputError(f"you do not hold {tile_word(tile)}")
        where = f" on the {end}" if end else ""
        raise InputError(f"{tile_word(tile)}{where} is not a legal move now")
    if len(candidates) > 1:
        ends = " or ".join(str(a.end) for a in candidates)
        raise InputError(
            f"{tile_word(tile)} fits {ends}: say which, e.g. `{tile[0]}{tile[1]} {candidates[0].end}`"
        )
    return candidates[0]


def held_play(tile: Sequence[int], end: str | None = None) -> PlayAction:
    """A tile of the hand that is not a legal move now, as a ``play`` to send all the same: the engine
    knows why it is not (``you must follow 5s``, ``the high bid is 5``), and its refusal says so.

    >>> held_play((6, 4), "up")
    PlayAction(type='play', tile=(6, 4), end='up')
    """
    return PlayAction(type="play", tile=(tile[0], tile[1]), end=end)  # type: ignore[arg-type]


def _numbered_tile(n: int, hand: Sequence[Tile]) -> str:
    if not 1 <= n <= len(hand):
        raise InputError(f"there are tiles 1 to {len(hand)}" if hand else "you hold no tiles")
    return f"{hand[n - 1][0]}{hand[n - 1][1]}"


def _high_bid(bids: Sequence[int], lowest_open: int) -> int:
    """The high bid, from the lowest bid still open: the one below it on the game's ladder."""
    ladder = (0, *bids)
    return ladder[ladder.index(lowest_open) - 1] if lowest_open in ladder else lowest_open - 1


def _fail(message: str) -> Any:
    raise InputError(message)


@dataclass(frozen=True)
class Command:
    """A session command: ``name`` and its words."""

    name: str
    args: list[str] = field(default_factory=list)


COMMANDS: dict[str, tuple[str, str]] = {
    "help": ("help", "this list"),
    "tables": ("tables", "list the tables (the lobby updates by itself)"),
    "create": (
        "create GAME [OPTION=VALUE ...] [bots=1,2] [level=basic|good|strong]\n"
        "         [turn=SECONDS|none] [seat=N|none] [delay=MS]",
        "a table (seat 0 by default); GAME: moon, straight, texas42\n"
        "                    OPTION: players=N, target=N, partnerships=on|off,\n"
        "                    all_pass=redeal|force_last, nello=on (as the game has)",
    ),
    "join": ("join TABLE SEAT", "sit in an empty seat"),
    "take": ("take TABLE SEAT", "take over a bot's seat"),
    "watch": ("watch TABLE", "spectate a table"),
    "leave": ("leave [TABLE]", "leave the current (or named) table"),
    "say": ("say TEXT", "chat at the current table"),
    "rematch": ("rematch", "ask for a new game once this one is over"),
    "ready": ("ready", "between hands: done with the result, deal the next hand"),
    "board": ("board", "show the table again"),
    "record": ("record [RECORD_ID]", "fetch a finished game's record and save it as JSON"),
    "auto": ("auto on|off", "let the basic bot play your seat"),
    "rules": ("rules", "the rules of the game at this table"),
    "ping": ("ping", "measure the round trip to the server"),
    "quit": ("quit", "leave and exit (also Ctrl-C or Ctrl-D)"),
}
SEEK_USAGE = f"seek {'|'.join(KINDS)} [rated] [bots=SECONDS] [level=basic|good|strong]"
SOCIAL: dict[str, tuple[str, str]] = {
    "seek": (
        "seek KIND [rated] [bots=SECONDS] [level=LEVEL]",
        "near your rating; KIND moon, straight-2/3/4, partnerships",
    ),
    "unseek": ("unseek", "stop seeking"),
    "profile": ("profile [NAME]", "a player's ratings and rated games (yours when signed in)"),
    "leaderboard": ("leaderboard KIND [PAGE]", "the established players of a kind of game, best first"),
    "mute": ("mute NAME", "hide NAME's chat lines from you (until unmute)"),
    "unmute": ("unmute NAME", "show NAME's chat lines again"),
    "report": ("report NAME REASON", "report a player to the server's operator"),
}
"""The commands of matchmaking, ratings and moderation (``ui/social.py`` runs them)."""
COMMANDS.update(SOCIAL)
ALIASES = {"list": "tables", "ls": "tables", "spectate": "watch", "chat": "say", "exit": "quit", "q": "quit",
           "show": "board", "?": "help", "h": "help", "take_seat": "take"}  # fmt: skip

MOVE_HELP = """\
At the table:
  N                 play legal move number N (listed after `Your move:`)
  6-4, 64, [6|4]    play that tile (Moon), or discard it when discarding
  64 left / 64 l    Straight: play [6|4] on that end (left, right, up, down)
  pass              pass (the Moon auction, or Straight with nothing to play)
  draw              Straight: draw from the boneyard
  bid 5             bid: Moon 4, 5, 6, 7 or 21; Texas 42 30-41, or 42 a mark
  trump 6           name trump: 0-6, doubles or none (Texas 42: nello too)"""


HELP_WIDTH = 78
"""The help's widest line: it reads whole on an 80-column terminal (a wrapped line breaks mid-phrase)."""


def help_text() -> str:
    """Every move and command, in lines of at most :data:`HELP_WIDTH` characters.

    >>> max(len(line) for line in help_text().splitlines()) <= HELP_WIDTH
    True
    """
    lines = [MOVE_HELP, "Commands:"]
    lines += [f"  {usage:<16}  {what}" if len(usage) <= 16 else f"  {usage}\n  {'':<16}  {what}"
              for usage, what in COMMANDS.values()]  # fmt: skip
    return "\n".join(lines)


def parse_command(text: str) -> Command | None:
    """A session command, or None when ``text`` is not one (then it may be a move)."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if not words:
        return None
    name = ALIASES.get(words[0].lower(), words[0].lower())
    if name not in COMMANDS:
        return None
    if name == "say":  # keep the chat text exactly as typed
        return Command(name, [text.split(None, 1)[1]] if len(text.split(None, 1)) > 1 else [])
    return Command(name, words[1:])


def parse_create(args: Sequence[str]) -> dict[str, Any]:
    """``create`` words as ``Client.create_table`` keyword arguments (see :mod:`.forms`)."""
    return create_request(args)
