"""The commands of protocol v1 as typed methods; :class:`boneyard.clients.cli.core.Client` inherits them.

Each returns the command's reply (PROTOCOL.md section 3) or raises
:class:`~clients.cli.core.commands.CommandError` with the server's error code.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from boneyard.clients.cli.core.mirror import Mirror
from boneyard.protocol import (
    Act,
    ChatCommand,
    ContributeSeed,
    GetRecord,
    Join,
    Leave,
    ListTables,
    Ok,
    Ping,
    Pong,
    Ready,
    RecordMessage,
    Rematch,
    Seated,
    Snapshot,
    Spectate,
    TableCreated,
    TableList,
    TakeSeat,
)


class CommandMethods:
    """Typed wrappers over :meth:`request`."""

    mirror: Mirror
    _watching: set[str]
    """Tables we spectate: a spectator has no seat to resume, so these are watched again."""

    async def request(self, command: BaseModel | dict[str, Any]) -> Any:
        raise NotImplementedError

    async def ping(self) -> Pong:
        reply: Pong = await self.request(Ping(type="ping"))
        return reply

    async def list_tables(self) -> TableList:
        reply: TableList = await self.request(ListTables(type="list_tables"))
        return reply

    async def create_table(
        self,
        game: str,
        *,
        options: dict[str, Any] | None = None,
        bots: Sequence[int] = (),
        turn_seconds: int | None = 30,
        seat: int | None = 0,
        bot_delay_ms: int | None = None,
        bot_levels: Sequence[str] = (),
        hand_pause_ms: int | None = None,
        rated: bool = False,
    ) -> TableCreated:
        """Create a table (and sit at ``seat`` unless it is ``None``); the reply is ``table_created``.

        ``bot_delay_ms`` paces the table's bots (a server whose ``hello.features`` lists ``bot_delay``);
        ``bot_levels``: one per bot (feature ``bot_levels``; left out when empty, for older servers);
        ``hand_pause_ms``: the table's pause between hands (feature ``hand_pause``; ``None``: the server's);
        ``rated``: rate its games (feature ``ratings``; signed in, timed).
        """
        command: dict[str, Any] = {
            "type": "create_table",
            "game": game,
            "bots": list(bots),
            "turn_seconds": turn_seconds,
            "seat": seat,
            "options": options or {},
        }
        if bot_delay_ms is not None:
            command["bot_delay_ms"] = bot_delay_ms
        if bot_levels:
            command["bot_levels"] = list(bot_levels)
        if hand_pause_ms is not None:
            command["hand_pause_ms"] = hand_pause_ms
        if rated:
            command["rated"] = True
        reply: TableCreated = await self.request(command)
        return reply

    async def join(self, table_id: str, seat: int) -> Seated:
        reply: Seated = await self.request(Join(type="join", table_id=table_id, seat=seat))
        return reply

    async def take_seat(self, table_id: str, seat: int) -> Seated:
        reply: Seated = await self.request(TakeSeat(type="take_seat", table_id=table_id, seat=seat))
        return reply

    async def spectate(self, table_id: str) -> Snapshot:
        reply: Snapshot = await self.request(Spectate(type="spectate", table_id=table_id))
        self._watching.add(table_id)
        return reply

    async def leave(self, table_id: str) -> None:
        await self.request(Leave(type="leave", table_id=table_id))
        self._watching.discard(table_id)
        self.mirror.forget(table_id)

    async def rematch(self, table_id: str) -> None:
        await self.request(Rematch(type="rematch", table_id=table_id))

    async def ready(self, table_id: str) -> None:
        """Done looking at the hand's result: the table's pause between hands need not wait for us."""
        await self.request(Ready(type="ready", table_id=table_id))

    async def act(self, table_id: str, action: BaseModel | dict[str, Any]) -> Ok:
        """Take an action; returns once the server has applied it (its events are mirrored by then)."""
        data = action.model_dump() if isinstance(action, BaseModel) else action
        act = Act.model_validate({"type": "act", "table_id": table_id, "action": data})
        reply: Ok = await self.request(act)
        return reply

    async def chat(self, table_id: str, text: str) -> None:
        await self.request(ChatCommand(type="chat", table_id=table_id, text=text))

    async def contribute_seed(self, table_id: str, seed: str | None = None) -> str:
        """Add a seed to the starting game's deals (a fresh random one by default); returns it. The
        client does this by itself when a game starts (``Client(contribute_seeds=True)``)."""
        seed = secrets.token_hex(32) if seed is None else seed
        deals = self.mirror.table(table_id).deals
        if deals is not None:
            deals.sent = seed  # before the reply: the announcement comes first
        try:
            await self.request(ContributeSeed(type="contribute_seed", table_id=table_id, seed=seed))
        except BaseException:
            if deals is not None and deals.sent == seed:
                deals.sent = None
            raise
        return seed

    async def get_record(self, record_id: str) -> RecordMessage:
        reply: RecordMessage = await self.request(GetRecord(type="get_record", record_id=record_id))
        return reply
