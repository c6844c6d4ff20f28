// Straight's layout drawn without two tiles on top of each other, whatever the plays: random layouts of up
// to all 28 tiles (sdk/layout.js places them as the rules do; ui/straight.js draws them).
import assert from "node:assert/strict";
import { test } from "node:test";

import { openEnds, play, EMPTY } from "../../clients/web/sdk/layout.js";
import { arrange } from "../../clients/web/ui/straight.js";

function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** A layout from a random order of the set: each tile goes on a random end it fits, until none fits. */
function randomLayout(rng) {
  const tiles = [];
  for (let high = 0; high <= 6; high++) for (let low = 0; low <= high; low++) tiles.push([high, low]);
  tiles.sort(() => rng() - 0.5);
  let layout = play(EMPTY, tiles.pop(), null);
  for (let placed = true; placed;) {
    placed = false;
    for (const [i, tile] of tiles.entries()) {
      const ends = Object.entries(openEnds(layout)).filter(([, v]) => tile.includes(v)).map(([e]) => e);
      if (ends.length) {
        layout = play(layout, tile, ends[Math.floor(rng() * ends.length)]);
        tiles.splice(i, 1);
        placed = true;
        break;
      }
    }
  }
  return layout;
}

function box({ cx, cy, angle }) {
  const across = angle % 180 === 0;
  const [w, h] = across ? [40, 20] : [20, 40]; // a tile is 2 by 1 halves of 20
  return [cx - w / 2 + 1, cy - h / 2 + 1, cx + w / 2 - 1, cy + h / 2 - 1];
}

test("no two tiles of a drawn layout overlap, on a desktop or a phone", () => {
  const rng = random(7);
  let tilesDrawn = 0;
  for (let round = 0; round < 1000; round++) {
    const layout = randomLayout(rng);
    for (const narrow of [false, true]) {
      const { out } = arrange(layout, narrow);
      tilesDrawn += out.length;
      const boxes = out.map(box);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          const overlap = a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
          assert.ok(!overlap, `round ${round}: ${JSON.stringify(out[i])} overlaps ${JSON.stringify(out[j])}`);
        }
      }
    }
  }
  assert.ok(tilesDrawn > 20000, String(tilesDrawn));
});
