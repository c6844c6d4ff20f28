// The page's drawing of a game it has no module for (a game the server plays, hello.games, that no file
// here knows), and what every game's module may leave out: the game by the server's name for it, created
// with its default options and its default seats (hello.games), the tiles played in the middle as a trick,
// each seat's tricks, the scores after each hand. Its deal is not checked (sdk/generic.js).

import { counted, h } from "./dom.js";
import { trickTable } from "./trick.js";

const scoresText = (scores, mirror) => scores.map((score, seat) => `${mirror.seatName(seat)} ${score}`).join(", ");

export const generic = {
  name: null,
  title: (table) => table?.game ?? "",
  short: (table) => table.game,
  optionFields: () => [],
  /** The seats of a table with the game's default options, as the server offers it. */
  players: (form, offer) => offer?.players ?? 2,
  options: () => ({}),
  centre: (mirror, where) => trickTable(mirror, where, [
    h("span", { class: "chip" }, `Hand ${mirror.view.hand_number + 1}`),
    mirror.view.target !== undefined ? h("span", { class: "chip" }, `Target ${mirror.view.target}`) : null]),
  seatNote: (view, seat) => (view.tricks?.[seat] === undefined ? "" : counted(view.tricks[seat], "trick")),
  team: () => null,
  side: (mirror, index) => mirror.seatName(index),
  out: () => false,
  prompts: {},
  actionText: (action) => action.type,
  bidText: String,
  choiceText: (action) => `On the ${action.end}`,
  tileVerb: () => "play",
  opens: "leads",
  handLine: (event, mirror) => (event.scores ? `The hand is over: ${scoresText(event.scores, mirror)}.` : "The hand is over."),
  handGain: (event) => event.points ?? [],
  replayStates: (record, hand) => [{ hands: record.hands[hand].deal, view: null, lastTrick: null, action: null }],
  seekKinds: [],
};
