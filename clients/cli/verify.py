"""``boneyard verify RECORD.json``: check a saved record's deals against its seeds, offline.

Each record of the file (one JSON object, a JSON array, or JSON Lines) is checked with
:func:`boneyard.protocol.fairness.verify_record`: the commitment against the revealed server seed, then
every hand's deal, Moon's widow, Straight's boneyard and the first player chance chose. One line per
problem, saying where (hands numbered from 0, as in the protocol); a record that verifies is said so with
its commitment, which proves the deals fixed only to whoever saw that same commitment before the first
deal. The exit status is 0 when every record verifies, 1 when one does not, 2 when the file cannot be
read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from boneyard.clients.cli.core.rules import in_our_notation
from boneyard.protocol import RECORD_ADAPTER
from boneyard.protocol.fairness import verify_record


def json_items(text: str) -> list[Any]:
    """The JSON values of a file: one value (an array is its items), or JSON Lines."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return data if isinstance(data, list) else [data]


def problems_of(record: Any) -> list[str]:
    """What is wrong with one record's deals (or its shape), one line each; empty: verified."""
    if not isinstance(record, dict):
        return ["not a record (a JSON object)"]
    try:
        RECORD_ADAPTER.validate_python(record, extra="ignore")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return [f"not a valid boneyard-record/1: {where}: {first['msg']}"]
    return [in_our_notation(problem) for problem in verify_record(record)]


def run_verify(path: str, out: TextIO = sys.stdout) -> int:
    try:
        records = json_items(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"boneyard: cannot read {path}: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    failed = 0
    for number, record in enumerate(records, start=1):
        name = f"{path}: record {number}" if len(records) > 1 else path
        problems = problems_of(record)
        for problem in problems:
            print(f"{name}: {problem}", file=out)
        if problems:
            failed += 1
        else:
            # The record's own commitment proves nothing by itself: it is for comparing with the one
            # the server sent before the first deal (the client prints it as "deal committed: ...").
            hands, commitment = len(record["hands"]), record["fairness"]["commitment"]
            print(
                f"{name}: deals verified ({hands} hand{'' if hands == 1 else 's'}, {record['game']}) "
                f"against commitment {commitment}",
                file=out,
            )
    if not records:
        print(f"{path}: no records in the file", file=out)
        return 1
    return 1 if failed else 0
