"""A client session written from protocol/spec/PROTOCOL.md alone: connect, identify, resume, check frames.

Each `Session` is one seat's player (or a spectator) across its connections. Every frame it receives is
checked against schema.json and section 4's ordering rules as it arrives; the frames are kept for the
hidden-information replay once the game's seeds are revealed.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import msgpack
import websockets
from checks import CLOSE_CODES, ERROR_CODES, Message, Received, SchemaChecker, Tile, tiles_in
from websockets.asyncio.client import ClientConnection

ACTION_EVENT = {
    "bid": "bid_made",
    "pass": "passed",
    "discard": "discarded",
    "trump": "trump_named",
    "play": "tile_played",
    "draw": "tile_drawn",
}
"""The event an `act` causes (section 5): its `ok` must come after it."""

REPLIES = frozenset(["welcome", "pong", "table_list", "table_created", "ok", "record"])
"""Messages that only ever answer a command (`seated` and `snapshot` are also pushed after `create_table`)."""


@dataclass
class Findings:
    """What the run found, by kind, with the first few examples of each."""

    counts: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, example: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        shown = self.examples.setdefault(kind, [])
        if len(shown) < 5:
            shown.append(example[:300])

    def count(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n


@dataclass
class Pending:
    """A command in flight: its id, what it was, the error code it must get (None: it must succeed)."""

    id: int
    kind: str
    expect: str | None = None
    action: dict[str, Any] | None = None
    sent_at: int = 0
    """Index in the session's frames when it was sent."""
    connection: int = 0
    named: frozenset[Tile] = frozenset()
    """The tiles the command names (its error message may echo them)."""


