// Texas 42's part of the page: the trick (three tiles in a nello hand), the auction in points then marks,
// trump, each team's points this hand and the marks; nello's partner sits out, their hand face down.

import { counted, field, h, select, targetField } from "./dom.js";
import { trickReplayStates } from "./replaystates.js";
import { teamName, teamOf } from "./teams.js";
import { auctionNote, trickCentre, trumpName, trumpText } from "./trick.js";

const MARK = 42;

/** A bid in words: 30-41 are points, 42, 84, ... are one, two, ... marks. */
export function bidText(bid) {
  if (bid < MARK) return String(bid);
  const marks = bid / MARK;
  return `${bid} (${counted(marks, "mark")})`;
}

const marksText = (marks) => counted(marks, "mark");

export const texas42 = {
  name: "Texas 42",
  title: () => "Texas 42",
  short: () => "Texas 42",
  bidText,
  optionFields: () => [h("div", { class: "two" },
    field("When the first three pass", select("all_pass", [["force_last", "the fourth must bid"], ["redeal", "redeal"]], "force_last")),
    field("Nello", select("nello", [["false", "off"], ["true", "on (a mark bid may name nello)"]], "false"))),
  targetField(21, 7, "Marks to win")],
  players: () => 4,
  options: (f) => ({ all_pass: f.all_pass.value, nello: f.nello.value === "true" }),
  centre(mirror, where) {
    const view = mirror.view;
    return trickCentre(mirror, where, { bid: bidText, chips: [
      view.points ? h("span", { class: "chip points" }, "Points this hand: ", h("strong", { class: "team-a" }, `A ${view.points[0]}`), " · ",
        h("strong", { class: "team-b" }, `B ${view.points[1]}`)) : null,
      view.out !== null && view.out !== undefined
        ? h("span", { class: "chip nello" }, `Nello: ${mirror.seatName(view.out)} sits out, hand face down`) : null] });
  },
  seatNote(view, seat) {
    if (view.out === seat) return `team ${teamOf(seat).toUpperCase()} · sits out (nello)`;
    return [`team ${teamOf(seat).toUpperCase()}`, auctionNote(view, seat, bidText)].filter(Boolean).join(" · ");
  },
  team: (_, seat) => teamOf(seat),
  side: (_, index) => teamName(index),
  out: (view, seat) => view.out === seat,
  prompts: { pass: "Your turn to bid: points 30-41, then marks.", trump: "Name trump." },
  actionText(action) {
    if (action.type === "bid") return `Bid ${bidText(action.bid)}`;
    if (action.type === "trump") return trumpText(action.trump);
    return action.type === "pass" ? "Pass" : action.type;
  },
  opens: "bids first",
  handLine(event, mirror) {
    const bidders = event.bidder % 2;
    const scoring = event.made ? bidders : 1 - bidders;
    return `${mirror.seatName(event.bidder)} bid ${bidText(event.bid)}${event.trump === "nello" ? " nello" : ` with ${trumpName(event.trump)} trump`} and ${event.made ? "made it" : "went set"}: `
      + `points ${event.points[0]} – ${event.points[1]}; ${marksText(event.marks[scoring])} to ${teamName(scoring)}.`;
  },
  handGain: (event) => event.marks,
  replayStates: (record, hand) => trickReplayStates(record, hand, (view) => (view.out === null ? 4 : 3)),
};
