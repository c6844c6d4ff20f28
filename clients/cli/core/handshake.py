"""A connection's first two frames each way (PROTOCOL.md section 2), and reading a frame's ``seq``.

:func:`handshake` waits for ``hello``, sends ``identify`` (resuming, accepting ``turn_in_event``,
signing in, as asked and as the server offers) and waits for ``welcome``.
"""

from __future__ import annotations

import contextlib
from typing import Any

import msgpack

from boneyard.clients.cli.core.commands import CommandError
from boneyard.clients.cli.core.identity import Signer
from boneyard.clients.cli.core.transport import Transport
from boneyard.protocol import (
    FEATURE_ACCOUNTS,
    FEATURE_TURN_IN_EVENT,
    Error,
    Hello,
    Identify,
    Resume,
    Welcome,
    decode_server_message,
    encode,
)


def decode_frame(frame: bytes | str) -> Any:
    """A server message; ConnectionError for a text frame (section 1: frames are binary)."""
    if isinstance(frame, str):
        raise ConnectionError("the server sent a text frame (PROTOCOL.md section 1: frames are binary)")
    return decode_server_message(frame, lenient=True)


def peek_seq(frame: bytes) -> int | None:
    """The ``seq`` of a frame this client cannot decode (a newer server's message), if it has one."""
    with contextlib.suppress(Exception):
        seq = msgpack.unpackb(frame, raw=False).get("seq")
        return seq if type(seq) is int else None
    return None


async def handshake(
    transport: Transport,
    identify: Identify,
    *,
    token: str | None,
    last_seq: int,
    fold_turns: bool,
    signer: Signer | None,
) -> tuple[Hello, Welcome]:
    """``hello``, then ``identify`` (``identify`` completed from what the server offers), then
    ``welcome``; the transport is closed if any of it fails (CommandError for an ``error`` reply)."""
    try:
        hello = decode_frame(await transport.recv())
        if not isinstance(hello, Hello):
            raise ConnectionError(f"expected hello, got {getattr(hello, 'type', hello)!r}")
        fold = fold_turns and FEATURE_TURN_IN_EVENT in hello.features
        signer = signer if FEATURE_ACCOUNTS in hello.features and hello.nonce else None
        identify = identify.model_copy(
            update={
                "resume": Resume(token=token, last_seq=last_seq) if token else None,
                "accept": (FEATURE_TURN_IN_EVENT,) if fold else (),
                "sign_in": signer.sign_in(hello.nonce) if signer and hello.nonce else None,
            }
        )
        await transport.send(encode(identify))
        welcome = decode_frame(await transport.recv())
        if isinstance(welcome, Error):
            raise CommandError(welcome.code, welcome.message, "identify")
        if not isinstance(welcome, Welcome):
            raise ConnectionError(f"expected welcome, got {getattr(welcome, 'type', welcome)!r}")
    except BaseException:
        with contextlib.suppress(Exception):
            await transport.close(1000)
        raise
    return hello, welcome