class Closed(Exception):
    """The connection closed; `code` is its close code."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed {code}")
        self.code = code


class Session:
    """One player's (or spectator's) session across its connections."""

    def __init__(
        self,
        url: str,
        name: str,
        schema: SchemaChecker,
        findings: Findings,
        rng: random.Random,
        fold: float = 0.0,
    ) -> None:
        self.url, self.name, self.schema, self.findings, self.rng = url, name, schema, findings, rng
        self.fold = fold
        """The chance that a connection accepts feature `turn_in_event` (each decides afresh)."""
        self.folds = False
        """This connection accepted it: a `turn` (and an `ok`) may ride inside an event (section 5)."""
        self.unfolded: deque[Message] = deque()
        """The messages a folded event stands for, after the event itself, not yet returned."""
        self.frames: list[Received] = []
        self.pending: deque[Pending] = deque()
        self.null_errors: deque[str] = deque()
        """Codes owed to frames sent without an id (an undecodable frame)."""
        self.ws: ClientConnection | None = None
        self.seq = 0
        self.next_id = 0
        self.connection = 0
        self.token: str | None = None
        self.identifying = 0
        self.interval = 0.1
        self.last_sent = 0.0
        self.last_frame = time.monotonic()
        self.late_seeds: set[str] = set()
        """Tables whose deal was made before this session's seed arrived (`seed_closed`, as documented)."""

    async def connect(self, resume: bool = False) -> Message:
        """Open a connection, identify (resuming the session if asked) and return `welcome`."""
        self.ws = await websockets.connect(self.url, subprotocols=["boneyard.v1"], max_size=1 << 20)  # type: ignore[list-item]
        self.connection += 1
        self.unfolded.clear()  # what the old connection's last event stood for went with it
        last_seq, self.seq = self.seq, 0
        hello = await self.recv()
        self.interval = 1 / hello.get("limits", {}).get("commands_per_second", 10)
        if hello["type"] != "hello":
            self.findings.add("ordering", f"{self.name}: first message is {hello['type']}, not hello")
        identify: dict[str, Any] = {"type": "identify", "name": self.name}
        self.folds = "turn_in_event" in hello.get("features", ()) and self.rng.random() < self.fold
        if self.folds:
            identify["accept"] = ["turn_in_event"]
        if resume:
            identify["resume"] = {"token": self.token, "last_seq": last_seq}
        # identify is answered before the replay of the old connection's replies: not queued behind them.
        self.next_id += 1
        identify["id"] = self.next_id
        await self.ws.send(msgpack.packb(identify))
        self.identifying = self.next_id
        while True:
            welcome = await self.recv()
            if welcome["type"] == "welcome":
                break
        if welcome.get("accepted", []) != identify.get("accept", []):
            self.findings.add("shape", f"{self.name}: welcome.accepted {welcome.get('accepted')}")
        if resume:
            if not welcome["resumed"]:
                self.findings.add("resume", f"{self.name}: welcome.resumed is false after a resume")
            if welcome["replayed"] == 0:
                self.pending.clear()  # a fresh snapshot instead: the old commands' replies are not replayed
                self.null_errors.clear()
        return welcome

    async def pace(self) -> None:
        """Stay under `limits.commands_per_second` (section 2, "Rate limit")."""
        loop = asyncio.get_running_loop()
        wait = self.last_sent + self.interval - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last_sent = loop.time()

    async def send(self, command: dict[str, Any], expect: str | None = None) -> int:
        """Send a command with a fresh id; `expect` is the error code it must get."""
        assert self.ws is not None
        await self.pace()
        self.next_id += 1
        command = {**command, "id": self.next_id}
        action = command.get("action") if command["type"] == "act" else None
        named = frozenset(tiles_in(command))
        self.pending.append(
            Pending(self.next_id, command["type"], expect, action, len(self.frames), self.connection, named)
        )
        await self.ws.send(msgpack.packb(command))
        return self.next_id

    async def send_raw(self, frame: bytes, expect: str) -> None:
        """Send an undecodable frame: its error has `reply_to: null`."""
        assert self.ws is not None
        await self.pace()
        self.null_errors.append(expect)
        await self.ws.send(frame)

    async def recv(self) -> Message:
        """The next message, checked against the schema and the ordering rules; an event carrying a turn
        stands for the event, then the turn, then the ok (section 5), each returned in turn."""
        if self.unfolded:
            return self.unfolded.popleft()
        assert self.ws is not None
        try:
            frame = await self.ws.recv()
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code is not None and code not in CLOSE_CODES:
                self.findings.add("undocumented code", f"{self.name}: close code {code}")
            raise Closed(code) from None
        self.findings.count("frames")
        if not isinstance(frame, bytes):
            self.findings.add("schema", f"{self.name}: a text frame")
            return {"type": "?"}
        message: Message = msgpack.unpackb(frame)
        for error in self.schema.errors(message):
            self.findings.add(
                "schema", f"{self.name} {message.get('type')} seq {message.get('seq')}: {error}"
            )
        self.seq += 1
        if message.get("seq") != self.seq:
            self.findings.add("ordering", f"{self.name}: seq {message.get('seq')} where {self.seq} was due")
            self.seq = message.get("seq", self.seq)
        parts = self.unfold(message)
        for part in parts:
            self.frames.append(Received(part, self.check_reply(part)))
        self.unfolded.extend(parts[1:])
        self.last_frame = time.monotonic()
        return parts[0]

    def unfold(self, message: Message) -> list[Message]:
        """Section 5, "Turns inside events": an `event` with `turn` is the event, then that `turn`
        (with the event's `seq`), then, with `reply_to`, the `ok` of our `act`. Only on a connection
        that accepted the feature, and `reply_to` only together with `turn`."""
        turn, reply_to = message.get("turn"), message.get("reply_to")
        if message.get("type") != "event" or (turn is None and reply_to is None):
            return [message]
        where = f"{self.name} event seq {message.get('seq')}"
        if not self.folds:
            self.findings.add("shape", f"{where}: turn or reply_to on a connection without turn_in_event")
        if turn is None:
            self.findings.add("shape", f"{where}: reply_to without turn")
        self.findings.count("turns inside events")
        parts = [{k: v for k, v in message.items() if k not in ("turn", "reply_to")}]
        if turn is not None:
            parts.append({"type": "turn", "seq": message["seq"], "table_id": message["table_id"], **turn})
        if reply_to is not None:
            parts.append({"type": "ok", "seq": message["seq"], "reply_to": reply_to})
        return parts

    def check_reply(self, message: Message) -> frozenset[Tile]:
        """Check a reply's place in command order; the tiles its command named."""
        kind = message["type"]
        reply_to = message.get("reply_to")
        if kind == "welcome":
            if reply_to != self.identifying:
                self.findings.add(
                    "ordering", f"{self.name}: welcome replies to {reply_to}, not {self.identifying}"
                )
            return frozenset()
        if kind == "error":
            code = message["code"]
            if code not in ERROR_CODES:
                self.findings.add("undocumented code", f"{self.name}: error code {code}")
            if reply_to is None:
                if self.null_errors:
                    expected = self.null_errors.popleft()
                    if code != expected:
                        self.findings.add(
                            "wrong code", f"{self.name}: {code} for a bad frame, {expected} due"
                        )
                else:
                    self.findings.add(
                        "wrong code", f"{self.name}: an unasked error {code}: {message['message']}"
                    )
                return frozenset()
        if reply_to is None:
            if kind in REPLIES:
                self.findings.add("ordering", f"{self.name}: {kind} seq {message['seq']} with reply_to null")
            return frozenset()
        if not self.pending or self.pending[0].id != reply_to:
            due = self.pending[0].id if self.pending else None
            self.findings.add(
                "ordering", f"{self.name}: {kind} replies to {reply_to}, the reply to {due} was due"
            )
            return frozenset()
        command = self.pending.popleft()
        if kind == "error":
            if command.kind == "contribute_seed" and code == "seed_closed":
                self.check_late_seed(command)
            elif command.expect is None:
                self.findings.add("refused", f"{self.name}: {command.kind} {command.action} got {code}")
            elif code != command.expect:
                self.findings.add(
                    "wrong code", f"{self.name}: {command.kind} got {code}, {command.expect} due"
                )
            else:
                self.findings.count("wrong commands answered right")
            return command.named
        if command.expect is not None:
            self.findings.add("wrong code", f"{self.name}: {command.kind} got {kind}, {command.expect} due")
        if kind == "ok" and command.action is not None and command.connection == self.connection:
            self.check_act_order(command)
        return frozenset()

    def check_late_seed(self, command: Pending) -> None:
        """`seed_closed` is right only once the first deal was made: its `hand_started` came before."""
        dealt = [f.message for f in self.frames if f.message.get("event", {}).get("type") == "hand_started"]
        if dealt:
            self.late_seeds.add(dealt[-1]["table_id"])
            self.findings.count("seeds too late")
        else:
            self.findings.add("fairness", f"{self.name}: seed_closed before the first deal")

    def check_act_order(self, command: Pending) -> None:
        """Section 4: an act's `ok` comes after the events it caused and the `turn` that follows them."""
        assert command.action is not None
        since = [f.message for f in self.frames[command.sent_at :]]
        wanted = ACTION_EVENT[command.action["type"]]
        caused = [
            i
            for i, m in enumerate(since)
            if m["type"] == "event" and m["event"]["type"] == wanted and m["event"].get("seat") is not None
        ]
        if not caused:
            self.findings.add("ordering", f"{self.name}: ok for {command.action} before its {wanted} event")
            return
        after = since[caused[0] + 1 :]
        # No turn follows the act that ends the game, nor one that ends a hand at a table that pauses.
        over = any(m["type"] == "hand_pause" or m.get("event", {}).get("type") == "game_over" for m in since)
        if not over and not any(m["type"] == "turn" for m in after):
            self.findings.add(
                "ordering", f"{self.name}: ok for {command.action} before the turn that follows"
            )

    async def drop(self) -> None:
        """Lose the connection (the client goes away without leaving)."""
        if self.ws is not None:
            await self.ws.close()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def random_seed() -> str:
    return secrets.token_hex(32)
