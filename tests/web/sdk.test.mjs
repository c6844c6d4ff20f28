// The JavaScript SDK against a real server (started by tests/web/test_web_sdk.py, its URL in BONEYARD_URL):
// node --experimental-websocket --import ./tests/web/register.mjs --test tests/web/sdk.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";

import { decode } from "@msgpack/msgpack";

import { BoneyardClient, CommandError, unfolded } from "../../clients/web/sdk/client.js";
import { deal, tileOf } from "../../clients/web/sdk/fairness.js";
import { newKeyPair, signIn } from "../../clients/web/sdk/keys.js";
import { Mirror } from "../../clients/web/sdk/mirror.js";

const URL = process.env.BONEYARD_URL;

/** A client whose every message goes through a mirror, noting each frame's seq per connection. */
function session(name, options = {}) {
  const frames = [];
  const client = new BoneyardClient({ url: URL, name, backoff: { first: 50, max: 200 },
    onFrame: (_, message) => frames.push(message), ...options });
  const mirror = new Mirror();
  const seen = [];
  client.listen((m) => {
    mirror.apply(m);
    seen.push(m);
  });
  return { client, mirror, seen, frames };
}

/** Resolves with the first message `match` accepts (from now on). */
function next(client, match, ms = 10000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out waiting")), ms);
    const stop = client.listen((m) => {
      if (match(m)) {
        clearTimeout(timer);
        stop();
        resolve(m);
      }
    });
  });
}

const gameOver = (m) => m.type === "event" && m.event.type === "game_over";

/** Answer every turn of ours with the first legal action (opening Moon auctions at 4): until game over. */
function autoplay(client, mirror, tableId) {
  client.listen((m) => {
    if (m.type !== "turn" || m.table_id !== tableId || !m.legal_actions.length) return;
    const bids = m.legal_actions.filter((a) => a.type === "bid");
    const action = bids.find((a) => a.bid === 4) ?? m.legal_actions.find((a) => a.type === "pass" && bids.length)
      ?? m.legal_actions[0];
    client.request({ type: "act", table_id: tableId, action }).catch(() => {});
  });
  return next(client, gameOver, 60000);
}

test("handshake: hello, identify, welcome, seq from 1 without gaps", async () => {
  const { client, frames } = session("ana");
  const welcome = await client.connect();
  assert.equal(welcome.type, "welcome");
  assert.equal(welcome.name, "ana");
  assert.equal(client.hello.protocol, 1);
  assert.deepEqual(welcome.accepted, ["turn_in_event"]);
  const list = await client.request({ type: "list_tables" });
  assert.equal(list.type, "table_list");
  assert.deepEqual(frames.map((m) => m.seq), frames.map((_, i) => i + 1));
  client.close();
});

test("requests by id: a reply resolves its own command, an error rejects with its code", async () => {
  const { client } = session("li");
  await client.connect();
  const [pong, list] = await Promise.all([client.request({ type: "ping" }), client.request({ type: "list_tables" })]);
  assert.equal(pong.type, "pong");
  assert.equal(list.type, "table_list");
  await assert.rejects(client.request({ type: "join", table_id: "nosuch", seat: 0 }),
    (error) => error instanceof CommandError && error.code === "no_such_table");
  client.close();
  await assert.rejects(client.request({ type: "ping" }), (error) => error.code === "not_connected");
});

const WHOLE_GAMES = [
  ["Moon", "moon", [1, 2], { target: 7 }],
  ["Texas 42", "texas42", [1, 2, 3], { target: 2, nello: true }],
];

for (const [title, game, bots, options] of WHOLE_GAMES) {
  test(`a whole ${title} game against bots: the mirror follows it and the deals verify`, async () => {
    const { client, mirror } = session(`${game}-player`);
    await client.connect();
    const created = await client.request({ type: "create_table", game, bots, seat: 0, turn_seconds: null, options });
    const tableId = created.table.table_id;
    const revealing = next(client, (m) => m.type === "deal_revealed", 60000); // it may come with game_over
    const over = await autoplay(client, mirror, tableId);
    const revealed = await revealing;
    const table = mirror.table(tableId);
    const verdict = await table.verdict;
    assert.ok(verdict.ok, verdict.text);
    assert.ok(verdict.hands >= 1);
    assert.equal(revealed.player_seeds[0], table.deals.sent, "our seed went into the deals");
    assert.deepEqual(table.view.scores, over.event.scores);
    assert.equal(table.view.phase, "over");
    assert.deepEqual(table.hands.map((h) => h.scores), table.log.filter((e) => e.type === "hand_scored").map((e) => e.scores));
    assert.equal(table.hands.length >= 1, true);
    client.close();
  });
}

