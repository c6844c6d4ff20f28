// Each game's part of the page, by the name the wire gives it: a new game adds its module and one line
// here. What a game supplies (the rest falls back to DEFAULTS):
//   name, title(table), short(table): the game in words, the table's heading and its line in the lobby
//   optionFields(), players(form), options(form): its part of the create form, its seats, its options
//   centre(mirror, where, ctx): the middle of the table (ctx: {choices, onEnd} for a tile with two ends)
//   seatNote(view, seat), team(view, seat), side(mirror, index), out(view, seat): around the table
//   prompts, actionText(action), bidText(bid), choiceText(action, view), tileVerb(view), opens: words
//   handLine(event, mirror), handGain(event): a hand's result in words, and what each side gained
//   replayStates(record, hand): the board at each step of a hand (ui/replay.js)
//   seekKinds: the matchmaking kinds (feature seeks) that play this game, [kind, words]

import { moon } from "./moon.js";
import { straight } from "./straight.js";
import { texas42 } from "./texas42.js";

const GAMES = { moon, straight, texas42 };

const DEFAULTS = {
  name: null,
  title: (table) => table?.game ?? "",
  short: (table) => table.game,
  optionFields: () => [],
  players: () => 2,
  options: () => ({}),
  centre: () => null,
  seatNote: () => "",
  team: () => null,
  side: (mirror, index) => mirror.seatName(index),
  out: () => false,
  prompts: {},
  actionText: (action) => action.type,
  bidText: String,
  choiceText: (action) => `On the ${action.end}`,
  tileVerb: () => "play",
  opens: "leads",
  handLine: () => "The hand is over.",
  handGain: (event) => event.points,
  replayStates: (record, hand) => [{ hands: record.hands[hand].deal, view: null, lastTrick: null, action: null }],
  seekKinds: [],
};

/** The choices offered in the lobby's form: [name, title]. */
export const GAME_CHOICES = Object.entries(GAMES).map(([name, game]) => [name, game.name]);

/** Every kind a player may seek (ui/seek.js): [kind, words]. */
export const SEEK_KINDS = Object.values(GAMES).flatMap((game) => game.seekKinds ?? []);

export function gameOf(name) {
  return { ...DEFAULTS, ...(GAMES[name] ?? {}) };
}
