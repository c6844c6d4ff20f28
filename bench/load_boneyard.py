"""Boneyard tables for the load generator: three clients per Moon table, protocol v1 (PROTOCOL.md).

Human and flat paces: seat 0 identifies and creates the table (``create_table`` moon, seat 0, no bots,
``turn_seconds: null``, or 3600 if the server refuses no timer), seats 1 and 2 identify and ``join``;
the seat that gets a ``turn`` with ``legal_actions`` sends ``act`` with one of them at random, at the
table's next one-second slot (human) or at once (flat). After ``game_over`` every seat asks ``rematch``.
Every client accepts feature ``turn_in_event`` when the server offers it (``--plain``: none does), and
takes an event's ``turn`` as a ``turn`` message.

Bots pace: seat 0 creates a table whose three seats are bots (``seat: null``, ``target`` 1000: a
long game), and three connections ``spectate`` it; after ``game_over`` (or when the game ended before
the spectators arrived) seat 0 creates the next table and the three move to it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
from loadclients import ACTION_EVENTS, LOBBY_PUSHES, SEATS, Ctx
from wsclient import WsClient

_UINT = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}
BOTS_TARGET = 1000


def sniff(frame: bytes) -> tuple[bytes, int]:
    """The ``type`` and ``seq`` of a server frame read from its first bytes, without decoding it.

    Every server message is a map whose first key is ``type`` and second ``seq`` (PROTOCOL.md §3, §11).

    >>> sniff(msgpack.packb({"type": "table_updated", "seq": 300, "table": {}}))
    (b'table_updated', 300)
    """
    if frame[1:6] != b"\xa4type" or not 0xA0 <= frame[6] <= 0xBF:
        return b"", -1
    end = 7 + frame[6] - 0xA0
    kind = frame[7:end]
    if frame[end : end + 4] != b"\xa3seq":
        return kind, -1
    head = frame[end + 4]
    if head < 0x80:
        return kind, head
    size = _UINT.get(head, 0)
    return kind, int.from_bytes(frame[end + 5 : end + 5 + size], "big") if size else -1


class BoneyardClient:
    def __init__(self, table: BoneyardTable, seat: int, role: str) -> None:
        self.table = table
        self.seat = seat
        self.role = role  # "create" | "join" | "watch"
        self.ws: WsClient | None = None
        self.seq = 0
        self.next_id = 0
        self.sent: float | None = None
        self.act_id = -1
        self.create_id = -1
        self.welcomed = False

    def send(self, kind: str, **fields: Any) -> int:
        self.next_id += 1
        frame = msgpack.packb({"type": kind, "id": self.next_id, **fields})
        ctx = self.table.ctx
        if ctx.cfg.validate:
            from boneyard.protocol import ProtocolError, decode_command

            try:
                decode_command(frame)
            except ProtocolError as error:
                ctx.rec.counts["invalid_commands"] += 1
                ctx.rec.note(f"our {kind} is invalid: {error}")
        if self.ws is None:
            ctx.rec.counts["send_without_connection"] += 1
        else:
            self.ws.send(frame)
        return self.next_id

    def create(self) -> None:
        table = self.table
        fields: dict[str, Any] = {"game": "moon", "bots": [], "turn_seconds": table.turn_seconds, "seat": 0}
        if table.bots:
            # The game starts as the table is created, before anyone watches: a long game (target
            # 1000, thousands of actions) makes what the spectators miss negligible.
            fields.update(bots=list(range(SEATS)), seat=None, options={"target": BOTS_TARGET})
        self.create_id = self.send("create_table", **fields)

    def on_message(self, frame: bytes) -> None:
        ctx = self.table.ctx
        rec = ctx.rec
        rec.counts["frames"] += 1
        kind, seq = sniff(frame)
        if seq != self.seq + 1:
            rec.counts["seq_gaps"] += 1
        self.seq = seq if seq > 0 else self.seq + 1
        if kind in LOBBY_PUSHES:
            rec.counts["lobby"] += 1
            if not (kind == b"table_created" and self.create_id >= 0) and not ctx.cfg.validate:
                return
        if ctx.cfg.validate:
            from boneyard.protocol import ProtocolError, decode_server_message

            try:
                decode_server_message(frame)
            except ProtocolError as error:
                rec.counts["invalid_frames"] += 1
                rec.note(f"invalid {kind!r}: {error}")
        message = msgpack.unpackb(frame)
        getattr(self, "on_" + message.get("type", "unknown"), self.on_other)(message)

    def on_hello(self, message: dict[str, Any]) -> None:
        fields: dict[str, Any] = {}
        if self.table.ctx.cfg.fold and "turn_in_event" in message.get("features", ()):
            fields["accept"] = ["turn_in_event"]
        self.send("identify", name=f"lg{self.table.index}s{self.seat}"[:32], **fields)

    def on_welcome(self, message: dict[str, Any]) -> None:
        self.welcomed = True
        if self.role == "create":
            self.create()
        elif self.role == "join":
            self.send("join", table_id=self.table.table_id, seat=self.seat)
        else:
            self.send("spectate", table_id=self.table.table_id)

    def on_table_created(self, message: dict[str, Any]) -> None:
        if self.create_id >= 0 and message.get("reply_to") == self.create_id:
            self.create_id = -1
            self.table.created(message["table"]["table_id"])

    def on_error(self, message: dict[str, Any]) -> None:
        rec = self.table.ctx.rec
        code = message.get("code", "?")
        rec.errors[code] += 1
        reply_to = message.get("reply_to")
        if reply_to == self.create_id >= 0:
            self.create_id = -1
            if code == "invalid_options" and self.table.turn_seconds is None:
                self.table.turn_seconds = 3600  # this server wants a turn timer: a long one
                self.create()
                return
        elif reply_to == self.act_id:
            self.sent = None
        elif self.role == "join" and code == "no_such_table" and self.table.table_id is not None:
            # A cluster: this node has not heard of the new table yet (the directory is eventually
            # consistent). Join again shortly; counted, so that a run shows how often it happened.
            rec.counts["join_retries"] += 1
            table_id = self.table.table_id
            self.table.ctx.loop.call_later(0.05, lambda: self.send("join", table_id=table_id, seat=self.seat))
            return
        elif self.table.bots and self.seat == 0 and code == "no_such_table":
            self.table.missed()  # a bots game can end (and its table go) before the spectate arrives
            return
        rec.note(f"error {code}: {message.get('message')}")

    def on_seated(self, message: dict[str, Any]) -> None:
        self.table.seated += 1
        if self.table.seated == SEATS:
            self.table.ctx.rec.counts["tables_playing"] += 1

    def on_snapshot(self, message: dict[str, Any]) -> None:
        if self.table.bots and self.seat == 0:
            self.table.ctx.rec.counts["tables_playing"] += 1
            if message["table"]["status"] == "finished":
                self.table.missed()

    def on_turn(self, message: dict[str, Any]) -> None:
        legal = message.get("legal_actions")
        if legal and message.get("table_id") == self.table.table_id:
            self.table.ctx.later(self.table.next_at, self.table.act, self, legal)

    def on_event(self, message: dict[str, Any]) -> None:
        ctx = self.table.ctx
        ctx.rec.counts["events"] += 1
        if self.sent is not None:
            ctx.rec.latency(self.sent, ctx.loop.time())
            self.sent = None
        if self.seat == 0 and message.get("table_id") == self.table.table_id:
            kind = message["event"]["type"]
            ctx.rec.counts["table_events"] += 1
            if kind in ACTION_EVENTS:
                ctx.rec.counts["table_actions"] += 1
                if self.table.bots:  # bots pace: the actions are the bots' own, timed as seen here
                    ctx.rec.sent_at.append(ctx.loop.time() - ctx.rec.t0)
            elif kind == "game_over":
                self.table.game_over()
        turn = message.get("turn")
        if turn is not None:  # feature turn_in_event: the turn that follows this event
            self.on_turn({**turn, "table_id": message.get("table_id")})

    def on_other(self, message: dict[str, Any]) -> None:
        """ok, pong, seat_status, chat, lobby pushes, and types a newer server may add."""


class BoneyardTable:
    def __init__(self, ctx: Ctx, index: int) -> None:
        self.ctx = ctx
        self.index = index
        self.bots = ctx.cfg.pace == "bots"
        role = "watch" if self.bots else "join"
        self.clients = [BoneyardClient(self, seat, "create" if seat == 0 else role) for seat in range(SEATS)]
        self.table_id: str | None = None
        self.turn_seconds: int | None = None
        self.is_created: asyncio.Future[None] = ctx.loop.create_future()
        self.next_at = 0.0
        self.seated = 0

    async def start(self) -> None:
        if not await self.open(self.clients[0]):
            return
        try:
            await asyncio.wait_for(asyncio.shield(self.is_created), 60)
        except TimeoutError:
            self.ctx.rec.counts["create_timeout"] += 1
            return
        await asyncio.gather(*(self.open(client) for client in self.clients[1:]))

    async def open(self, client: BoneyardClient) -> bool:
        # Bots: a table's spectators on its creator's (and owner's) node; players: spread over the nodes.
        return await self.ctx.open(client, self.ctx.port_for(self.index, 0 if self.bots else client.seat))

    def created(self, table_id: str) -> None:
        old, self.table_id = self.table_id, table_id
        if not self.is_created.done():
            self.is_created.set_result(None)
            if self.bots:
                self.clients[0].send("spectate", table_id=table_id)
            return
        for client in self.clients:  # bots: the next table, after a game over
            if client.welcomed:  # the others spectate the current table once welcomed
                client.send("leave", table_id=old)
                client.send("spectate", table_id=table_id)

    def act(self, client: BoneyardClient, legal: list[Any]) -> None:
        ctx = self.ctx
        if ctx.stopping or client.ws is None or not client.ws.is_open:
            return
        client.act_id = client.send("act", table_id=self.table_id, action=ctx.rng.choice(legal))
        now = ctx.loop.time()
        client.sent = now
        ctx.rec.sent_at.append(now - ctx.rec.t0)
        self.next_at = now + 1.0

    def missed(self) -> None:
        """Bots: the game was over before our spectators got there; start another."""
        self.ctx.rec.counts["bot_games_missed"] += 1
        self.game_over(count=False)

    def game_over(self, count: bool = True) -> None:
        if count:
            self.ctx.rec.counts["games_over"] += 1
        if self.ctx.stopping:
            return
        if self.bots:
            if self.clients[0].create_id < 0:  # not already creating the next table
                self.clients[0].create()
        else:
            for client in self.clients:
                client.send("rematch", table_id=self.table_id)
