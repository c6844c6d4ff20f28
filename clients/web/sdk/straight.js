// Straight Dominoes on the client: its view folded from events (the layout rebuilt from the plays,
// sdk/layout.js; the boneyard's draws), and its deal: 7 each, the rest the boneyard in drawing order.

import { EMPTY, play } from "./layout.js";
import { bump, without } from "./trick.js";

export const straight = {
  players: (options) => options.players ?? 4,
  teams: (options) => Boolean(options.partnerships),
  blankView(table, seat) {
    const n = table.seats.length;
    const teams = Boolean(table.options.partnerships);
    return { game: "straight", viewer: seat, hand_number: 0, players: n, partnerships: teams, target: table.options.target,
      hand: [], tile_counts: Array(n).fill(0), boneyard: 0, layout: EMPTY, count: 0, scores: Array(teams ? 2 : n).fill(0),
      leader: 0, to_move: null, legal_actions: [], is_over: false, winner: null };
  },
  fold(view, e) {
    const mine = e.seat === view.viewer;
    switch (e.type) {
      case "hand_started":
        return { hand_number: e.hand, tile_counts: e.tile_counts, hand: [], to_move: e.first, boneyard: e.boneyard,
          layout: EMPTY, count: 0, leader: e.first };
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
  },
  /** Heaviest first. */
  sortKey: () => ([high, low]) => [-(high + low), -high, 0],
  isOver: (view) => view.is_over,
  inPlay: () => true,
  /** After a blocked hand chance picks the next leader again (RULES.md S3). */
  chanceAfterBlocked: true,
};
