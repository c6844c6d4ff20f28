// Domino tiles drawn in SVG: ivory faces, dark pips, a divider; a half is addressed by its number.

import { s } from "./dom.js";

/** Pip positions on a 1x1 half, by number (0..6). */
const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.25, 0.25], [0.75, 0.75]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]],
};

export const word = (tile) => `${tile[0]}-${tile[1]}`;
export const label = (tile) => (tile[0] === tile[1] ? `double ${tile[0]}` : `${tile[0]}-${tile[1]}`);

/** A tile lying lengthwise along +x, centred on the origin, `u` the size of a half: `a` on the -x half. */
export function tileShape(a, b, u, extra = {}) {
  const pips = (value, x0) => PIPS[value].map(([x, y]) => s("circle", { cx: x0 + x * u, cy: -u / 2 + y * u, r: u * 0.09, class: "pip" }));
  return s("g", extra,
    s("rect", { x: -u, y: -u / 2, width: 2 * u, height: u, rx: u * 0.14, class: "face" }),
    s("line", { x1: 0, y1: -u * 0.38, x2: 0, y2: u * 0.38, class: "divider" }),
    pips(a, -u), pips(b, 0));
}

/** A standalone tile picture (upright: high half on top), for the hand, the trick and the sheet. */
export function tileSvg(tile, { size = 36, upright = true } = {}) {
  const u = 10;
  const [w, hgt] = upright ? [u + 2, 2 * u + 2] : [2 * u + 2, u + 2];
  return s("svg", { viewBox: `${-w / 2} ${-hgt / 2} ${w} ${hgt}`, class: "tile-svg", width: upright ? size / 2 : size,
    height: upright ? size : size / 2, "aria-hidden": "true", focusable: "false" },
  tileShape(tile[0], tile[1], u, { transform: upright ? "rotate(90)" : null }));
}

/** The back of a tile (another seat's hidden tile). */
export function backSvg(size = 18) {
  return s("svg", { viewBox: "-6 -11 12 22", class: "tile-back", width: size / 2, height: size, "aria-hidden": "true" },
    s("rect", { x: -5.5, y: -10.5, width: 11, height: 21, rx: 1.6, class: "back" }));
}
