// Straight's layout in SVG: the line through the opening tile, its left and right arms, the spinner's up
// and down arms, doubles crosswise; each arm turns a corner once it is long, so the table stays compact,
// and the picture is scaled to fit its box (viewBox over the tiles' bounds).

import { field, h, s, select, targetField } from "./dom.js";
import { EMPTY, play } from "../sdk/layout.js";
import { remove, state } from "./replaystates.js";
import { teamName, teamOf } from "./teams.js";
import { tileShape } from "./tiles.js";

const U = 20; // a half's side
const GAP = 2;
const DIRS = { right: [1, 0], left: [-1, 0], down: [0, 1], up: [0, -1] };
const ANGLE = { right: 0, down: 90, left: 180, up: 270 };
/** Where an arm turns once it is long, and which way (a pinwheel: no arm runs into another); on a
 * narrow screen the line turns sooner, so the picture stays tall enough to read. An arm turns once, never
 * beside a crosswise double, and the line never before the spinner (tests/web/layout.test.mjs). */
const TURN = { right: ["down", 7 * U], left: ["up", 7 * U], up: ["right", 4 * U], down: ["left", 4 * U] };
const NARROW_LINE = 3.5 * U;

function placeArm(tiles, end, start, out, narrow = false, straightUntil = -1) {
  const limit = narrow && (end === "left" || end === "right") ? NARROW_LINE : TURN[end][1];
  const firstDir = end;
  let dir = firstDir;
  let [x, y] = start;
  let run = 0;
  let turned = false;
  let afterDouble = false; // never turn beside a crosswise double (a spinner's arm, or its width, is there)
  for (const [index, placed] of tiles.entries()) {
    const double = placed.crosswise;
    if (!turned && run >= limit && !double && !afterDouble && index > straightUntil) {
      // Turn the corner: the next tile hangs off the outer half of the last one.
      const [dx, dy] = DIRS[dir];
      x -= dx * (U / 2 + GAP);
      y -= dy * (U / 2 + GAP);
      dir = TURN[end][0];
      const [nx, ny] = DIRS[dir];
      x += nx * (U / 2 + GAP);
      y += ny * (U / 2 + GAP);
      turned = true;
    }
    const [dx, dy] = DIRS[dir];
    const length = double ? U : 2 * U;
    const cx = x + (dx * length) / 2;
    const cy = y + (dy * length) / 2;
    out.push({ tile: placed.tile, a: placed.inner, b: placed.outer, cx, cy, angle: ANGLE[dir] + (double ? 90 : 0), end });
    x += dx * (length + GAP);
    y += dy * (length + GAP);
    run += length + GAP;
    afterDouble = double;
  }
  return [x, y, dir];
}

/** Every tile's place: [{tile, a, b, cx, cy, angle}] and the open ends' tips [{end, x, y, value}]. */
export function arrange(layout, narrow = false) {
  const out = [];
  const tips = [];
  if (layout.opening === null) return { out, tips };
  const [high, low] = layout.opening;
  const openingDouble = high === low;
  const half = openingDouble ? U / 2 : U;
  out.push({ tile: layout.opening, a: high, b: low, cx: 0, cy: 0, angle: openingDouble ? 90 : 0, end: "centre" });
  const ends = layout.open_ends ?? {};
  // The line runs straight up to the spinner: its up and down arms stand across a straight line.
  const until = (end) => (layout.spinner_arm === end ? layout.spinner_index : -1);
  const left = placeArm(layout.arms.left ?? [], "left", [-half - GAP, 0], out, narrow, until("left"));
  const right = placeArm(layout.arms.right ?? [], "right", [half + GAP, 0], out, narrow, until("right"));
  const tip = (end, [x, y, dir]) => {
    if (end in ends) tips.push({ end, x: x + DIRS[dir][0] * U * 0.6, y: y + DIRS[dir][1] * U * 0.6, value: ends[end] });
  };
  tip("left", left);
  tip("right", right);
  if (layout.spinner !== null) {
    const spinner = out.find((p) => p.tile[0] === layout.spinner[0] && p.tile[1] === layout.spinner[1]);
    if (spinner) {
      tip("up", placeArm(layout.arms.up ?? [], "up", [spinner.cx, spinner.cy - U - GAP], out, narrow));
      tip("down", placeArm(layout.arms.down ?? [], "down", [spinner.cx, spinner.cy + U + GAP], out, narrow));
    }
  }
  return { out, tips };
}

