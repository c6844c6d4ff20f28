"""A complete Boneyard bot in a few dozen lines, written against the client SDK (docs/CLIENT.md).

It sits at a new table against the server's bots and plays a random legal move whenever
the server says it is its turn, then prints the result. Dropped connections are
reconnected and resumed by the SDK; the bot does not have to care.

    python -m boneyard.clients.cli.examples.random_bot ws://localhost:8765/ --game straight
"""

from __future__ import annotations

import argparse
import asyncio
import random

from boneyard.clients.cli.core import Client, CommandError
from boneyard.clients.cli.core.games import load_games
from boneyard.clients.cli.ui.options import check_options, players_of
from boneyard.protocol import Turn
from boneyard.protocol.game import GameOver


async def play(
    url: str, game: str = "moon", options: dict[str, object] | None = None, name: str = "random-bot",
    seed: int | None = None,
) -> GameOver:  # fmt: skip
    rng = random.Random(seed)
    options = options or {}
    players = players_of(check_options(game, options))  # the game's options model says how many play
    async with Client(url, name) as client:
        events = client.listen()  # subscribe before creating the table: nothing is missed
        bots = list(range(1, players))  # the server's bots fill the other seats
        created = await client.create_table(game, options=options, bots=bots, turn_seconds=None)
        table_id = created.table.table_id
        async for message in events:
            if isinstance(message, Turn) and message.table_id == table_id and message.legal_actions:
                # The mirror already applied this turn; its legal actions are the server's own list.
                action = rng.choice(message.legal_actions)
                try:
                    await client.act(table_id, action)
                except CommandError as error:  # e.g. the turn timer ran out just before
                    print("refused:", error.explain())
            event = getattr(message, "event", None)
            if isinstance(event, GameOver) and message.table_id == table_id:
                mirror = client.mirror.tables[table_id]
                print(f"game over: winner {mirror.seat_name(event.winner)}, scores {list(event.scores)}")
                return event
    raise ConnectionError("the connection closed before the game ended")


def main() -> None:
    parser = argparse.ArgumentParser(description="A bot that plays random legal moves.")
    parser.add_argument("url")
    parser.add_argument("--game", choices=list(load_games()), default="moon")
    parser.add_argument("--name", default="random-bot")
    args = parser.parse_args()
    asyncio.run(play(args.url, args.game, args.name))


if __name__ == "__main__":
    main()
