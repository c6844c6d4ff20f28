// The client's picture of the server, built only from the messages it sends (as the Python client's
// clients/cli/core/mirror.py): the lobby's tables, and per table the game as a view of a snapshot's
// shape. A snapshot replaces a table's view; each event and turn turns it into the next one. An event
// makes the legal actions stale until the next turn; tiles the receiver was not sent stay unknown.

import { DealWitness } from "./fairness.js";
import { EMPTY, play } from "./layout.js";

const now = () => performance.now();

export class TableMirror {
  constructor(tableId, table = null) {
    this.tableId = tableId;
    this.table = table;
    this.view = null;
    this.seat = null;
    this.deadline = null; // when the seat to move runs out of time (performance.now() ms); null: no timer
    this.lastTrick = null; // Moon: {winner, plays: [[seat, tile]]} after trick_won
    this.widow = null; // Moon: the widow, once this seat took it as the bidder (this hand)
    this.handResult = null; // the last hand_scored (cleared when the next hand starts)
    this.hands = []; // every hand_scored of this game: the score sheet
    this.gameOver = null;
    this.chat = [];
    this.log = []; // every event of this game, in order
    this.deals = null; // the DealWitness of the current (or last) game
    this.verdict = null; // its check once the seeds are revealed (a promise's result)
    this.pause = null;
    this.pauseUntil = null;
    this.removed = false;
  }

  get myTurn() {
    return this.view !== null && this.seat !== null && this.view.to_move === this.seat;
  }

  get legal() {
    return this.myTurn ? this.view.legal_actions : [];
  }

  secondsLeft() {
    return this.deadline === null ? null : Math.max(0, (this.deadline - now()) / 1000);
  }

  seatName(seat) {
    return this.table?.seats[seat]?.name ?? `seat ${seat}`;
  }
}

export class Mirror {
  constructor() {
    this.lobby = new Map();
    this.tables = new Map();
    this.playerId = null;
    this.name = null;
  }

  table(tableId) {
    if (!this.tables.has(tableId)) this.tables.set(tableId, new TableMirror(tableId, this.lobby.get(tableId) ?? null));
    return this.tables.get(tableId);
  }

  forget(tableId) {
    this.tables.delete(tableId);
  }

  /** Update from one server message (after unfolding); returns the table it concerns, if any. */
  apply(m) {
    switch (m.type) {
      case "welcome":
        this.playerId = m.player_id;
        this.name = m.name;
        for (const ref of m.seats) this.table(ref.table_id).seat = ref.seat;
        return null;
      case "table_list":
        this.lobby = new Map(m.tables.map((t) => [t.table_id, t]));
        for (const [id, mirror] of this.tables) if (this.lobby.has(id)) mirror.table = this.lobby.get(id);
        return null;
      case "lobby_changed":
        m.tables.forEach((t) => this.info(t));
        m.removed.forEach((id) => this.lobby.delete(id));
        return null;
      case "table_created":
      case "table_updated":
        this.info(m.table);
        return this.tables.get(m.table.table_id) ?? null;
      case "table_removed": {
        this.lobby.delete(m.table_id);
        const mirror = this.tables.get(m.table_id);
        if (mirror) mirror.removed = true;
        return mirror ?? null;
      }
      case "seated": {
        const mirror = this.table(m.table_id);
        mirror.seat = m.seat;
        if (mirror.deals) mirror.deals.seat = m.seat;
        return mirror;
      }
      case "seat_status": {
        const table = this.lobby.get(m.table_id);
        if (table && table.seats[m.seat]) {
          const seats = table.seats.map((s) => (s.seat === m.seat ? { ...s, connected: m.connected, auto: m.auto } : s));
          this.info({ ...table, seats });
        }
        return this.tables.get(m.table_id) ?? null;
      }
      case "snapshot": {
        this.info(m.table);
        const mirror = this.table(m.table.table_id);
        mirror.view = m.view && { ...m.view, hand: sortHand(m.view) };
        mirror.removed = false;
        if (m.chat.length || !mirror.chat.length) mirror.chat = [...m.chat];
        setDeadline(mirror, m.time_left_ms);
        setPause(mirror, m.pause ?? null);
        if (m.view && m.view.game === "moon" && m.view.phase === "over") mirror.gameOver ??= { winner: m.view.winner, scores: m.view.scores };
        mirror.deals?.resync(m.view ? m.view.hand_number : null);
        return mirror;
      }
      case "turn": {
        const mirror = this.table(m.table_id);
        if (mirror.view) mirror.view = { ...mirror.view, to_move: m.seat, legal_actions: m.legal_actions };
        setDeadline(mirror, m.time_left_ms);
        return mirror;
      }
      case "event": {
        const mirror = this.table(m.table_id);
        this.event(mirror, m);
        mirror.deals?.note(m);
        return mirror;
      }
      case "deal_commitment": {
        const mirror = this.table(m.table_id);
        if (!mirror.deals || mirror.deals.commitment?.commitment !== m.commitment) {
          mirror.deals = new DealWitness(mirror.seat, m);
          mirror.verdict = null;
        }
        return mirror;
      }
      case "seed_contributed":
      case "seed_sent":
      case "deal_revealed": {
        const mirror = this.table(m.table_id);
        mirror.deals ??= new DealWitness(mirror.seat, null);
        mirror.deals.note(m);
        if (m.type === "deal_revealed") mirror.verdict = mirror.deals.check(m);
        return mirror;
      }
      case "hand_pause": {
        const mirror = this.table(m.table_id);
        setPause(mirror, m.pause);
        return mirror;
      }
      case "chat": {
        const mirror = this.table(m.table_id);
        mirror.chat.push(m);
        return mirror;
      }
      default:
        return null;
    }
  }