test("a dropped socket resumes: the missed messages are replayed, nothing lost, no seq gap", async () => {
  const { client, mirror, seen } = session("resumer");
  await client.connect();
  const created = await client.request({ type: "create_table", game: "straight", bots: [1], seat: 0,
    turn_seconds: null, bot_delay_ms: 20, options: { players: 2, target: 30 } });
  const tableId = created.table.table_id;
  let dropped = false;
  client.listen((m) => { // on our first turn, before answering it: the socket goes
    if (!dropped && m.type === "turn" && m.legal_actions.length) {
      dropped = true;
      client.drop();
    }
  });
  const resumed = next(client, (m) => m.type === "welcome" && m.resumed);
  await autoplay(client, mirror, tableId);
  assert.ok(dropped);
  assert.ok((await resumed).resumed);
  const events = seen.filter((m) => m.type === "event" && m.table_id === tableId).map((m) => m.event.type);
  assert.equal(events[0], "hand_started");
  assert.equal(events.at(-1), "game_over");
  client.close();
});

test("a frame lost in the transport is a seq gap: the client resumes and gets it again", async () => {
  let swallowed = null;
  let count = 0;
  class Lossy extends WebSocket {
    set onmessage(handler) {
      super.onmessage = (event) => {
        if (swallowed === null && ++count === 8) { // the first connection's 8th frame, after seated
          swallowed = new Uint8Array(event.data);
          return; // it never reaches the client
        }
        handler(event);
      };
    }
  }
  const { client, seen } = session("gap", { WebSocket: Lossy });
  await client.connect();
  const resumed = next(client, (m) => m.type === "notice" && m.kind === "resumed");
  const turn = next(client, (m) => m.type === "turn" && m.legal_actions.length > 0);
  const created = await client.request({ type: "create_table", game: "moon", bots: [1, 2], seat: 0, turn_seconds: null });
  await resumed;
  assert.ok(swallowed !== null);
  assert.ok(seen.some((m) => m.type === "notice" && /seq 9 after 7/.test(m.text)));
  assert.equal((await turn).table_id, created.table.table_id);
  const { seq, ...lost } = decode(swallowed); // the lost frame came again, replayed with a new seq
  const after = seen.slice(seen.findIndex((m) => m.type === "notice" && m.kind === "resumed"));
  assert.ok(after.some(({ seq: _, ...m }) => JSON.stringify(m) === JSON.stringify(lost)), JSON.stringify(lost));
  client.close();
});

test("boneyard-deal/1 gives section 14's worked example", async () => {
  const server = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  const seeds = ["a1".repeat(32), null, "5e".repeat(32)];
  const word = ([h, l]) => `${h}-${l}`;
  const moon = await deal("moon", server, seeds, 0);
  assert.deepEqual(moon.hands[0].map(word), ["4-3", "5-3", "4-2", "2-2", "5-5", "6-2", "1-1"]);
  assert.deepEqual(moon.rest.map(word), ["3-2"]);
  assert.equal(moon.chanceFirst, 0);
  const straight = await deal("straight", server, seeds, 0);
  assert.deepEqual(straight.hands[2].map(word), ["5-4", "4-1", "6-3", "3-1", "6-4", "6-0", "5-2"]);
  assert.deepEqual(straight.rest.map(word), ["6-6", "6-1", "5-1", "0-0", "3-0", "1-0", "3-2"]);
  assert.deepEqual([0, 1, 2, 27].map((id) => word(tileOf(id))), ["0-0", "1-0", "1-1", "6-6"]);
});

test("unfolded: an event with a turn and a reply is the event, the turn, the ok", () => {
  const folded = { type: "event", seq: 9, table_id: "t1", game: "moon", auto: false, event: { type: "passed", seat: 1 },
    turn: { seat: 2, time_left_ms: null, legal_actions: [] }, reply_to: 4 };
  assert.deepEqual(unfolded(folded).map((m) => [m.type, m.seq]), [["event", 9], ["turn", 9], ["ok", 9]]);
  assert.equal(unfolded(folded)[0].turn, undefined);
});

test("sign-in with a key: an account made, then the same key signs in on a new connection; another key is refused", async () => {
  const keyPair = await newKeyPair();
  const account = `sdk${Date.now() % 100000}`;
  const first = session("guest-name", { signIn: (nonce) => signIn(keyPair, account, nonce, { create: true }) });
  assert.equal((await first.client.connect()).account, account);
  first.client.close();
  const again = session("guest-name", { signIn: (nonce) => signIn(keyPair, account, nonce) });
  const welcome = await again.client.connect();
  assert.equal(welcome.account, account);
  assert.equal(welcome.name, account);
  again.client.close();
  const stranger = await newKeyPair();
  const thief = session("guest-name", { signIn: (nonce) => signIn(stranger, account, nonce) });
  await assert.rejects(thief.client.connect(), (error) => error.code === "sign_in_refused");
});
