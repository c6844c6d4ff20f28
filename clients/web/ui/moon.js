// Three-Player Moon's middle of the table: the trick (each tile by its player's side), the auction,
// trump, and the bidder's own discard.

import { h } from "./dom.js";
import { label, tileSvg } from "./tiles.js";

export const trumpName = (trump) => (trump === null ? "not named" : trump === "doubles" ? "doubles" : trump === "none" ? "no trump" : `${trump}s`);

export function actionText(action) {
  switch (action.type) {
    case "bid": return action.bid === 21 ? "Shoot the moon (21)" : `Bid ${action.bid}`;
    case "pass": return "Pass";
    case "trump": return action.trump === "doubles" ? "Doubles" : action.trump === "none" ? "No trump" : `${action.trump}s`;
    case "draw": return "Draw";
    default: return action.type;
  }
}

/** The centre of a Moon table; `where(seat)` places a seat: bottom, left, top or right. */
export function moonCentre(mirror, where) {
  const view = mirror.view;
  const shown = view.trick.length ? view.trick : mirror.lastTrick?.plays ?? [];
  const winner = view.trick.length ? null : mirror.lastTrick?.winner ?? null;
  const phase = {
    bidding: "Bidding", discarding: "The bidder takes the widow and discards", naming_trump: "The bidder names trump",
    playing: "Playing", scored: "Hand scored", thrown_in: "All passed: thrown in", over: "Game over",
  }[view.phase];
  return h("div", { class: "moon-centre" },
    h("div", { class: "trick", role: "group", "aria-label": shown.length ? "The trick" : "No trick yet" },
      shown.map(([seat, tile]) => h("div", { class: ["trick-tile", `at-${where(seat)}`, seat === winner ? "won" : null],
        "aria-label": `${mirror.seatName(seat)} played ${label(tile)}${seat === winner ? ", won the trick" : ""}` },
      tileSvg(tile, { size: 110 })))),
    h("div", { class: "trick-note" }, winner !== null ? `${mirror.seatName(winner)} takes the trick` : ""),
    h("div", { class: "moon-info" },
      h("span", { class: "chip" }, phase),
      h("span", { class: "chip" }, "Trump: ", h("strong", {}, trumpName(view.trump))),
      view.high_bid !== null ? h("span", { class: "chip" }, `High bid ${view.high_bid} by ${mirror.seatName(view.high_bidder)}`) : null,
      mirror.widow && view.phase === "discarding" ? h("span", { class: "chip" }, "You took the widow ", tileSvg(mirror.widow, { size: 30, upright: false })) : null,
      view.discard ? h("span", { class: "chip" }, "Your discard ", tileSvg(view.discard, { size: 30, upright: false })) : null));
}

/** What a Moon seat shows beside its name: its bid and tricks this hand. */
export function moonSeatNote(view, seat) {
  const bid = view.bids[seat];
  const spoke = bid === null ? "" : bid === "pass" ? "passed" : `bid ${bid}`;
  return [spoke, view.phase === "playing" || view.tricks[seat] ? `${view.tricks[seat]} tricks` : ""].filter(Boolean).join(" · ");
}
