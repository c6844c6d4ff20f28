"""What one ``get_record`` costs the server: the old path (read back, validate, encode) against the
encoded-once reply (``server/record_bodies.py``). ``python bench/bench_records.py``."""

from __future__ import annotations

import random
import time

from boneyard.protocol import RecordMessage
from boneyard.server.games.base import RandomDealer
from boneyard.server.games.registry import game_spec
from boneyard.server.record_bodies import RecordBodies
from boneyard.server.record_store import GameRecord, MemoryRecordStore, validated
from boneyard.server.simulate import play_bots
from boneyard.server.wire import body_of


def longest_moon_record(seeds: int = 40) -> GameRecord:
    spec = game_spec("moon")
    options = spec.options_from_dict({"target": 150})
    records = []
    for seed in range(seeds):
        engine = play_bots(spec, spec.new_game(options, RandomDealer(seed)), random.Random(seed))
        records.append(validated(engine.record(["a", "b", "c"])))
    return max(records, key=lambda r: len(r.hands))


def main(fetches: int = 50) -> None:
    record = longest_moon_record()
    store = MemoryRecordStore()
    store.put("r1", record)
    started = time.perf_counter()
    for i in range(fetches):
        loaded = store.get("r1")
        body = body_of(RecordMessage(type="record", seq=1, reply_to=i, record_id="r1", record=loaded))
    old = (time.perf_counter() - started) / fetches
    bodies = RecordBodies(store.get)
    bodies.reply("r1", 0)  # the one encoding
    started = time.perf_counter()
    for i in range(fetches):
        bodies.reply("r1", i)
    cached = (time.perf_counter() - started) / fetches
    size = f"{len(record.hands)} hands, {len(body)} bytes"
    print(f"{size}: {old * 1e3:.1f} ms a fetch before, {cached * 1e6:.1f} µs cached")


if __name__ == "__main__":
    main()
