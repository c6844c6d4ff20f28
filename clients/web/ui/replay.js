// A finished game's record (get_record): its deals checked in the browser against the seeds the record
// carries (boneyard-deal/1), and a board to step through, a move at a time (buttons, or the arrow keys:
// ← → a move, ↑ ↓ a hand), every seat's tiles face up; below it, every hand's deal and actions in words.

import { commitmentOf, deal, UNKNOWN_DEAL } from "../sdk/fairness.js";
import { rulesOf } from "../sdk/games.js";
import { h, mount } from "./dom.js";
import { gameOf } from "./games.js";
import { PLACES } from "./table.js";
import { label, tileSvg } from "./tiles.js";

const key = (tiles) => tiles.map((t) => `${t[0]}-${t[1]}`).sort().join(" ");

export async function checkRecord(record) {
  if (rulesOf(record.game).unknown) return { ok: false, unchecked: true, text: UNKNOWN_DEAL };
  const proof = record.fairness;
  if (!proof) return { ok: false, text: "this record carries no seeds: its deals cannot be checked" };
  if (await commitmentOf(proof.server_seed) !== proof.commitment) return { ok: false, text: "deal NOT verified: the seed is not the commitment" };
  for (const [i, hand] of record.hands.entries()) {
    const fixed = await deal(record.game, proof.server_seed, proof.player_seeds, i);
    if (hand.deal.some((tiles, seat) => key(tiles) !== key(fixed.hands[seat]))) return { ok: false, text: `deal NOT verified: hand ${i + 1} differs` };
  }
  return { ok: true, text: `deal verified (${record.hands.length} hands)` };
}

/** A recorded action in words. */
function actionLine(action, names, game) {
  const what = action.type === "bid" ? `bids ${game.bidText(action.bid)}` : action.type === "trump" ? `names trump ${action.trump}`
    : action.type === "play" ? `plays ${label(action.tile)}${action.end ? ` on the ${action.end}` : ""}`
      : action.type === "discard" ? `discards ${label(action.tile)}` : action.type === "draw" ? `draws ${label(action.tile)}` : `${action.type}es`;
  return `${names[action.seat]} ${what}${action.auto ? " (auto)" : ""}`;
}

export class ReplayScreen {
  constructor({ client, recordId }) {
    this.root = h("section", { class: "replay", id: "replay", "aria-label": "Replay" }, h("p", {}, "Fetching the record…"));
    this.hand = 0;
    this.step = 0;
    this.onKey = (e) => this.key(e);
    client.request({ type: "get_record", record_id: recordId }).then((reply) => this.show(reply.record),
      (error) => mount(this.root, h("p", { class: "error", role: "alert" }, `No such record: ${error.message}`)));
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  async show(record) {
    this.record = record;
    this.game = gameOf(record.game);
    this.names = record.seat_names ?? record.hands[0].deal.map((_, i) => `seat ${i + 1}`);
    this.board = h("div", { class: "replay-board", id: "replay-board" });
    const verdict = await checkRecord(record);
    mount(this.root,
      h("h1", {}, `${this.game.name ?? record.game}: final ${record.final_scores.join(" – ")}`),
      h("div", { class: ["deal-mark", verdict.ok ? "ok" : verdict.unchecked ? "pending" : "bad"] }, verdict.ok ? "✓ " : verdict.unchecked ? "" : "✗ ", verdict.text),
      this.board,
      record.hands.map((hand, i) => h("details", { class: "replay-hand" },
        h("summary", {}, `Hand ${i + 1} · scores after: ${hand.scores.join(" – ")}`),
        h("ul", {}, hand.deal.map((tiles, seat) => h("li", {}, h("strong", {}, `${this.names[seat]}: `), tiles.map(label).join(", ")))),
        h("ol", { class: "log" }, hand.actions.map((a) => h("li", {}, actionLine(a, this.names, this.game)))))));
    document.addEventListener("keydown", this.onKey);
    this.goTo(0, 0);
  }

  goTo(hand, step) {
    this.hand = Math.max(0, Math.min(hand, this.record.hands.length - 1));
    this.states = this.game.replayStates(this.record, this.hand);
    this.step = Math.max(0, Math.min(step, this.states.length - 1));
    this.drawBoard();
  }

  drawBoard() {
    const { record, names, game } = this;
    const at = this.states[this.step];
    const n = record.players;
    const where = (seat) => PLACES[n][seat];
    const mirror = { view: at.view, lastTrick: at.lastTrick, widow: null, seatName: (seat) => names[seat] };
    const last = this.step === this.states.length - 1;
    const button = (text, labelText, onclick, disabled) => h("button", { type: "button", "aria-label": labelText, onclick, disabled }, text);
    mount(this.board,
      h("div", { class: "replay-controls", role: "toolbar", "aria-label": "Step through the game" },
        button("«", "Previous hand", () => this.goTo(this.hand - 1, 0), this.hand === 0),
        button("◀", "Back a move", () => this.goTo(this.hand, this.step - 1), this.step === 0),
        h("span", { class: "replay-where", "aria-live": "polite" },
          `Hand ${this.hand + 1}/${record.hands.length} · move ${this.step}/${this.states.length - 1}`),
        button("▶", "Forward a move", () => this.goTo(this.hand, this.step + 1), last),
        button("»", "Next hand", () => this.goTo(this.hand + 1, 0), this.hand === record.hands.length - 1)),
      h("p", { class: "replay-action" }, at.action ? actionLine(at.action, names, game)
        : `The deal: ${names[record.hands[this.hand].first]} ${game.opens}.`),
      h("div", { class: "felt replay-felt" },
        at.hands.map((tiles, seat) => h("div", { class: ["seat", "replay-seat", `at-${where(seat)}`], "data-seat": seat,
          "aria-label": `${names[seat]}: ${tiles.map(label).join(", ") || "no tiles"}` },
        h("div", { class: "seat-name" }, names[seat]),
        h("div", { class: "replay-tiles" }, tiles.map((tile) => tileSvg(tile, { size: 40 }))))),
        h("div", { class: "centre" }, at.view ? game.centre(mirror, where, {}) : null)));
  }

  key(e) {
    if (e.target.closest?.("input, textarea, select")) return;
    const moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, null], ArrowUp: [-1, null] };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    this.goTo(this.hand + move[0], move[1] === null ? 0 : this.step + move[1]);
  }
}
