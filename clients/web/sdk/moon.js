// Three-Player Moon on the client: its view folded from events (the widow and the discard on top of
// what every trick game does), and its deal: 22 tiles (1-0 .. 6-0 are not played), one widow.

import { blankTrickView, bump, foldTrick, trickSortKey, without } from "./trick.js";

export const moon = {
  players: () => 3,
  teams: () => false,
  blankView: (table, seat) => blankTrickView("moon", table, seat, table.seats.length, { discard: null }),
  fold(view, e) {
    const mine = e.seat === view.viewer;
    if (e.type === "hand_started") return { ...foldTrick(view, e), discard: null };
    if (e.type === "hand_scored") return { ...foldTrick(view, e), tricks: e.tricks };
    if (e.type === "widow_taken") {
      return { phase: "discarding", hand: e.tile && mine ? [...view.hand, e.tile] : view.hand, tile_counts: bump(view.tile_counts, e.seat, 1) };
    }
    if (e.type === "discarded") {
      return { phase: "naming_trump", hand: e.tile && mine ? without(view.hand, e.tile) : view.hand,
        discard: e.tile && mine ? e.tile : view.discard, tile_counts: bump(view.tile_counts, e.seat, -1) };
    }
    return foldTrick(view, e) ?? {};
  },
  sortKey: trickSortKey,
  isOver: (view) => view.phase === "over",
  inPlay: ([high, low]) => low > 0 || high === 0,
  chanceAfterBlocked: false,
};
