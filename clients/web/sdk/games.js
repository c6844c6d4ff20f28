// Each game's rules as far as a client needs them to follow a table from its messages, by the name the
// wire gives it (`game`). A new game adds its module here: one line.
//
// A game's rules: players(options) and teams(options); blankView(table, seat), the view before the
// first snapshot; fold(view, event), the change an event makes to the view; sortKey(view), the order
// a hand is held in; isOver(view); and for the fair-deal check, inPlay(tile) (the tiles the game deals)
// and chanceAfterBlocked (chance picks the first player again after a blocked hand).

import { generic } from "./generic.js";
import { moon } from "./moon.js";
import { straight } from "./straight.js";
import { texas42 } from "./texas42.js";

export const GAMES = { moon, straight, texas42 };

/** A game this client does not know (sdk/generic.js): listed, shown and played from what every game shares. */
export const rulesOf = (game) => GAMES[game] ?? generic;
