// Fair deals (PROTOCOL.md section 14, boneyard-deal/1) checked in the browser with WebCrypto:
// SHA-256 of the revealed server seed against the commitment sent before the first deal, and every
// hand this client saw recomputed from the seeds (HMAC-SHA256 stream, rejection sampling, Fisher-Yates).
// A DealWitness follows one game at one table, as the Python client's does (clients/cli/core/fairness.py).

import { rulesOf } from "./games.js";

export const ALGORITHM = "boneyard-deal/1";
const HAND_SIZE = 7;
/** The verdict's words on the deal of a game this client has no rules for (sdk/generic.js). */
export const UNKNOWN_DEAL = "deal not checked: this page does not know how this game deals";

/** The tile with id `id` (high (high + 1) / 2 + low) as [high, low]. */
export function tileOf(id) {
  let high = 0;
  while (((high + 1) * (high + 2)) / 2 <= id) high += 1;
  return [high, id - (high * (high + 1)) / 2];
}

const key = (tile) => `${tile[0]}-${tile[1]}`;
const word = (tile) => `[${tile[0]}-${tile[1]}]`;
const words = (tiles) => tiles.map(word).join(" ");

export function hexBytes(text) {
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`not 64 lowercase hex digits: ${text}`);
  return Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));
}

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 of a server seed (hex), as hex: what deal_commitment carries. */
export async function commitmentOf(serverSeedHex) {
  return hex(await crypto.subtle.digest("SHA-256", hexBytes(serverSeedHex)));
}

/** Steps 2 and 3: one hand's byte stream and the uniform numbers drawn from it. */
class HandStream {
  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
    this.counter = 0;
    this.buffer = new Uint8Array(0);
    this.at = 0;
  }

  async nextByte() {
    if (this.at >= this.buffer.length) {
      const message = new Uint8Array(this.prefix.length + 4);
      message.set(this.prefix);
      new DataView(message.buffer).setUint32(this.prefix.length, this.counter++);
      this.buffer = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message));
      this.at = 0;
    }
    return this.buffer[this.at++];
  }

  async below(n) {
    const mask = (1 << (n - 1).toString(2).length) - 1;
    for (;;) {
      const value = (await this.nextByte()) & mask;
      if (value < n) return value;
    }
  }
}

