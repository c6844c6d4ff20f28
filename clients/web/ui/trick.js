// What the trick games' tables share: the trick in the middle (each tile by its player's side, the
// last trick's winner marked; a game the page has no module for shows its trick so too), the chips under
// it (phase, trump, the high bid, the game's own), a seat's word in the auction, and the trump in words.

import { counted, h } from "./dom.js";
import { label, tileSvg } from "./tiles.js";

export const trumpName = (trump) => ({ null: "not named", 0: "blanks", doubles: "doubles", none: "no trump", nello: "nello" })[trump] ?? `${trump}s`;

const PHASES = {
  bidding: "Bidding", discarding: "The bidder takes the widow and discards", naming_trump: "The bidder names trump",
  playing: "Playing", scored: "Hand scored", thrown_in: "All passed: thrown in", over: "Game over",
};

export function trumpText(trump) {
  const name = trumpName(trump);
  return name[0].toUpperCase() + name.slice(1);
}

/** The middle of a table that plays tricks: the trick (else the last one, its winner marked) by each
 * tile's player's side (`where(seat)`), and the `chips` under it. */
export function trickTable(mirror, where, chips) {
  const trick = mirror.view.trick ?? [];
  const shown = trick.length ? trick : mirror.lastTrick?.plays ?? [];
  const winner = trick.length ? null : mirror.lastTrick?.winner ?? null;
  return h("div", { class: "trick-centre" },
    h("div", { class: "trick", role: "group", "aria-label": shown.length ? "The trick" : "No trick yet" },
      shown.map(([seat, tile]) => h("div", { class: ["trick-tile", `at-${where(seat)}`, seat === winner ? "won" : null],
        "aria-label": `${mirror.seatName(seat)} played ${label(tile)}${seat === winner ? ", won the trick" : ""}` },
      tileSvg(tile, { size: 110 })))),
    h("div", { class: "trick-note" }, winner !== null ? `${mirror.seatName(winner)} takes the trick` : ""),
    h("div", { class: "trick-info" }, chips));
}

/** The middle of a trick game's table; `where(seat)` places a seat, `bid(n)` writes a bid, `chips` are the
 * game's own (after phase, trump and the high bid). */
export function trickCentre(mirror, where, { bid = String, chips = [] } = {}) {
  const view = mirror.view;
  return trickTable(mirror, where, [
    h("span", { class: "chip" }, PHASES[view.phase] ?? view.phase),
    h("span", { class: "chip" }, "Trump: ", h("strong", {}, trumpName(view.trump))),
    view.high_bid !== null ? h("span", { class: "chip" }, `High bid ${bid(view.high_bid)} by ${mirror.seatName(view.high_bidder)}`) : null,
    chips]);
}

/** A seat's word in the auction and its tricks this hand. */
export function auctionNote(view, seat, bid = String) {
  const said = view.bids[seat];
  const spoke = said === null ? "" : said === "pass" ? "passed" : `bid ${bid(said)}`;
  return [spoke, view.phase === "playing" || view.tricks[seat] ? counted(view.tricks[seat], "trick") : ""].filter(Boolean).join(" · ");
}
