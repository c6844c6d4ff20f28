// Each game's part of the page, by the name the wire gives it: a new game adds its module and one line
// here, or none (a game the page has no module for is drawn by ui/generic.js). What a game supplies (the
// rest falls back to ui/generic.js):
//   name, title(table), short(table): the game in words, the table's heading and its line in the lobby
//   optionFields(), players(form, offer), options(form): its part of the create form, its seats (offer:
//   the server's word on the game, hello.games), its options
//   centre(mirror, where, ctx): the middle of the table (ctx: {choices, onEnd} for a tile with two ends)
//   seatNote(view, seat), team(view, seat), side(mirror, index), out(view, seat): around the table
//   prompts, actionText(action), bidText(bid), choiceText(action, view), tileVerb(view), opens: words
//   handLine(event, mirror), handGain(event): a hand's result in words, and what each side gained
//   replayStates(record, hand): the board at each step of a hand (ui/replay.js)
//   seekKinds: the matchmaking kinds (feature seeks) that play this game, [kind, words]

import { generic } from "./generic.js";
import { moon } from "./moon.js";
import { straight } from "./straight.js";
import { texas42 } from "./texas42.js";

const GAMES = { moon, straight, texas42 };

/** The games offered in the lobby's form, [name, title]: those the server plays (`hello.games`; one this page
 * has no module for by the server's name for it), or, from a server that does not say, those the page knows. */
export function gameChoices(offers) {
  const names = offers?.length ? offers.map((offer) => offer.game) : Object.keys(GAMES);
  return names.map((name) => [name, gameOf(name).name ?? name]);
}

/** Every kind a player may seek (ui/seek.js): [kind, words]. */
export const SEEK_KINDS = Object.values(GAMES).flatMap((game) => game.seekKinds ?? []);

/** A game's part of the page: its module over the generic drawing (ui/generic.js), which is all of it for a
 * game this page has no module for. */
export function gameOf(name) {
  return { ...generic, ...(GAMES[name] ?? {}) };
}