  info(table) {
    this.lobby.set(table.table_id, table);
    const mirror = this.tables.get(table.table_id);
    if (mirror) mirror.table = table;
  }

  event(mirror, message) {
    const event = message.event;
    if (event.type === "hand_started" && event.hand === 0) {
      mirror.hands = [];
      mirror.gameOver = null;
      mirror.log = [];
    }
    mirror.log.push({ ...event, auto: message.auto });
    if (event.type === "game_over") mirror.gameOver = event;
    if (event.type === "hand_started" || event.type === "game_over") setPause(mirror, null);
    if (event.type === "hand_started") {
      mirror.handResult = null;
      mirror.lastTrick = null;
      mirror.widow = null;
    }
    if (event.type === "widow_taken" && event.tile && event.seat === mirror.seat) mirror.widow = event.tile;
    if (event.type === "hand_scored") {
      mirror.handResult = event;
      mirror.hands.push(event);
    }
    if (event.type === "trick_won") {
      mirror.lastTrick = { winner: event.seat, plays: event.tiles.map((tile, i) => [(event.leader + i) % 3, tile]) };
    }
    let view = mirror.view;
    if (view === null) {
      if (event.type !== "hand_started" || !mirror.table) return;
      view = blankView(mirror.table, mirror.seat);
    }
    const update = message.game === "moon" ? moon(view, event) : straight(view, event);
    const next = { ...view, legal_actions: [], ...update };
    mirror.view = { ...next, hand: sortHand(next) };
  }
}

const isTrump = ([high, low], trump) => (trump === "doubles" ? high === low : typeof trump === "number" && (high === trump || low === trump));

/** The hand in the order players hold it, whatever order the messages gave: Straight heaviest first; Moon
 * trumps first (the trump double, then by the other number), then each suit high to low, its double first. */
export function sortHand(view) {
  const key = view.game === "moon"
    ? ([high, low]) => {
      if (isTrump([high, low], view.trump)) {
        const other = view.trump === "doubles" ? high : high === view.trump ? low : high;
        return [0, high === low ? -99 : -other, 0];
      }
      return [1, -high, high === low ? -99 : -low];
    }
    : ([high, low]) => [-(high + low), -high, 0];
  const order = (a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };
  return [...view.hand].sort(order);
}

function setDeadline(mirror, ms) {
  mirror.deadline = ms === null || ms === undefined ? null : now() + ms;
}

