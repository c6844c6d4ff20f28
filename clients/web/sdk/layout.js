// Straight's layout, rebuilt from the plays seen (docs/RULES.md S5-S7), as PROTOCOL.md's Layout: a
// snapshot gives a whole one, each tile_played says only which tile went on which end.

export const END_NAMES = ["left", "right", "up", "down"];

export const EMPTY = Object.freeze({
  opening: null, spinner: null, spinner_arm: null, spinner_index: null,
  arms: { left: [], right: [], up: [], down: [] }, open_ends: {}, count: 0,
});

const isDouble = (tile) => tile[0] === tile[1];
const arm = (layout, end) => layout.arms[end] ?? [];

/** S6: both in-line sides of the spinner are covered, so up and down are open. */
export function spinnerCovered(layout) {
  if (layout.spinner === null) return false;
  if (layout.spinner_arm === "centre") return arm(layout, "left").length > 0 && arm(layout, "right").length > 0;
  return arm(layout, layout.spinner_arm).length > layout.spinner_index + 1;
}

export function openEnds(layout) {
  if (layout.opening === null) return {};
  const left = arm(layout, "left");
  const right = arm(layout, "right");
  const ends = {
    left: left.length ? left[left.length - 1].outer : layout.opening[0],
    right: right.length ? right[right.length - 1].outer : layout.opening[1],
  };
  if (spinnerCovered(layout)) {
    for (const end of ["up", "down"]) {
      const tiles = arm(layout, end);
      ends[end] = tiles.length ? tiles[tiles.length - 1].outer : layout.spinner[0];
    }
  }
  return ends;
}

/** The layout after `tile` is placed on `end` (null: the opening tile); throws when it does not fit. */
export function play(layout, tile, end) {
  tile = [Math.max(...tile), Math.min(...tile)];
  const ends = openEnds(layout);
  if (end === null ? layout.opening !== null : !(end in ends) || !tile.includes(ends[end])) {
    throw new Error(`[${tile[0]}-${tile[1]}] does not fit ${end ?? "an empty table"}`);
  }
  const after = { ...layout, arms: { ...layout.arms } };
  if (end === null) {
    after.opening = tile;
    if (isDouble(tile)) Object.assign(after, { spinner: tile, spinner_arm: "centre" });
  } else {
    const exposed = ends[end];
    after.arms[end] = [...arm(layout, end), { tile, inner: exposed, outer: tile[0] + tile[1] - exposed, crosswise: isDouble(tile) }];
    if (layout.spinner === null && isDouble(tile)) {
      Object.assign(after, { spinner: tile, spinner_arm: end, spinner_index: after.arms[end].length - 1 });
    }
  }
  after.open_ends = openEnds(after);
  return after;
}
