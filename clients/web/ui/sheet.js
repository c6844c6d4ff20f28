// The side of the table: the score sheet, the fair-deal mark, the event log in words, and the panels
// that end a hand and a game.

import { h } from "./dom.js";
import { gameOf } from "./games.js";
import { label } from "./tiles.js";
import { trumpName } from "./trick.js";

const gameAt = (mirror) => gameOf(mirror.table?.game ?? mirror.view?.game);
/** Who a score belongs to: a seat, or a team. */
const side = (mirror, index) => gameAt(mirror).side(mirror, index);

export function scoreSheet(mirror) {
  const view = mirror.view;
  if (!view) return h("p", { class: "muted" }, "The game has not started.");
  const sides = view.scores.map((_, i) => side(mirror, i));
  return h("table", { class: "sheet", "aria-label": "Score sheet" },
    h("caption", {}, `Scores · target ${view.target}`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), sides.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, mirror.hands.map((hand, i) => h("tr", {}, h("th", { scope: "row" }, String(i + 1)),
      hand.scores.map((score, j) => {
        const gain = gameAt(mirror).handGain(hand)[j];
        return h("td", {}, String(score), gain ? h("small", {}, ` ${gain > 0 ? "+" : "−"}${Math.abs(gain)}`) : "");
      })))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Now"), view.scores.map((score) => h("td", {}, h("strong", {}, String(score)))))));
}

export function dealMark(mirror, verdict) {
  if (verdict) {
    return h("div", { class: ["deal-mark", verdict.ok ? "ok" : verdict.unchecked ? "pending" : "bad"], role: "status",
      title: verdict.problems.join("\n") }, verdict.ok ? "✓ " : verdict.unchecked ? "" : "✗ ", verdict.text);
  }
  if (mirror.deals?.commitment) {
    const c = mirror.deals.commitment.commitment;
    return h("div", { class: "deal-mark pending", title: `SHA-256 of the server's seed: ${c}` },
      `Deal committed (${c.slice(0, 8)}…): checked when the game ends`);
  }
  return null;
}

/** One event in words, for the log. */
export function describe(event, mirror) {
  const who = (seat) => mirror.seatName(seat);
  const auto = event.auto ? " (played for them)" : "";
  switch (event.type) {
    case "hand_started": return `Hand ${event.hand + 1} begins: ${who(event.first)} ${gameAt(mirror).opens}.`;
    case "hand_dealt": return event.tiles ? `You are dealt ${event.tiles.map(label).join(", ")}.` : null;
    case "bid_made": return `${who(event.seat)} bids ${gameAt(mirror).bidText(event.bid)}${auto}.`;
    case "passed": return `${who(event.seat)} passes${auto}.`;
    case "hand_thrown_in": return "Everyone passed: the hand is thrown in.";
    case "widow_taken": return `${who(event.seat)} takes the widow${event.tile ? ` (${label(event.tile)})` : ""}.`;
    case "discarded": return `${who(event.seat)} discards${event.tile ? ` ${label(event.tile)}` : " a tile face down"}.`;
    case "trump_named": return event.trump === "nello" ? `${who(event.seat)} bids nello: ${who(event.out)} sits out.`
      : `${who(event.seat)} names trump: ${trumpName(event.trump)}.`;
    case "tile_played": return `${who(event.seat)} plays ${label(event.tile)}${event.end ? ` on the ${event.end}` : ""}${event.points ? `: scores ${event.points}` : ""}${auto}.`;
    case "trick_won": return `${who(event.seat)} wins the trick.`;
    case "tile_drawn": return `${who(event.seat)} draws${event.tile ? ` ${label(event.tile)}` : ""} (${event.boneyard} left).`;
    case "domino": return `${who(event.seat)} dominoes!`;
    case "blocked": return "The game is blocked.";
    case "hand_scored": return handLine(event, mirror);
    case "game_over": return `Game over: ${side(mirror, event.winner)} wins.`;
    default: return null;
  }
}

function handLine(event, mirror) {
  return gameAt(mirror).handLine(event, mirror);
}

export function logLines(mirror) {
  return mirror.log.map((event) => describe(event, mirror)).filter(Boolean).slice(-60);
}

/** The panel after a hand: what happened, and the ready button while the table pauses for us. */
export function handPanel(mirror, { onReady }) {
  const result = mirror.handResult;
  if (!result || mirror.gameOver) return null;
  const waiting = mirror.pause && mirror.seat !== null && mirror.pause.waiting.includes(mirror.seat);
  const left = mirror.pauseUntil ? Math.ceil(Math.max(0, mirror.pauseUntil - performance.now()) / 1000) : null;
  return h("div", { class: "panel hand-result", role: "dialog", "aria-label": "Hand result" },
    h("h2", {}, `Hand ${mirror.hands.length} result`),
    h("p", {}, handLine(result, mirror)),
    result.hands ? h("p", { class: "muted" }, result.hands.map((tiles, i) => `${mirror.seatName(i)}: ${tiles.map(label).join(" ") || "none"}`).join(" · ")) : null,
    waiting ? h("button", { class: "primary", onclick: onReady, "data-key": "Enter" }, `Ready${left !== null ? ` (${left} s)` : ""}`)
      : mirror.pause ? h("p", { class: "muted" }, "Waiting for the others…") : null);
}

/** The panel at the end of a game: the winner, the deal's check, a rematch. */
export function gameOverPanel(mirror, verdict, { onRematch, onLobby, asked }) {
  const over = mirror.gameOver;
  if (!over) return null;
  const seated = mirror.seat !== null;
  const recordId = over.record_id ?? mirror.table?.record_id;
  return h("div", { class: "panel game-over", role: "dialog", "aria-label": "Game over" },
    h("h2", {}, `${side(mirror, over.winner)} wins`),
    h("p", {}, over.scores.map((score, i) => `${side(mirror, i)} ${score}`).join(" · ")),
    dealMark(mirror, verdict),
    h("div", { class: "row" },
      seated ? h("button", { class: "primary", onclick: onRematch, disabled: asked }, asked ? "Rematch asked…" : "Rematch") : null,
      recordId ? h("a", { class: "button", href: `/replay/${recordId}` }, "Replay") : null,
      h("button", { onclick: onLobby }, "Lobby")));
}