function setPause(mirror, pause) {
  mirror.pause = pause;
  mirror.pauseUntil = pause ? now() + pause.time_left_ms : null;
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const without = (hand, tile) => {
  const i = hand.findIndex((t) => same(t, tile));
  return i < 0 ? hand : [...hand.slice(0, i), ...hand.slice(i + 1)];
};
const bump = (counts, seat, delta) => counts.map((c, s) => (s === seat ? c + delta : c));

function blankView(table, seat) {
  const n = table.seats.length;
  if (table.game === "moon") {
    return { game: "moon", viewer: seat, hand_number: 0, phase: "bidding", hand: [], tile_counts: Array(n).fill(0),
      first: 0, bids: Array(n).fill(null), high_bidder: null, high_bid: null, trump: null, trick: [], leader: null,
      played: [], tricks: Array(n).fill(0), scores: Array(n).fill(0), target: table.options.target, to_move: null,
      legal_actions: [], discard: null, winner: null };
  }
  const teams = Boolean(table.options.partnerships);
  return { game: "straight", viewer: seat, hand_number: 0, players: n, partnerships: teams, target: table.options.target,
    hand: [], tile_counts: Array(n).fill(0), boneyard: 0, layout: EMPTY, count: 0, scores: Array(teams ? 2 : n).fill(0),
    leader: 0, to_move: null, legal_actions: [], is_over: false, winner: null };
}

function handStarted(view, e) {
  const common = { hand_number: e.hand, tile_counts: e.tile_counts, hand: [], to_move: e.first };
  if (view.game === "moon") {
    const n = e.tile_counts.length;
    return { ...common, phase: "bidding", first: e.first, bids: Array(n).fill(null), high_bidder: null, high_bid: null,
      trump: null, trick: [], leader: null, played: [], tricks: Array(n).fill(0), discard: null };
  }
  return { ...common, boneyard: e.boneyard, layout: EMPTY, count: 0, leader: e.first };
}

function moon(view, e) {
  const mine = e.seat === view.viewer;
  switch (e.type) {
    case "hand_started": return handStarted(view, e);
    case "hand_dealt": return e.tiles && mine ? { hand: e.tiles } : {};
    case "bid_made": return { bids: view.bids.map((b, s) => (s === e.seat ? e.bid : b)), high_bidder: e.seat, high_bid: e.bid };
    case "passed": return { bids: view.bids.map((b, s) => (s === e.seat ? "pass" : b)) };
    case "hand_thrown_in": return { phase: "thrown_in", to_move: null };
    case "widow_taken":
      return { phase: "discarding", hand: e.tile && mine ? [...view.hand, e.tile] : view.hand, tile_counts: bump(view.tile_counts, e.seat, 1) };
    case "discarded":
      return { phase: "naming_trump", hand: e.tile && mine ? without(view.hand, e.tile) : view.hand,
        discard: e.tile && mine ? e.tile : view.discard, tile_counts: bump(view.tile_counts, e.seat, -1) };
    case "trump_named": return { phase: "playing", trump: e.trump, leader: e.seat };
    case "tile_played":
      return { trick: [...view.trick, [e.seat, e.tile]], leader: view.trick.length ? view.leader : e.seat,
        hand: mine ? without(view.hand, e.tile) : view.hand, tile_counts: bump(view.tile_counts, e.seat, -1) };
    case "trick_won": return { played: [...view.played, view.trick], trick: [], leader: e.seat, tricks: e.tricks };
    case "hand_scored": return { phase: "scored", tricks: e.tricks, scores: e.scores, to_move: null };
    case "game_over": return { phase: "over", winner: e.winner, scores: e.scores, to_move: null };
    default: return {};
  }
}

function straight(view, e) {
  const mine = e.seat === view.viewer;
  switch (e.type) {
    case "hand_started": return handStarted(view, e);
    case "hand_dealt": return e.tiles && mine ? { hand: e.tiles } : {};
    case "tile_played":
      return { layout: { ...play(view.layout, e.tile, e.end), count: e.count }, count: e.count, scores: e.scores,
        hand: mine ? without(view.hand, e.tile) : view.hand, tile_counts: bump(view.tile_counts, e.seat, -1) };
    case "tile_drawn":
      return { boneyard: e.boneyard, hand: e.tile && mine ? [...view.hand, e.tile] : view.hand, tile_counts: bump(view.tile_counts, e.seat, 1) };
    case "hand_scored": return { scores: e.scores, to_move: null };
    case "game_over": return { is_over: true, winner: e.winner, scores: e.scores, to_move: null };
    default: return {};
  }
}
