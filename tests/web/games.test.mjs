// The lobby's game choices (ui/games.js) from what the server says in hello.games, and from a server that
// says nothing (one older than the field): the page then offers the games it has modules for.
import assert from "node:assert/strict";
import { test } from "node:test";

import { gameChoices, gameOf } from "../../clients/web/ui/games.js";
import { generic } from "../../clients/web/ui/generic.js";

test("a server that does not send hello.games: the page offers the games it knows", () => {
  const known = [["moon", "Three-Player Moon"], ["straight", "Straight Dominoes"], ["texas42", "Texas 42"]];
  assert.deepEqual(gameChoices(undefined), known);
  assert.deepEqual(gameChoices([]), known);
  // Each of them drawn by its own module, over the generic drawing's defaults.
  for (const [name] of known) {
    assert.notEqual(gameOf(name).name, null);
    assert.equal(typeof gameOf(name).centre, "function");
  }
});

test("a server that sends hello.games: exactly its games, one the page has no module for by its wire name", () => {
  const offers = [{ game: "texas42", players: 4 }, { game: "duel", players: 2 }];
  assert.deepEqual(gameChoices(offers), [["texas42", "Texas 42"], ["duel", "duel"]]);
  assert.equal(gameOf("duel").centre, generic.centre);
  assert.equal(gameOf("duel").players(null, offers[1]), 2);
});