/** The layout as an SVG scaled to fit; `choices` (end names) are drawn as targets calling onEnd(end). */
export function layoutSvg(layout, { choices = [], onEnd = null, narrow = false } = {}) {
  const { out, tips } = arrange(layout, narrow);
  if (!out.length) {
    return s("svg", { viewBox: "-100 -30 200 60", class: "layout", role: "img", "aria-label": "The table is empty: the leader opens" },
      s("text", { x: 0, y: 6, class: "empty-note", "text-anchor": "middle" }, "the leader opens"));
  }
  const xs = out.flatMap((p) => [p.cx - U * 1.1, p.cx + U * 1.1]).concat(tips.map((t) => t.x - U * 0.7), tips.map((t) => t.x + U * 0.7));
  const ys = out.flatMap((p) => [p.cy - U * 1.1, p.cy + U * 1.1]).concat(tips.map((t) => t.y - U * 0.7), tips.map((t) => t.y + U * 0.7));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const w = Math.max(x1 - x0, (narrow ? 10 : 16) * U); // a few tiles are not drawn huge
  const hgt = Math.max(y1 - y0, (narrow ? 8 : 9) * U);
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const ends = Object.entries(layout.open_ends ?? {}).map(([e, v]) => `${e} ${v}`).join(", ");
  return s("svg", { viewBox: `${cx - w / 2} ${cy - hgt / 2} ${w} ${hgt}`, class: "layout", role: "img",
    "aria-label": `The layout: ${out.length} tiles, open ends ${ends}, count ${layout.count}` },
  out.map((p) => tileShape(p.a, p.b, U, { transform: `translate(${p.cx} ${p.cy}) rotate(${p.angle})`,
    class: ["placed", p.tile[0] === layout.spinner?.[0] && p.tile[1] === layout.spinner?.[1] ? "spinner" : null] })),
  tips.map((t) => {
    const choice = choices.includes(t.end);
    return s("g", { class: ["tip", choice ? "choice" : null], transform: `translate(${t.x} ${t.y})`,
      "data-end": t.end, onclick: choice && onEnd ? () => onEnd(t.end) : null },
    s("circle", { r: U * 0.45 }),
    s("text", { y: U * 0.2, "text-anchor": "middle" }, String(t.value)));
  }));
}

/** A Straight hand: the layout grows by each play, the boneyard shrinks by each draw. */
function straightReplayStates(record, index) {
  const hand = record.hands[index];
  let hands = hand.deal.map((tiles) => [...tiles]);
  let view = { game: record.game, layout: EMPTY, count: null, boneyard: hand.boneyard?.length ?? 0 };
  const states = [state(hands, view, null, null)];
  for (const action of hand.actions) {
    if (action.type === "play") {
      hands = hands.map((tiles, s) => (s === action.seat ? remove(tiles, action.tile) : tiles));
      view = { ...view, layout: play(view.layout, action.tile, action.end ?? null) };
    } else if (action.type === "draw") {
      hands = hands.map((tiles, s) => (s === action.seat ? [...tiles, action.tile] : tiles));
      view = { ...view, boneyard: view.boneyard - 1 };
    }
    states.push(state(hands, view, null, action));
  }
  return states;
}

const partners = (view) => Boolean(view?.partnerships);

/** Straight's part of the page: the layout in SVG, the count and the boneyard; its create-form options. */
export const straight = {
  name: "Straight Dominoes",
  title: (table) => `Straight · ${table?.seats.length ?? ""} players${table?.options.partnerships ? " · partners" : ""}`,
  short: (table) => `Straight ${table.seats.length}p${table.options.partnerships ? " partners" : ""}`,
  optionFields: () => [h("div", { class: "two" },
    field("Players", select("players", [[2, "2"], [3, "3"], [4, "4"]], 4)),
    field("Partnerships", select("partnerships", [["default", "default (on with 4)"], ["true", "on"], ["false", "off"]], "default"))),
  targetField(10000, 250)],
  players: (f) => Number(f.players.value),
  options: (f) => ({ players: Number(f.players.value), partnerships: f.partnerships.value === "default" ? null : f.partnerships.value === "true" }),
  centre: (mirror, where, { choices = [], onEnd = null } = {}) => {
    const view = mirror.view;
    return h("div", { class: "straight-centre" },
      h("div", { class: "layout-box" }, layoutSvg(view.layout, { choices, onEnd, narrow: window.matchMedia("(max-width: 720px)").matches })),
      h("div", { class: "count" }, view.count === null ? null : [h("span", {}, "Count "), h("strong", {}, String(view.count)), " · "],
        h("span", {}, `boneyard ${view.boneyard}`)));
  },
  seatNote: (view, seat) => (partners(view) ? `team ${teamOf(seat).toUpperCase()}` : `${view.scores[seat]} points`),
  team: (view, seat) => (partners(view) ? teamOf(seat) : null),
  side: (mirror, index) => (partners(mirror.view) ? teamName(index) : mirror.seatName(index)),
  prompts: { pass: "No tile fits and the boneyard is empty: pass.", draw: "No tile fits: draw from the boneyard." },
  actionText: (action) => ({ draw: "Draw", pass: "Pass" })[action.type] ?? action.type,
  choiceText: (action, view) => `On the ${action.end} (${view.layout.open_ends[action.end]})`,
  handLine(event, mirror) {
    if (event.winner === null) return "Nobody scores this hand.";
    return `${straight.side(mirror, event.winner)} scores ${event.points[event.winner]} for the hand.`;
  },
  replayStates: straightReplayStates,
  seekKinds: [["straight-2", "Straight, 2 players"], ["straight-3", "Straight, 3 players"], ["straight-4", "Straight, 4 players"],
    ["partnerships", "Straight, partnerships"]],
};
