"""docs/RULES.md, the project's rule book: every worked example is a test, every rule cited exists.

The engines' tests name each worked example they check ``test_example_<number>_...`` after the
book's numbering, so a new example in the book without a test fails here, and so does a test or a
docstring citing a rule the book does not have.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = (ROOT / "docs" / "RULES.md").read_text()
RULE_IDS = {"M": 13, "S": 14, "T": 12}


def worked_examples() -> dict[int, str]:
    """The numbered worked examples of the book, by number."""
    section = BOOK.split("\n## Worked examples\n", 1)[1]
    items = re.findall(r"^(\d+)\. (.+?)(?=^\d+\. |^#|\Z)", section, re.M | re.S)
    return {int(n): " ".join(text.split()) for n, text in items}


def example_tests() -> dict[int, list[str]]:
    """Test functions named after a worked example, by example number."""
    found: dict[int, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                match = re.match(r"test_example_0*(\d+)_", node.name)
                if match:
                    found.setdefault(int(match[1]), []).append(f"{path.name}::{node.name}")
    return found


def rules_in_book() -> set[str]:
    return set(re.findall(r"^\*\*([MST]\d+)\. ", BOOK, re.M))


def test_the_book_numbers_its_examples_one_to_thirty_one() -> None:
    assert sorted(worked_examples()) == list(range(1, 32))


def test_every_worked_example_is_checked_by_a_test() -> None:
    tests = example_tests()
    missing = sorted(set(worked_examples()) - set(tests))
    assert not missing, f"worked examples without a test_example_<n>_ test: {missing}"
    unknown = sorted(set(tests) - set(worked_examples()))
    assert not unknown, f"tests named after examples the book does not have: {unknown}"


def test_the_book_has_every_rule_of_every_game() -> None:
    expected = {f"{game}{n}" for game, last in RULE_IDS.items() for n in range(1, last + 1)}
    assert rules_in_book() == expected


def test_each_example_cites_rules_the_book_has() -> None:
    rules = rules_in_book()
    for number, text in worked_examples().items():
        cited = re.findall(r"\b([MST]\d+)\b", text.rsplit("[", 1)[-1])
        assert cited, f"example {number} cites no rule"
        assert set(cited) <= rules, (number, cited)


def _cited_rules(text: str) -> set[str]:
    """Rule ids cited after ``RULES.md`` in ``text``, ranges such as ``M8-M10`` expanded."""
    out: set[str] = set()
    for citation in re.findall(r"RULES\.md,? ((?:[MST]\d+(?:-[MST]?\d+)?(?:, )?)+)", text):
        for part in filter(None, citation.split(", ")):
            first, _, last = part.partition("-")
            game, start = first[0], int(first[1:])
            end = int(last.lstrip("MST")) if last else start
            out.update(f"{game}{n}" for n in range(start, end + 1))
    return out


def test_every_rule_the_code_cites_is_in_the_book() -> None:
    rules = rules_in_book()
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    cited = {f: _cited_rules((ROOT / f).read_text()) for f in files if (ROOT / f).exists()}
    assert set().union(*cited.values()) >= {"M9", "S7"}  # the check sees the citations at all
    wrong = {f: sorted(ids - rules) for f, ids in cited.items() if ids - rules}
    assert not wrong, wrong


def test_nothing_points_outside_the_repository_for_the_rules() -> None:
    hits = subprocess.run(
        ["git", "grep", "-n", "shared/RULES", "--", ".", ":!tests/test_rules_book.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    assert hits == "", hits
