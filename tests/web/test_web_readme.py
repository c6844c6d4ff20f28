"""The README's pictures of the browser client are the ones the tests take (``README_SHOTS``), so running
``tests/web/readme-screenshots.sh`` keeps them true: every browser picture the README shows is one of them,
and each of them is in the README and on disk."""

from __future__ import annotations

import re

from browserkit import README_SHOTS, ROOT


def test_the_readme_shows_exactly_the_screenshots_the_tests_take() -> None:
    readme = (ROOT / "README.md").read_text()
    shown = set(re.findall(r"docs/images/web-[\w.-]+\.png", readme))
    taken = {str(path.relative_to(ROOT)) for path in README_SHOTS.values()}
    assert shown == taken
    for path in README_SHOTS.values():
        assert path.read_bytes().startswith(b"\x89PNG"), path
