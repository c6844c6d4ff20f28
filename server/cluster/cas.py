"""JetStream's compare-and-set refusal, recognised in one place."""

from __future__ import annotations

from nats.js.errors import APIError

WRONG_LAST_SEQUENCE = (10071, 10164)
"""JetStream's error codes for a write whose expected last sequence is not the subject's last."""


def lost_compare_and_set(error: APIError) -> bool:
    """Whether ``error`` is JetStream refusing a write because someone else wrote the subject since."""
    return error.err_code in WRONG_LAST_SEQUENCE
