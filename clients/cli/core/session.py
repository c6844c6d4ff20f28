"""The client session: handshake, reading, commands, and reconnecting with resume.

:class:`Client` is the whole client core (and the Python SDK, see docs/CLIENT.md):

>>> async def main() -> None:  # doctest: +SKIP
...     async with Client("ws://localhost:8765/", "ana") as client:
...         created = await client.create_table("moon", bots=[1, 2])
...         async for item in client.listen():
...             ...  # every server message, after the mirror has applied it

What it does for you, following PROTOCOL.md:

- section 2: waits for ``hello``, sends ``identify``, waits for ``welcome``;
- section 3: gives every command an ``id`` and returns its reply (or raises
  :class:`CommandError` with the error's ``code``);
- section 4: checks that ``seq`` grows by one; a gap means the picture may be wrong,
  so it reconnects and resumes;
- section 7 and 9: when the connection drops with a code that allows it, reconnects
  with backoff (1 s doubling to 30 s, with jitter) and resumes with the ``seated``
  token and the last ``seq`` it processed, handling both a replay and fresh snapshots;
- keeps :attr:`Client.mirror` up to date with every message;
- opts in to feature ``turn_in_event`` when the server offers it (fewer frames: the ``turn`` and the
  ``ok`` after an action's events ride in the last event) and hands on every message as the messages
  it stands for (:func:`~boneyard.protocol.unfolded`): listeners see the same ``event``, ``turn`` and
  ``ok`` either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from boneyard.clients.cli.core.commands import CommandError, ConnectionLost, NotConnected, PendingCommands
from boneyard.clients.cli.core.handshake import handshake, peek_seq
from boneyard.clients.cli.core.identity import Signer
from boneyard.clients.cli.core.mirror import Mirror, MirrorError
from boneyard.clients.cli.core.notices import Listeners, Notice, Subscription, close_text
from boneyard.clients.cli.core.pacing import Backoff, Pacer
from boneyard.clients.cli.core.requests import CommandMethods
from boneyard.clients.cli.core.transport import (
    ABNORMAL_CLOSURE,
    Connector,
    Transport,
    TransportClosed,
    websocket_connector,
)
from boneyard.protocol import (
    CLOSE_CODES,
    DealCommitment,
    Hello,
    Identify,
    ProtocolError,
    Seated,
    Welcome,
    decode_server_message,
    encode,
    unfolded,
)
from boneyard.protocol.messages import COMMAND_ADAPTER

__all__ = ["Client", "Notice", "Subscription"]  # Notice and Subscription live in notices.py


class _Resync(Exception):
    """The stream cannot be trusted (a ``seq`` gap): drop the connection and resume."""


class Client(CommandMethods):
    """A session with a Boneyard server. Use ``async with`` or :meth:`connect` / :meth:`close`."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        connector: Connector = websocket_connector,
        backoff: Backoff | None = None,
        reconnect: bool = True,
        contribute_seeds: bool = True,
        fold_turns: bool = True,
        signer: Signer | None = None,
        token: str | None = None,
        on_token: Callable[[str | None], None] | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.mirror = Mirror()
        self.hello: Hello | None = None
        self.welcome: Welcome | None = None
        self.token: str | None = token
        """The resume token from the last ``seated`` (or one kept by an earlier process: its seats are
        asked back at :meth:`connect`)."""
        self.on_token = on_token
        """Told of each new resume token, and ``None`` once it resumes nothing (the seats are gone, or
        the session closed on purpose): what a client keeps on disk to come back after a crash."""
        self.close_code: int | None = None
        """Why the session ended for good (a close code), once it has."""
        self.reconnect = reconnect
        self.contribute_seeds = contribute_seeds
        """Send a random seed for the deals whenever a game starts at a seat we hold (``fair_deals``)."""
        self.fold_turns = fold_turns
        """Accept feature ``turn_in_event`` when the server offers it (what listeners see is the same)."""
        self.signer = signer
        """Feature ``accounts``: sign in to this account on every connection (``None``: a guest)."""
        self._connector = connector
        self._backoff = backoff or Backoff()
        self._pending = PendingCommands()
        self._transport: Transport | None = None
        self._pacer = Pacer(20, 40)
        self._generation = 0
        self._last_seq = 0
        self._replaying = 0
        self._watching: set[str] = set()
        self._listeners = Listeners()
        self._runner: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = asyncio.Event()
        self._closed = asyncio.Event()

    # --- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> Welcome:
        """Open the first connection; raises ``ConnectionError``/:class:`CommandError` if it fails."""
        try:
            try:
                transport = await self._open(resume=self.token is not None)
            except TransportClosed as closed:
                if closed.code != 4002 or self.token is None:
                    raise
                transport = await self._open(resume=False)  # the kept seats are gone: a new session
        except TransportClosed as closed:
            raise ConnectionError(f"the server closed the connection: {close_text(closed.code)}") from None
        assert self.welcome is not None
        self._runner = asyncio.create_task(self._run(transport), name="boneyard-client")
        return self.welcome

    async def close(self) -> None:
        """Close the session for good (close code 1000); the server keeps a seat for a while."""
        self._closing.set()
        if self.on_token is not None:
            self.on_token(None)  # closed on purpose: nothing to come back to after this
        if self._transport is not None:
            with contextlib.suppress(Exception):
                await self._transport.close(1000, "bye")
        if self._runner is not None:
            await self._runner
        else:
            self._finish(1000, "closed")

    async def wait_closed(self) -> None:
        await self._closed.wait()

    @property
    def connected(self) -> bool:
        """Identified on an open connection (commands can be sent)."""
        return self._transport is not None

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def listen(self) -> Subscription:
        """Every server message (after the mirror applied it) and every :class:`Notice`, in order.

        Each call starts a new subscription at once; it ends when the session is closed for good.
        A subscription nobody holds any more is dropped, so an abandoned one costs nothing.
        """
        return self._listeners.subscribe()

    # --- commands --------------------------------------------------------------------------

    async def request(self, command: BaseModel | dict[str, Any]) -> Any:
        """Send a command with a fresh ``id`` and return its reply; :class:`CommandError` on ``error``."""
        if isinstance(command, dict):
            command = COMMAND_ADAPTER.validate_python(command)
        kind = str(getattr(command, "type", ""))
        transport = self._transport
        if transport is None:
            raise NotConnected(kind)
        await self._pacer.acquire()
        transport = self._transport
        if transport is None:  # the connection dropped while we waited
            raise NotConnected(kind)
        cid, future = self._pending.add(kind, self._generation)
        try:
            await transport.send(encode(command.model_copy(update={"id": cid})))
        except TransportClosed:
            self._pending.discard(cid)
            raise ConnectionLost(kind) from None
        return await future

    # --- connection ------------------------------------------------------------------------

    async def _open(self, *, resume: bool) -> Transport:
        """Connect, read ``hello``, identify (resuming if asked) and read ``welcome``."""
        identify = Identify(type="identify", id=self._pending.next_id(), name=self.name)
        transport = await self._connector(self.url)
        hello, welcome = await handshake(
            transport,
            identify,
            token=self.token if resume else None,
            last_seq=self._last_seq,
            fold_turns=self.fold_turns,
            signer=self.signer,
        )
        # The new connection numbers its messages from 1 again; replayed ones included.
        self._generation += 1
        self._last_seq = 0
        self._transport = transport
        self._pacer = Pacer(hello.limits.commands_per_second, hello.limits.command_burst)
        self._dispatch(hello)
        self._dispatch(welcome)
        if welcome.resumed:
            self._replaying = welcome.replayed
            if not welcome.replayed:
                self._pending.fail_before(self._generation)  # snapshots follow; lost replies stay lost
                self._notify(Notice("resumed", "back; the server sends fresh snapshots"))
        else:
            if self.token is not None:
                self._notify(Notice("resume_rejected", "the server no longer holds our seats"))
                for mirror in self.mirror.tables.values():
                    mirror.seat = None
                self._set_token(None)
            self._pending.fail_before(self._generation)
        return transport

    async def _run(self, transport: Transport) -> None:
        code, reason = 1000, "closed"
        try:
            while True:
                try:
                    await self._read(transport)
                except TransportClosed as closed:
                    code, reason = closed.code, close_text(closed.code, closed.reason)
                except _Resync as why:
                    code, reason = ABNORMAL_CLOSURE, str(why)
                    with contextlib.suppress(Exception):
                        await transport.close(1000, "resync")
                self._transport = None
                if self._closing.is_set():
                    break
                info = CLOSE_CODES.get(code)
                # Unknown codes are treated like 1011 (section 9); a plain drop (1006) too.
                reconnect, resume = (info.reconnect, info.resume) if info else (True, True)
                if not (reconnect and self.reconnect):
                    break
                self._notify(Notice("disconnected", f"connection lost: {reason}", code))
                next_transport = await self._reconnect(resume)
                if next_transport is None:
                    break
                transport = next_transport
        finally:
            self._transport = None
            self._finish(code, reason)

    async def _reconnect(self, resume: bool) -> Transport | None:
        for delay in self._backoff.delays():
            self._notify(Notice("reconnecting", f"reconnecting in {delay:.1f} s"))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), delay)
            if self._closing.is_set():
                return None
            try:
                transport = await self._open(resume=resume)
            except TransportClosed as closed:
                if closed.code == 4002:  # resume_rejected: identify afresh at once (_open drops the seats)
                    resume = False
                    with contextlib.suppress(TransportClosed, OSError, CommandError, ProtocolError):
                        transport = await self._open(resume=False)
                        break
                continue
            except (OSError, CommandError, ProtocolError):
                continue
            break
        else:  # pragma: no cover - the delays never run out
            return None
        self._tasks.add(task := asyncio.create_task(self._refresh()))
        task.add_done_callback(self._tasks.discard)
        return transport

    async def _refresh(self) -> None:
        """After a reconnect: the lobby may have changed unseen, and watching is not a seat to resume."""
        with contextlib.suppress(CommandError):
            await self.list_tables()
            for table_id in list(self._watching):
                await self.spectate(table_id)

    async def _read(self, transport: Transport) -> None:
        while True:
            frame = await transport.recv()
            if isinstance(frame, str):
                self._notify(Notice("warning", "ignored a text frame from the server"))
                continue
            try:
                message = decode_server_message(frame, lenient=True)
            except ProtocolError as error:
                # A newer server's message type: skip it, but it still used up a seq number.
                seq = peek_seq(frame)
                if seq is not None:
                    self._check_seq(seq)
                    self._last_seq = seq
                self._notify(Notice("warning", f"skipped a message: {error}"))
                continue
            self._dispatch(message)

    def _check_seq(self, seq: int) -> None:
        if seq != self._last_seq + 1:
            raise _Resync(f"message seq {seq} after {self._last_seq}: resuming to resynchronise")

    def _dispatch(self, message: Any) -> None:
        self._check_seq(message.seq)
        self._last_seq = message.seq
        for part in unfolded(message):  # an event carrying a turn (and an ok): each in turn
            self._take(part)
        if self._replaying and message.type not in ("hello", "welcome"):
            self._replaying -= 1
            if not self._replaying:
                # Every missed reply has come back by now; whatever is still open is lost. Only now
                # is the mirror current again, so only now do listeners hear that we are back.
                self._pending.fail_before(self._generation)
                self._notify(Notice("resumed", f"back; {message.seq - 2} missed messages replayed"))

    def _take(self, message: Any) -> None:
        """One message, as the mirror, the listeners and the commands in flight see it."""
        if isinstance(message, Welcome):
            self.welcome = message
        elif isinstance(message, Hello):
            self.hello = message
        elif isinstance(message, Seated):
            self._set_token(message.token)
        try:
            self.mirror.apply(message)
        except MirrorError as error:
            self._notify(Notice("warning", str(error)))
        self._notify(message)
        self._pending.settle(message)
        if isinstance(message, DealCommitment) and self.contribute_seeds and not self._replaying:
            self._offer_seed(message)

    def _set_token(self, token: str | None) -> None:
        if token != self.token:
            self.token = token
            if self.on_token is not None:
                self.on_token(token)

    def _offer_seed(self, commitment: DealCommitment) -> None:
        """Contribute a seed to a starting game at one of our seats (while the server waits for it)."""
        mirror = self.mirror.tables.get(commitment.table_id)
        if mirror is None or mirror.seat not in commitment.seats or not commitment.wait_ms:
            return

        async def contribute() -> None:
            try:
                await self.contribute_seed(commitment.table_id)
            except (NotConnected, ConnectionLost):
                pass  # the connection dropped: the deal may be fixed without our seed
            except CommandError as error:  # too late (seed_closed)
                self._notify(Notice("warning", f"our seed for the deal was refused: {error.message}"))

        self._tasks.add(task := asyncio.create_task(contribute()))
        task.add_done_callback(self._tasks.discard)

    def _notify(self, item: Any) -> None:
        self._listeners.notify(item)

    def _finish(self, code: int, reason: str) -> None:
        if self._closed.is_set():
            return
        self.close_code = code
        self._pending.fail_all(NotConnected())
        self._notify(Notice("closed", reason, code))
        self._listeners.end()
        self._closed.set()
