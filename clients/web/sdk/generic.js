// A game this client has no rules for (one the server plays, hello.games, that no module here knows):
// its view is the snapshot's, and the events every game shares change the fields the games' views share
// (hand, tile_counts, trick, tricks, scores, to_move, winner), each only as far as the event says it.
// Enough to follow such a game and play it a tile at a time; its deal is not checked (its tiles and
// hand size are its own).

import { bump, without } from "./trick.js";

const zeros = (n) => Array(n).fill(0);

export const generic = {
  players: (options) => options.players ?? 0,
  teams: () => false,
  blankView(table, seat) {
    const n = table.seats.length;
    return { game: table.game, viewer: seat, hand_number: 0, hand: [], tile_counts: zeros(n), trick: [], tricks: zeros(n),
      scores: zeros(n), target: table.options.target, to_move: null, legal_actions: [], winner: null };
  },
  fold(view, e) {
    const mine = e.seat === view.viewer;
    switch (e.type) {
      case "hand_started":
        return { hand_number: e.hand, tile_counts: e.tile_counts, hand: [], to_move: e.first, trick: [], tricks: zeros(e.tile_counts.length) };
      case "hand_dealt": return e.tiles && mine ? { hand: e.tiles } : {};
      case "tile_played":
        return { hand: mine && view.hand ? without(view.hand, e.tile) : view.hand, tile_counts: view.tile_counts && bump(view.tile_counts, e.seat, -1),
          trick: [...(view.trick ?? []), [e.seat, e.tile]] };
      case "trick_won": return e.tricks ? { trick: [], tricks: e.tricks } : { trick: [] };
      case "hand_scored": return e.scores ? { scores: e.scores, to_move: null } : { to_move: null };
      case "game_over": return { winner: e.winner, scores: e.scores, to_move: null };
      default: return {};
    }
  },
  /** Highest first. */
  sortKey: () => ([high, low]) => [-high, -low, 0],
  isOver: (view) => view.winner !== null && view.winner !== undefined,
  inPlay: () => true,
  chanceAfterBlocked: false,
  unknown: true,
};
