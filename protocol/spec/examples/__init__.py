"""One worked example (or more) of every message, as the wire data.

They are rendered into PROTOCOL.md (JSON-like form and msgpack hex), attached to the
AsyncAPI messages and used by the benchmark; each is validated at import.
"""

from __future__ import annotations

from boneyard.protocol.spec.examples.base import Example
from boneyard.protocol.spec.examples.deals import DEAL_EXAMPLES
from boneyard.protocol.spec.examples.pause import PAUSE_EXAMPLES
from boneyard.protocol.spec.examples.play import PLAY_EXAMPLES
from boneyard.protocol.spec.examples.record_fetch import RECORD_EXAMPLES
from boneyard.protocol.spec.examples.session import SESSION_EXAMPLES
from boneyard.protocol.spec.examples.texas42 import TEXAS42_EXAMPLES

ALL_EXAMPLES: tuple[Example, ...] = (
    SESSION_EXAMPLES + PLAY_EXAMPLES + TEXAS42_EXAMPLES + PAUSE_EXAMPLES + DEAL_EXAMPLES + RECORD_EXAMPLES
)
"""Every example, in the order PROTOCOL.md shows them."""

for _example in ALL_EXAMPLES:
    _ = _example.model  # fail at import if an example does not validate

__all__ = ["ALL_EXAMPLES", "Example"]
