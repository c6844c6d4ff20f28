"""The rule book inside the client: ``rules`` at a table shows that game's rules, in the lobby both.

The text is ``rules.md`` beside this module, a copy of the project's docs/RULES.md shipped as package
data so that an installed client has it (tests/client/test_client_docs.py checks the copy is current).

>>> "Three-Player Moon" in rules_text("moon") and "Straight" not in rules_text("moon").splitlines()[0]
True
>>> "[6-4]" in rule_book(), "[6-4]" in rules_text(), "[6|4]" in rules_text()
(True, False, True)
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from boneyard.clients.cli.core.games import client_game
from boneyard.clients.cli.core.rules import in_our_notation


@cache
def rule_book() -> str:
    return resources.files(__package__).joinpath("rules.md").read_text(encoding="utf-8")


def rules_text(game: str | None = None) -> str:
    """The rules of ``game`` (its section, by the heading its module names), or the whole book; its tiles
    written as the table shows them (``[6|4]``, where the book writes ``[6-4]``)."""
    book = in_our_notation(rule_book())
    known = client_game(game) if game else None
    heading = known.rules_heading if known is not None else None
    if heading is None or heading not in book:
        return book
    start = book.index(heading)
    later = [book.index(h, start + 1) for h in ("\n## ", "\n---") if h in book[start + 1 :]]
    section = book[start : min(later)] if later else book[start:]
    return section.strip() + "\n"
