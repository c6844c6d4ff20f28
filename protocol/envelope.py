"""The envelope every message shares: ``type`` first, then ``id`` (commands) or ``seq`` (server messages).

Every client command may carry an ``id``; the server echoes it as ``reply_to`` in the
one reply (or error) that command gets. Every server message carries ``seq``, which
starts at 1 on each connection and grows by exactly one per message.
"""

from __future__ import annotations

from boneyard.protocol.values import CommandId, Seqno, Str, WireModel


class CommandBase(WireModel):
    """Base of client-to-server commands."""

    # Redeclared as a Literal by every message; declared here so that it comes first on the wire.
    type: Str
    """The message type (the discriminator)."""
    id: CommandId | None = None
    """Chosen by the client, echoed as ``reply_to`` in this command's reply or error."""


class ServerMessageBase(WireModel):
    """Base of server-to-client messages."""

    type: Str
    """The message type (the discriminator)."""
    seq: Seqno
    """Per-connection sequence number: 1 for ``hello``, then one more for every message."""


class ReplyBase(ServerMessageBase):
    """Base of server messages that answer a command."""

    reply_to: CommandId | None = None
    """The ``id`` of the command this answers; ``null`` when that command had none (or for a push)."""
