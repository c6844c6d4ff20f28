"""Columns the trick games (Moon, Texas 42) share on the players' lines: tricks taken and the bid."""

from __future__ import annotations

from rich.text import Text


def tricks_column(won: int, wide: bool) -> Text:
    """``  2 tricks`` (``  2tr`` on a narrow screen)."""
    return Text(f"  {won} trick{'' if won == 1 else 's'}" if wide else f"  {won}tr")


def bid_column(bid: object) -> Text:
    """``  bid 5   ``; a dash before a seat has spoken, dim while it has not bid."""
    return Text(f"  bid {'—' if bid is None else bid:<4}", "dim" if bid in (None, "pass") else "")