/** One hand's deal as the seeds fix it: {hands, rest, chanceFirst} (section 14, steps 1 to 6). */
export async function deal(game, serverSeedHex, playerSeedsHex, hand) {
  const seats = playerSeedsHex.length;
  const block = new Uint8Array(33 * seats);
  playerSeedsHex.forEach((seed, seat) => {
    if (seed !== null) {
      block[33 * seat] = 1;
      block.set(hexBytes(seed), 33 * seat + 1);
    }
  });
  const name = new TextEncoder().encode(ALGORITHM);
  const prefix = new Uint8Array(name.length + 2 + block.length + 4);
  prefix.set(name);
  prefix[name.length + 1] = seats;
  prefix.set(block, name.length + 2);
  new DataView(prefix.buffer).setUint32(name.length + 2 + block.length, hand);
  const hmacKey = await crypto.subtle.importKey("raw", hexBytes(serverSeedHex), { name: "HMAC", hash: "SHA-256" },
    false, ["sign"]);
  const stream = new HandStream(hmacKey, prefix);
  const ids = Array.from({ length: 28 }, (_, i) => i);
  for (let i = 27; i > 0; i--) {
    const j = await stream.below(i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  // The game's tiles only (Moon plays 22: 1-0 .. 6-0 are skipped).
  const order = ids.map(tileOf).filter(rulesOf(game).inPlay);
  const hands = Array.from({ length: seats }, (_, s) => order.slice(HAND_SIZE * s, HAND_SIZE * (s + 1)));
  return { hands, rest: order.slice(HAND_SIZE * seats), chanceFirst: await stream.below(seats) };
}

/** What one client saw of one game's deals, checked when the seeds are revealed. */
export class DealWitness {
  constructor(seat, commitment) {
    this.seat = seat;
    this.commitment = commitment; // the deal_commitment message, or null when none was seen
    this.game = null;
    this.announced = new Map();
    this.sent = null;
    this.hands = [];
    this.current = null;
    this.blocked = false;
    this.verdict = null; // {ok, problems, hands, text} once checked
  }

  /** A snapshot replaced the picture: who held what in the current hand is not followed further. */
  resync(handNumber) {
    const last = this.hands[this.hands.length - 1];
    if (last && last.number === handNumber) last.gap = true;
    else this.current = null;
  }

  /** Note a table message (deal messages and game events). */
  note(message) {
    if (message.type === "seed_contributed") this.announced.set(message.seat, message.seed);
    else if (message.type === "seed_sent") this.sent = message.seed;
    else if (message.type === "event") {
      this.game = message.game;
      this.event(message.event);
    }
  }

  event(event) {
    if (event.type === "hand_started") {
      const chance = event.hand === 0 || (rulesOf(this.game).chanceAfterBlocked && this.blocked);
      this.current = { number: event.hand, first: event.first, boneyard: event.boneyard, chance, dealt: new Map(),
        widow: null, draws: [], shown: [], gap: false };
      this.hands.push(this.current);
      this.blocked = false;
      return;
    }
    if (event.type === "blocked" || event.type === "domino") this.blocked = event.type === "blocked";
    const hand = this.current;
    if (hand === null) return;
    if (event.type === "hand_dealt" && event.tiles) hand.dealt.set(event.seat, event.tiles);
    else if (event.type === "widow_taken") hand.widow = [event.seat, event.tile];
    else if (event.type === "tile_drawn") hand.draws.push([hand.boneyard - event.boneyard - 1, event.seat, event.tile]);
    else if (hand.gap) return;
    else if (event.type === "tile_played") hand.shown.push([event.seat, event.tile, "played"]);
    else if (event.type === "discarded" && event.tile) hand.shown.push([event.seat, event.tile, "discarded"]);
  }

  /** Check the reveal: resolves with the verdict (also kept as this.verdict): {ok, unchecked, problems,
   * hands, text}. A client that never saw the commitment (it came to the game late, or the page was
   * loaded again) cannot tell the deal was fixed in advance: unchecked, not a failure. */
  async check(reveal) {
    if (this.commitment === null) {
      const text = "deal not checked: this page did not see the commitment before the deal";
      this.verdict = { ok: false, unchecked: true, problems: [], hands: 0, text };
      return this.verdict;
    }
    const problems = await this.seedProblems(reveal);
    let seen = 0;
    if (problems.length === 0 && !rulesOf(this.game).unknown) {
      for (const hand of this.hands) {
        const fixed = await deal(this.game, reveal.server_seed, reveal.player_seeds, hand.number);
        problems.push(...handProblems(hand, fixed));
        seen += 1;
      }
    }
    if (problems.length === 0 && seen === 0) {  // the commitment came, but no hand dealt after it was seen whole
      const text = rulesOf(this.game).unknown ? UNKNOWN_DEAL : "deal not checked: this page saw no hand from its deal";
      this.verdict = { ok: false, unchecked: true, problems: [], hands: 0, text };
      return this.verdict;
    }
    const ok = problems.length === 0;
    const text = ok ? `deal verified (${seen} hand${seen === 1 ? "" : "s"} checked)` : `deal NOT verified: ${problems.join("; ")}`;
    this.verdict = { ok, unchecked: false, problems, hands: seen, text };
    return this.verdict;
  }

  async seedProblems(reveal) {
    const problems = [];
    if (reveal.algorithm !== ALGORITHM) problems.push(`the deals used ${reveal.algorithm}, which this client does not know`);
    if (this.commitment.commitment !== reveal.commitment) {
      problems.push(`the server committed to ${this.commitment.commitment} but reveals ${reveal.commitment}`);
    }
    if (await commitmentOf(reveal.server_seed) !== reveal.commitment) {
      problems.push("SHA-256 of the revealed server seed is not the commitment");
    }
    reveal.player_seeds.forEach((seed, seat) => {
      if ((this.announced.get(seat) ?? null) !== seed) {
        problems.push(`seat ${seat}'s seed was announced as ${this.announced.get(seat) ?? "none"} but revealed as ${seed ?? "none"}`);
      }
    });
    if (this.sent !== null && this.seat !== null && reveal.player_seeds[this.seat] !== this.sent) {
      problems.push(`our seed ${this.sent} was not used`);
    }
    return problems;
  }
}

function handProblems(hand, fixed) {
  const where = `hand ${hand.number + 1}`;
  const problems = [];
  const holds = fixed.hands.map((tiles) => new Set(tiles.map(key)));
  const sorted = (tiles) => tiles.map(key).sort().join(" ");
  for (const [seat, tiles] of hand.dealt) {
    if (sorted(tiles) !== sorted(fixed.hands[seat])) {
      problems.push(`${where}: seat ${seat} was dealt ${words(tiles)}, the seeds deal ${words(fixed.hands[seat])}`);
    }
  }
  if (hand.chance && hand.first !== fixed.chanceFirst) {
    problems.push(`${where}: seat ${hand.first} went first, the seeds chose seat ${fixed.chanceFirst}`);
  }
  if (hand.widow !== null) {
    const [seat, widow] = hand.widow;
    if (widow && key(widow) !== key(fixed.rest[0])) problems.push(`${where}: the widow was ${word(widow)}, the seeds deal ${word(fixed.rest[0])}`);
    holds[seat].add(key(fixed.rest[0]));
  }
  for (const [position, seat, tile] of hand.draws) {
    const want = fixed.rest[position];
    if (tile && (!want || key(tile) !== key(want))) {
      problems.push(`${where}: draw ${position + 1} was ${word(tile)}, the seeds put ${want ? word(want) : "nothing"} there`);
    }
    if (want) holds[seat].add(key(want));
  }
  for (const [seat, tile, how] of hand.shown) {
    if (!holds[seat].has(key(tile))) problems.push(`${where}: seat ${seat} ${how} ${word(tile)}, which the seeds never gave it`);
  }
  return problems;
}
