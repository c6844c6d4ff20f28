// Texas 42 on the client: its view folded from events (nello's partner sitting out, each team's points
// this hand, marks as the score), and its deal: all 28 tiles, seven to each of four seats.

import { blankTrickView, foldTrick, trickSortKey } from "./trick.js";

export const texas42 = {
  players: () => 4,
  teams: () => true,
  blankView: (table, seat) => blankTrickView("texas42", table, seat, 2, { out: null, points: [0, 0] }),
  fold(view, e) {
    if (e.type === "hand_started") return { ...foldTrick(view, e), out: null, points: [0, 0] };
    if (e.type === "trump_named") return { ...foldTrick(view, e), out: e.out ?? null };
    if (e.type === "trick_won") return { ...foldTrick(view, e), points: e.points };
    if (e.type === "hand_scored") return { ...foldTrick(view, e), points: e.points };
    return foldTrick(view, e) ?? {};
  },
  sortKey: trickSortKey,
  isOver: (view) => view.phase === "over",
  inPlay: () => true,
  chanceAfterBlocked: false,
};
