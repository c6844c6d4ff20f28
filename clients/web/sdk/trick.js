// What the trick games (Three-Player Moon, Texas 42) share on the client: a blank view, the hand's start,
// the auction, trump, the trick and the score folded from events, and the order a hand is held in.

export const same = (a, b) => a[0] === b[0] && a[1] === b[1];
export const without = (hand, tile) => {
  const i = hand.findIndex((t) => same(t, tile));
  return i < 0 ? hand : [...hand.slice(0, i), ...hand.slice(i + 1)];
};
export const bump = (counts, seat, delta) => counts.map((c, s) => (s === seat ? c + delta : c));

const isTrump = ([high, low], trump) => (trump === "doubles" ? high === low : typeof trump === "number" && (high === trump || low === trump));

/** Trumps first (the trump double, then by the other number), then each suit high to low, its double first. */
export function trickSortKey(view) {
  return ([high, low]) => {
    if (isTrump([high, low], view.trump)) {
      const other = view.trump === "doubles" ? high : high === view.trump ? low : high;
      return [0, high === low ? -99 : -other, 0];
    }
    return [1, -high, high === low ? -99 : -low];
  };
}

/** A trick game's view before its first snapshot or deal: `extra` adds the game's own fields. */
export function blankTrickView(game, table, seat, scores, extra = {}) {
  const n = table.seats.length;
  return { game, viewer: seat, hand_number: 0, phase: "bidding", hand: [], tile_counts: Array(n).fill(0),
    first: 0, bids: Array(n).fill(null), high_bidder: null, high_bid: null, trump: null, trick: [], leader: null,
    played: [], tricks: Array(n).fill(0), scores: Array(scores).fill(0), target: table.options.target, to_move: null,
    legal_actions: [], winner: null, ...extra };
}

/** The events every trick game has, as the change they make to the view (null: not one of them). */
export function foldTrick(view, e) {
  const mine = e.seat === view.viewer;
  switch (e.type) {
    case "hand_started": {
      const n = e.tile_counts.length;
      return { hand_number: e.hand, tile_counts: e.tile_counts, hand: [], to_move: e.first, phase: "bidding",
        first: e.first, bids: Array(n).fill(null), high_bidder: null, high_bid: null, trump: null, trick: [],
        leader: null, played: [], tricks: Array(n).fill(0) };
    }
    case "hand_dealt": return e.tiles && mine ? { hand: e.tiles } : {};
    case "bid_made": return { bids: view.bids.map((b, s) => (s === e.seat ? e.bid : b)), high_bidder: e.seat, high_bid: e.bid };
    case "passed": return { bids: view.bids.map((b, s) => (s === e.seat ? "pass" : b)) };
    case "hand_thrown_in": return { phase: "thrown_in", to_move: null };
    case "trump_named": return { phase: "playing", trump: e.trump, leader: e.seat };
    case "tile_played":
      return { trick: [...view.trick, [e.seat, e.tile]], leader: view.trick.length ? view.leader : e.seat,
        hand: mine ? without(view.hand, e.tile) : view.hand, tile_counts: bump(view.tile_counts, e.seat, -1) };
    case "trick_won": return { played: [...view.played, view.trick], trick: [], leader: e.seat, tricks: e.tricks };
    case "hand_scored": return { phase: "scored", scores: e.scores, to_move: null };
    case "game_over": return { phase: "over", winner: e.winner, scores: e.scores, to_move: null };
    default: return null;
  }
}

/** The seats of a finished trick, from its leader on, skipping a seat that sits the hand out. */
export function trickSeats(leader, count, players, out = null) {
  const seats = [];
  for (let i = 0; seats.length < count && i < 2 * players; i++) {
    const seat = (leader + i) % players;
    if (seat !== out) seats.push(seat);
  }
  return seats;
}
