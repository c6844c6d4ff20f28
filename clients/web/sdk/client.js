// The Boneyard JavaScript SDK: one session with a server speaking protocol v1 (PROTOCOL.md), no UI.
//
// What it does for you, section by section:
// - 1: opens the websocket with subprotocol boneyard.v1, binary msgpack frames decoded within the
//   server-to-client bounds;
// - 2: waits for hello, sends identify (opting in to turn_in_event when offered; signed in with the
//   player's key when signIn is given, section 7), waits for welcome;
// - 3: gives every command an id and resolves its reply (rejects with a CommandError on an error);
// - 4: checks that seq grows by one; a gap or a repeat closes the socket and resumes;
// - 5: hands on an event carrying a turn (turn_in_event) as the event, then the turn, then the ok;
// - 7, 9: after a drop with a code that allows it, reconnects with backoff (1 s doubling to 30 s, with
//   jitter) and resumes with the seated token and the last seq it processed: replayed messages go to
//   the listeners as if never missed, or fresh snapshots come instead;
// - 14: contributes a random seed when a game it sits at commits to its deals (contributeSeeds).
// The transport (a WebSocket constructor) and the token's storage are handed in, so the same module
// runs in a browser and under Node (node --experimental-websocket) against a real server.

import { Decoder, encode } from "@msgpack/msgpack";

export const SUBPROTOCOL = "boneyard.v1";

/** Section 1's server-to-client bounds (max_frame_bytes is checked on the frame itself). */
export const RECEIVE_LIMITS = Object.freeze({
  maxFrameBytes: 1048576,
  maxStrLength: 4096,
  maxArrayLength: 10000,
  maxMapLength: 64,
  maxBinLength: 0,
  maxExtLength: 0,
});

/** Section 9: the close codes after which a client reconnects, and whether it resumes. */
export const CLOSE_CODES = Object.freeze({
  1000: { name: "normal", reconnect: false, resume: false },
  1001: { name: "going_away", reconnect: true, resume: true },
  1002: { name: "protocol_error", reconnect: false, resume: false },
  1007: { name: "invalid_data", reconnect: false, resume: false },
  1008: { name: "policy_violation", reconnect: false, resume: false },
  1009: { name: "message_too_big", reconnect: false, resume: false },
  1011: { name: "internal_error", reconnect: true, resume: true },
  1012: { name: "service_restart", reconnect: true, resume: true },
  4000: { name: "unsupported_protocol", reconnect: false, resume: false },
  4001: { name: "handshake_failed", reconnect: false, resume: false },
  4002: { name: "resume_rejected", reconnect: true, resume: false },
  4003: { name: "replaced", reconnect: false, resume: false },
  4004: { name: "too_slow", reconnect: true, resume: true },
  4005: { name: "flood", reconnect: true, resume: true },
  4006: { name: "idle_timeout", reconnect: true, resume: true },
  4007: { name: "server_full", reconnect: true, resume: true },
});
const LOST = { name: "connection_lost", reconnect: true, resume: true }; // 1006 and unknown codes: as 1011

/** Section 7: a resume after a page load, which knows nothing of the old connection, must get fresh
 * snapshots; a last_seq past everything the server sent does exactly that. */
export const FRESH_RESUME_SEQ = Number.MAX_SAFE_INTEGER;

/** The client's own close code when it drops a connection to resynchronise (a seq gap). */
const RESYNC_CLOSE = 3000;

/** A command that failed: the error's code (section 8), or connection_lost / not_connected. */
export class CommandError extends Error {
  constructor(code, message, reply = null) {
    super(`${code}: ${message}`);
    this.code = code;
    this.reply = reply;
  }
}

/** Backoff delays in milliseconds: first, doubling to max, each with up to a quarter of jitter. */
export function* backoff({ first = 1000, max = 30000, random = Math.random } = {}) {
  for (let delay = first; ; delay = Math.min(max, delay * 2)) {
    yield delay * (0.75 + random() / 4);
  }
}

