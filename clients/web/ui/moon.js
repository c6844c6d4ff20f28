// Three-Player Moon's part of the page: the trick, the auction, trump and the bidder's own discard;
// its create-form options (when all pass, target).

import { field, select, targetField } from "./dom.js";
import { h } from "./dom.js";
import { tileSvg } from "./tiles.js";
import { auctionNote, trickCentre, trumpText } from "./trick.js";
import { trickReplayStates } from "./replaystates.js";

export const moon = {
  name: "Three-Player Moon",
  title: () => "Three-Player Moon",
  short: () => "Moon",
  optionFields: () => [
    field("When all pass", select("all_pass", [["redeal", "redeal"], ["force_last", "the last to speak must bid"]], "redeal")),
    targetField(1000, 21)],
  players: () => 3,
  options: (f) => ({ all_pass: f.all_pass.value }),
  centre: (mirror, where) => trickCentre(mirror, where, { chips: [
    mirror.widow && mirror.view.phase === "discarding" ? h("span", { class: "chip" }, "You took the widow ", tileSvg(mirror.widow, { size: 30, upright: false })) : null,
    mirror.view.discard ? h("span", { class: "chip" }, "Your discard ", tileSvg(mirror.view.discard, { size: 30, upright: false })) : null] }),
  seatNote: (view, seat) => auctionNote(view, seat),
  prompts: { pass: "Your turn to bid.", discard: "You took the widow: discard a tile (face down).", trump: "Name trump." },
  actionText(action) {
    if (action.type === "bid") return action.bid === 21 ? "Shoot the moon (21)" : `Bid ${action.bid}`;
    if (action.type === "trump") return trumpText(action.trump);
    return action.type === "pass" ? "Pass" : action.type;
  },
  tileVerb: (view) => (view.phase === "discarding" ? "discard" : "play"),
  opens: "bids first",
  handLine(event, mirror) {
    const made = event.points[event.bidder] > 0;
    return `${mirror.seatName(event.bidder)} bid ${event.bid} and ${made ? "made it" : "went set"}: ${event.points.map((p, i) => `${mirror.seatName(i)} ${p >= 0 ? "+" : ""}${p}`).join(", ")}.`;
  },
  seekKinds: [["moon", "Three-Player Moon"]],
  replayStates: (record, hand) => trickReplayStates(record, hand, () => 3),
};
