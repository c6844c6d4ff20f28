// The client's picture of the server, built only from the messages it sends (as the Python client's
// clients/cli/core/mirror.py): the lobby's tables, and per table the game as a view of a snapshot's
// shape. A snapshot replaces a table's view; each event and turn turns it into the next one. An event
// makes the legal actions stale until the next turn; tiles the receiver was not sent stay unknown.

import { DealWitness } from "./fairness.js";
import { rulesOf } from "./games.js";
import { trickSeats } from "./trick.js";

const now = () => performance.now();

export class TableMirror {
  constructor(tableId, table = null) {
    this.tableId = tableId;
    this.table = table;
    this.view = null;
    this.seat = null;
    this.deadline = null; // when the seat to move runs out of time (performance.now() ms); null: no timer
    this.lastTrick = null; // trick games: {winner, plays: [[seat, tile]]} after trick_won
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
    this.seeks = []; // how many seek each kind (feature seeks): [{kind, rated, players}]
    this.mySeek = null; // this session's seek command while it waits
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
      case "seeks":
        this.seeks = m.seeking;
        return null;
      case "seated": {
        if (m.reply_to === null || m.reply_to === undefined) this.mySeek = null; // a seek found its table
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
        if (m.view && rulesOf(m.view.game).isOver(m.view)) mirror.gameOver ??= { winner: m.view.winner, scores: m.view.scores };
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
    if (event.type === "trick_won") mirror.lastTrick = { winner: event.seat, plays: trickPlays(mirror.view, event) };
    let view = mirror.view;
    if (view === null) {
      if (event.type !== "hand_started" || !mirror.table) return;
      view = rulesOf(mirror.table.game).blankView(mirror.table, mirror.seat);
      if (view === null) return;
    }
    const update = rulesOf(message.game).fold(view, event);
    const next = { ...view, legal_actions: [], ...update };
    mirror.view = { ...next, hand: sortHand(next) };
  }
}

/** Who played each tile of a won trick: from its leader on, as the event says (Moon, Texas 42), else as the
 * view's trick was folded (a game whose trick_won names no leader). */
function trickPlays(view, event) {
  if (event.leader === undefined) return view?.trick ?? [];
  const seats = trickSeats(event.leader, event.tiles.length, view?.tile_counts.length ?? 3, view?.out ?? null);
  return event.tiles.map((tile, i) => [seats[i], tile]);
}

/** The hand in the order players hold it, whatever order the messages gave (each game's sortKey). */
export function sortHand(view) {
  const key = rulesOf(view.game).sortKey(view);
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
