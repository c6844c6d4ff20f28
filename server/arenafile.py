"""An arena run's save file: one JSON line per finished duplicate game, after a header.

The header names everything that decides the results: the game and its options, the
line-up, the seed, what each level is (its bot's parameters) and a fingerprint of the
code that plays (the rules engines and bots, and the arena itself). A run given the same
file again reads the games already played and goes on from the first missing one; a
file whose header differs is refused (:class:`SaveMismatch`, one line naming what
differs), since its games could not add up with the new ones. ``--games`` and
``--jobs`` are not in the header: duplicate game ``n`` is the same whatever they are,
so a longer run can extend a shorter one.

>>> header = {"arena": 1, "seed": 1}
>>> mismatch(header, {"arena": 1, "seed": 2})
'seed: the file has 1, this run 2'
>>> mismatch(header, dict(header)) is None
True
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

FORMAT = 1
"""The header's ``arena`` field: the version of this file's layout."""


class SaveMismatch(ValueError):
    """The save file was made by another run (other arguments, bots or code), is not one, or is in
    use by a run going on now."""


def code_fingerprint(arena: Path, game: str) -> str:
    """A hash of the source that decides an arena's games of ``game``: the rules and bots of that game
    (``boneyard.server.games.<game>``) and what the games share (the package's own modules: the
    registry, dealers, tiles), the arena's module (``arena``: its file) and this one. Another game's
    changes leave it as it was, so a long run of one game survives work on the other."""
    from boneyard.server import games

    root = Path(games.__file__).parent
    digest = hashlib.sha256()
    for path in [*sorted(root.glob("*.py")), *sorted((root / game).rglob("*.py")), arena, Path(__file__)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def describe_bot(bot: Callable[..., Any]) -> str:
    """What a level's bot is: its function's name, and for a method its object's parameters.

    >>> from boneyard.server.games.straight import bot, search
    >>> describe_bot(search.GOOD.choose), describe_bot(bot.choose)
    ('StraightSearchBot.choose(rollouts=50)', 'boneyard.server.games.straight.bot.choose')
    """
    owner = getattr(bot, "__self__", None)
    name = getattr(bot, "__qualname__", repr(bot))
    if owner is None:
        return f"{getattr(bot, '__module__', '?')}.{name}"
    fields = vars(owner) if hasattr(owner, "__dict__") else {}
    params = ", ".join(f"{key}={value!r}" for key, value in sorted(fields.items()))
    return f"{name}({params})"


def mismatch(saved: Mapping[str, Any], wanted: Mapping[str, Any]) -> str | None:
    """The first header field that differs, in words; ``None`` when the headers agree."""
    for key in sorted(set(saved) | set(wanted)):
        if saved.get(key) != wanted.get(key):
            return f"{key}: the file has {_short(saved.get(key))}, this run {_short(wanted.get(key))}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load(path: Path, header: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The games saved in ``path`` (in order, numbered from 0), or ``[]`` when there is no such file.

    SaveMismatch when the file's header is not ``header`` or its lines are not a saved run. A last
    line cut short (the run was killed while writing it) is dropped, and the file truncated to the
    games before it, so that the next game is appended whole.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    lines = raw.split(b"\n")
    complete = lines[:-1]  # each finished line ends with a newline; what follows the last one is cut
    if not complete:
        if raw.strip():
            raise SaveMismatch(f"{path} is not an arena save file (no complete header line)")
        return []
    try:
        saved = json.loads(complete[0])
    except ValueError:
        raise SaveMismatch(f"{path} is not an arena save file (its first line is not JSON)") from None
    if not isinstance(saved, dict) or "arena" not in saved:
        raise SaveMismatch(f"{path} is not an arena save file (no arena header)")
    different = mismatch(saved, header)
    if different is not None:
        raise SaveMismatch(f"{path} was made by another arena run ({different}); give another --save file")
    games: list[dict[str, Any]] = []
    for number, line in enumerate(complete[1:]):
        try:
            game = json.loads(line)
        except ValueError:
            raise SaveMismatch(f"{path}: line {number + 2} is not JSON") from None
        if not isinstance(game, dict) or game.get("n") != number:
            raise SaveMismatch(f"{path}: line {number + 2} is not duplicate game {number}")
        games.append(game)
    if lines[-1]:
        with path.open("r+b") as out:
            out.truncate(len(raw) - len(lines[-1]))
    return games


class Saver:
    """A save file held for one run: the games it holds, and each finished one appended (on disk
    before the next is counted). While it is open no other run may use the file (an exclusive
    ``flock``: two runs appending to one file would mix their games)."""

    def __init__(self, path: Path, header: Mapping[str, Any]) -> None:
        self._out: IO[str] = path.open("a", encoding="utf-8")
        try:
            fcntl.flock(self._out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._out.close()
            raise SaveMismatch(
                f"{path} is in use by another arena run (wait for it, or copy the file)"
            ) from None
        try:
            self.saved = load(path, header)
            """The games already in the file (see :func:`load`)."""
            if not path.stat().st_size:
                self._write(dict(header))
        except BaseException:
            self._out.close()
            raise

    def _write(self, value: Mapping[str, Any]) -> None:
        self._out.write(json.dumps(value, separators=(",", ":")) + "\n")
        self._out.flush()
        os.fsync(self._out.fileno())

    def add(self, number: int, per_level: Mapping[str, Any]) -> None:
        """Save duplicate game ``number``: per level, its stats (a dataclass; times in microseconds)."""
        levels = {}
        for level, stats in per_level.items():
            fields = dataclasses.asdict(stats)
            fields["seconds"] = [round(s * 1e6) for s in fields["seconds"]]
            levels[level] = fields
        self._write({"n": number, "levels": levels})

    def close(self) -> None:
        self._out.close()
