"""The name rules of accounts: which names may be registered, and when two names are one account.

Two names are one account when their *keys* are equal: the name in Unicode's compatibility form
(NFKC), case-folded, every character replaced by the representative of its class of look-alikes. The
look-alikes are Unicode's confusables (``confusables.txt``, as the ``confusable-homoglyphs`` package
ships it): two characters are of one class when the data lists one as a homoglyph of the other,
directly or through others; the representative is the class's smallest code point. This is a limited
form of UTS #39's skeleton (single characters only, no multi-character prototypes). A new name is also
refused when it *looks* like one registered, as written, case kept (its :func:`look_key`): ``PayPaI``
with a capital I looks like ``PayPal``, though ``paypai`` is another account than ``paypal``.

>>> account_key("Ana") == account_key("ANA") == account_key("\\u0430na")  # a Cyrillic a
True
>>> account_key("BOB") == account_key("bob"), account_key("bob") == account_key("b0b")
(True, False)
>>> look_key("PayPaI") == look_key("PayPal"), account_key("PayPaI") == account_key("PayPal")
(True, False)
>>> refusal("ana"), refusal("bot-3"), refusal("Bot-x"), refusal("b\\u043et-x")  # a Cyrillic o
(None, 'reserved for bots', 'reserved for bots', 'reserved for bots')
>>> refusal("\\u0430na"), refusal("a b"), refusal("a")
('mixes scripts', 'letters, digits, - _ . only', '2-24 characters')
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

from boneyard.protocol.handshake import BOT_NAME_PREFIX

MIN_CHARS = 2
MAX_CHARS = 24
_PUNCTUATION = frozenset("-_.")
_NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})


@cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative (union-find over the homoglyph pairs, built once)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while (up := parent.get(c, c)) != c:
            parent[c] = parent.get(up, up)
            c = up
        return c

    for char, homoglyphs in confusables.confusables_data.items():
        for glyph in homoglyphs:
            other = glyph["c"]
            if len(char) != 1 or len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def _skeleton(text: str) -> str:
    classes = _classes()
    return "".join(classes.get(c, c) for c in text)


def account_key(name: str) -> str:
    """What tells accounts apart: two names with one key are one account."""
    return _skeleton(unicodedata.normalize("NFKC", name).casefold())


def look_key(name: str) -> str:
    """How a name looks as written (case kept): a new name looking like a registered one is refused."""
    return _skeleton(unicodedata.normalize("NFKC", name))


def refusal(name: str) -> str | None:
    """Why the rules refuse ``name`` for a new account (a few words), or ``None``: 2-24 characters of
    letters, digits and ``- _ .`` (after NFKC), the first a letter or digit, of one script, and nothing
    that looks like ``bot-``."""
    plain = unicodedata.normalize("NFKC", name)
    if not MIN_CHARS <= len(plain) <= MAX_CHARS:
        return f"{MIN_CHARS}-{MAX_CHARS} characters"
    if not all(c in _PUNCTUATION or unicodedata.category(c)[0] in "LN" for c in plain):
        return "letters, digits, - _ . only"
    if plain[0] in _PUNCTUATION:
        return "starts with a letter or digit"
    if account_key(plain).startswith(account_key(BOT_NAME_PREFIX)):
        return "reserved for bots"
    if len(categories.unique_aliases(plain) - _NEUTRAL_SCRIPTS) > 1:
        return "mixes scripts"
    return None