/** 32 random bytes as 64 hex digits (a seed to contribute). */
export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Section 5, "Turns inside events": an event carrying a turn (and the actor's ok) as the messages it
 * stands for, all with the event's seq. Every other message is itself. */
export function unfolded(message) {
  if (message.type !== "event" || !message.turn) return [message];
  const { turn, reply_to: replyTo, ...event } = message;
  const parts = [event, { type: "turn", seq: message.seq, table_id: message.table_id, ...turn }];
  if (replyTo !== undefined && replyTo !== null) parts.push({ type: "ok", seq: message.seq, reply_to: replyTo });
  return parts;
}

export class BoneyardClient {
  /**
   * @param {object} options
   * @param {string} options.url the server's websocket URL (ws://host:port/)
   * @param {string} options.name the display name
   * @param {typeof WebSocket} [options.WebSocket] the websocket class (default: the global one)
   * @param {{getItem(k:string):string|null, setItem(k:string,v:string):void, removeItem(k:string):void}} [options.storage]
   *   where the resume token is kept across page loads (localStorage); none: memory only
   * @param {boolean} [options.contributeSeeds] send a random seed when a game commits to its deals
   * @param {boolean} [options.foldTurns] accept turn_in_event when the server offers it
   * @param {object} [options.backoff] {first, max} in milliseconds
   * @param {(frame: Uint8Array, message: object) => void} [options.onFrame] every frame as received (a debug hook)
   * @param {(nonce: string) => Promise<object|null>} [options.signIn] identify.sign_in for a connection's
   *   hello.nonce (sdk/keys.js signIn), on every connection; none: a guest
   */
  constructor({ url, name, WebSocket: Socket = globalThis.WebSocket, storage = null, contributeSeeds = true,
    foldTurns = true, backoff: delays = {}, onFrame = null, signIn = null }) {
    this.url = url;
    this.name = name;
    this.signIn = signIn;
    this.Socket = Socket;
    this.storage = storage;
    this.contributeSeeds = contributeSeeds;
    this.foldTurns = foldTurns;
    this.delays = delays;
    this.onFrame = onFrame;
    this.decoder = new Decoder(RECEIVE_LIMITS);
    this.listeners = new Set();
    this.pending = new Map(); // id -> {resolve, reject, connection}
    this.nextId = 0;
    this.lastSeq = 0;
    this.connection = 0; // how many connections were opened
    this.ws = null;
    this.hello = null;
    this.welcome = null;
    this.seats = new Map(); // table_id -> seat
    this.closing = false;
    this.timer = null;
    this.replaying = 0;
    this.token = null; // the latest seated token (kept in storage too, when there is one)
    this.resumeSeq = 0; // the last seq processed on the last connection that was welcomed
    this.schedule = null; // the backoff delays of the reconnection under way
  }

  // -- the public API ----------------------------------------------------------------------------

  /** Listen to every server message (after unfolding) and to notices {type: "notice", kind, text, code}:
   * kinds connected, disconnected, reconnecting, resumed, resume_rejected, closed. Returns an unsubscribe. */
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Open the session; resolves with welcome. A stored token resumes its seats with fresh snapshots. */
  connect() {
    this.closing = false;
    this.token = this.storage?.getItem("boneyard.token") ?? null;
    return this.open(this.token ? { token: this.token, last_seq: FRESH_RESUME_SEQ } : null);
  }

  /** Send a command; resolves with its reply (rejects with CommandError on an error reply). */
  request(command) {
    return new Promise((resolve, reject) => {
      if (!this.connected) {
        reject(new CommandError("not_connected", "not connected to the server"));
        return;
      }
      const id = this.send(command);
      this.pending.set(id, { resolve, reject, connection: this.connection });
    });
  }

  /** Send a command without waiting; returns its id. */
  send(command) {
    const id = ++this.nextId;
    this.ws.send(encode({ type: command.type, id, ...command }, { ignoreUndefined: true }));
    return id;
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === 1 && this.welcome !== null;
  }

  /** Close the session for good (seats are kept for the server's grace period: leave first to give
   * them up). */
  close() {
    this.closing = true;
    clearTimeout(this.timer);
    this.ws?.close(1000, "bye");
    this.failPending("connection_lost", "the client closed");
  }

  /** Drop the socket as a network failure would (tests and the UI's "reconnect now"): resumes. */
  drop() {
    this.ws?.close(RESYNC_CLOSE, "dropped");
  }

  // -- the connection ----------------------------------------------------------------------------

  open(resume) {
    return new Promise((resolve, reject) => {
      const ws = new this.Socket(this.url, [SUBPROTOCOL]);
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      this.welcome = null;
      this.lastSeq = 0;
      this.connection += 1;
      let settled = false;
      const settle = (error, value) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve(value);
      };
      ws.onmessage = (event) => {
        if (this.ws !== ws) return;
        try {
          this.receive(new Uint8Array(event.data), resume, settle);
        } catch (error) {
          console.error(error); // a picture that no longer fits the messages: resynchronise by resuming
          this.notify("warning", String(error.message || error));
          ws.close(RESYNC_CLOSE, "resynchronising");
        }
      };
      ws.onclose = (event) => {
        if (this.ws !== ws) return;
        this.ws = null;
        this.closed(event.code, event.reason, settle);
      };
    });
  }

  receive(frame, resume, settle) {
    if (frame.length > RECEIVE_LIMITS.maxFrameBytes) throw new Error("frame_too_large");
    const message = this.decoder.decode(frame);
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      throw new Error("malformed_frame: not a map");
    }
    this.onFrame?.(frame, message);
    if (message.seq !== this.lastSeq + 1) {
      throw new Error(`message seq ${message.seq} after ${this.lastSeq}: resuming to resynchronise`);
    }
    this.lastSeq = message.seq;
    if (message.type === "hello") {
      this.hello = message;
      const accept = this.foldTurns && (message.features || []).includes("turn_in_event") ? ["turn_in_event"] : [];
      const identify = (signIn) => this.send({ type: "identify", name: this.name, resume, accept, sign_in: signIn ?? undefined });
      if (!this.signIn || !message.nonce) {
        identify(null);
        return;
      }
      const ws = this.ws; // the signature is for this connection's nonce only
      this.signIn(message.nonce).then((signIn) => this.ws === ws && identify(signIn), (error) => {
        this.notify("warning", `cannot sign in: ${error.message}`);
        ws.close(1000, "cannot sign in");
      });
      return;
    }
    if (message.type === "welcome") {
      this.welcome = message;
      this.schedule = null;
      this.replaying = message.replayed;
      this.seats = new Map(message.seats.map((s) => [s.table_id, s.seat]));
      if (message.replayed === 0) this.failPending("connection_lost", "the connection was lost", this.connection);
      this.emit(message);
      this.notify(message.resumed ? "resumed" : "connected", message.resumed
        ? `resumed (${message.replayed ? `${message.replayed} missed messages replayed` : "fresh snapshots"})`
        : `connected as ${message.name}`);
      settle(null, message);
      return;
    }
    if (message.type === "error" && this.welcome === null) {
      settle(new CommandError(message.code, message.message, message));
    }
    for (const part of unfolded(message)) this.take(part);
    if (this.replaying > 0 && --this.replaying === 0) {
      this.failPending("connection_lost", "the connection was lost", this.connection);
    }
  }

  take(message) {
    if (message.type === "seated") {
      this.seats.set(message.table_id, message.seat);
      this.token = message.token;
      this.storage?.setItem("boneyard.token", message.token);
    }
    this.emit(message);
    if (message.type === "deal_commitment" && this.contributeSeeds && this.seats.has(message.table_id)
      && message.seats.includes(this.seats.get(message.table_id)) && message.wait_ms > 0) {
      const seed = randomSeed();
      this.send({ type: "contribute_seed", table_id: message.table_id, seed });
      this.emit({ type: "seed_sent", table_id: message.table_id, seed, game_number: message.game_number });
    }
    const replyTo = message.reply_to;
    if (replyTo !== undefined && replyTo !== null && this.pending.has(replyTo)) {
      const { resolve, reject } = this.pending.get(replyTo);
      this.pending.delete(replyTo);
      if (message.type === "error") reject(new CommandError(message.code, message.message, message));
      else resolve(message);
    }
  }

  closed(code, reason, settle) {
    const known = CLOSE_CODES[code] ?? LOST; // 1006 (no close frame), our own 3000 and unknown codes
    const wasWelcome = this.welcome !== null;
    if (wasWelcome) this.resumeSeq = this.lastSeq;
    this.welcome = null;
    this.notify("disconnected", `connection closed (${code} ${known.name}${reason ? `: ${reason}` : ""})`, code);
    if (code === 4002 && !this.closing) { // resume_rejected: identify afresh at once, in the lobby
      this.token = null;
      this.storage?.removeItem("boneyard.token");
      this.seats.clear();
      this.failPending("connection_lost", "the seats could not be resumed");
      this.notify("resume_rejected", "the seats could not be resumed: back in the lobby");
      this.open(null).then((welcome) => settle(null, welcome), (error) => settle(error));
      return;
    }
    settle(new CommandError(known.name, `the connection closed before welcome (${code})`));
    if (this.closing || !known.reconnect || (!wasWelcome && this.connection === 1)) {
      if (!this.closing) this.notify("closed", `disconnected: ${known.name} (${code})`, code);
      this.failPending("connection_lost", "the connection was lost");
      return;
    }
    this.reconnect(known.resume);
  }

  reconnect(resume) {
    this.schedule ??= backoff(this.delays);
    const delay = this.schedule.next().value;
    this.notify("reconnecting", `reconnecting in ${(delay / 1000).toFixed(1)} s…`);
    this.timer = setTimeout(() => {
      if (this.closing) return;
      const token = resume ? this.token : null;
      this.open(token ? { token, last_seq: this.resumeSeq } : null).catch(() => {});
    }, delay);
  }

  failPending(code, text, before = Infinity) {
    for (const [id, { reject, connection }] of this.pending) {
      if (connection < before) {
        this.pending.delete(id);
        reject(new CommandError(code, text));
      }
    }
  }

  emit(message) {
    for (const listener of this.listeners) listener(message);
  }

  notify(kind, text, code = null) {
    this.emit({ type: "notice", kind, text, code });
  }
}
