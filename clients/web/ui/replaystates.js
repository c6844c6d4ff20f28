// A recorded hand as the board at each step (the step-through replay, ui/replay.js): every seat's tiles
// face up (a finished game hides nothing), and the middle as the table drew it, built from the record's
// deal and actions alone. Here the trick games' (ui/straight.js makes Straight's): a trick's winner is
// the seat that leads the next one (the last trick's is not named: the record keeps no rule to tell it).

import { same } from "../sdk/trick.js";

export const remove = (tiles, tile) => {
  const i = tiles.findIndex((t) => same(t, tile));
  return i < 0 ? tiles : [...tiles.slice(0, i), ...tiles.slice(i + 1)];
};

/** One state: {hands, view, lastTrick, action}: `view` in the shape the game's centre draws. */
export function state(hands, view, lastTrick, action) {
  return { hands, view, lastTrick, action };
}

/** A trick game's hand: `trickSize(trump)` tiles to a trick (fewer when a seat sits the hand out). */
export function trickReplayStates(record, index, trickSize) {
  const hand = record.hands[index];
  const n = record.players;
  let hands = hand.deal.map((tiles) => [...tiles]);
  let view = { game: record.game, phase: "bidding", bids: Array(n).fill(null), high_bid: null, high_bidder: null, trump: null,
    trick: [], tricks: Array(n).fill(0), out: null };
  let lastTrick = null;
  const states = [state(hands, view, null, null)];
  for (const action of hand.actions) {
    const { seat } = action;
    if (action.type === "bid") view = { ...view, bids: view.bids.map((b, s) => (s === seat ? action.bid : b)), high_bid: action.bid, high_bidder: seat };
    else if (action.type === "pass") view = { ...view, bids: view.bids.map((b, s) => (s === seat ? "pass" : b)) };
    else if (action.type === "discard") {
      hands = hands.map((tiles, s) => (s === seat ? remove([...tiles, hand.widow], action.tile) : tiles));
      view = { ...view, phase: "naming_trump", discard: action.tile };
    } else if (action.type === "trump") {
      const out = action.trump === "nello" ? (seat + 2) % n : null;
      view = { ...view, phase: "playing", trump: action.trump, out };
    } else if (action.type === "play") {
      if (lastTrick) { // this seat leads: it won the last trick
        view = { ...view, tricks: view.tricks.map((t, s) => (s === seat ? t + 1 : t)) };
        lastTrick = null;
      }
      hands = hands.map((tiles, s) => (s === seat ? remove(tiles, action.tile) : tiles));
      const trick = [...view.trick, [seat, action.tile]];
      if (trick.length === trickSize(view)) {
        lastTrick = { winner: null, plays: trick };
        view = { ...view, trick: [] };
      } else view = { ...view, trick };
    }
    states.push(state(hands, view, lastTrick, action));
  }
  return states;
}
