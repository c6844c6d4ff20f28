// A finished game's record (get_record): every hand's deal and actions, and its deals checked in the
// browser against the seeds the record carries (boneyard-deal/1).

import { commitmentOf, deal } from "../sdk/fairness.js";
import { h, mount } from "./dom.js";
import { label } from "./tiles.js";

const key = (tiles) => tiles.map((t) => `${t[0]}-${t[1]}`).sort().join(" ");

export async function checkRecord(record) {
  const proof = record.fairness;
  if (!proof) return { ok: false, text: "this record carries no seeds: its deals cannot be checked" };
  if (await commitmentOf(proof.server_seed) !== proof.commitment) return { ok: false, text: "deal NOT verified: the seed is not the commitment" };
  for (const [i, hand] of record.hands.entries()) {
    const fixed = await deal(record.game, proof.server_seed, proof.player_seeds, i);
    if (hand.deal.some((tiles, seat) => key(tiles) !== key(fixed.hands[seat]))) return { ok: false, text: `deal NOT verified: hand ${i + 1} differs` };
  }
  return { ok: true, text: `deal verified (${record.hands.length} hands)` };
}

export class ReplayScreen {
  constructor({ client, recordId }) {
    this.root = h("section", { class: "replay", id: "replay", "aria-label": "Replay" }, h("p", {}, "Fetching the record…"));
    client.request({ type: "get_record", record_id: recordId }).then((reply) => this.show(reply.record),
      (error) => mount(this.root, h("p", { class: "error", role: "alert" }, `No such record: ${error.message}`)));
  }

  async show(record) {
    const names = record.seat_names ?? record.hands[0].deal.map((_, i) => `seat ${i + 1}`);
    const verdict = await checkRecord(record);
    mount(this.root,
      h("h1", {}, `${record.game === "moon" ? "Three-Player Moon" : "Straight Dominoes"}: final ${record.final_scores.join(" – ")}`),
      h("div", { class: ["deal-mark", verdict.ok ? "ok" : "bad"] }, verdict.ok ? "✓ " : "✗ ", verdict.text),
      record.hands.map((hand, i) => h("details", { class: "replay-hand", open: i === 0 },
        h("summary", {}, `Hand ${i + 1} · scores after: ${hand.scores.join(" – ")}`),
        h("ul", {}, hand.deal.map((tiles, seat) => h("li", {}, h("strong", {}, `${names[seat]}: `), tiles.map(label).join(", ")))),
        h("ol", { class: "log" }, hand.actions.map((a) => h("li", {}, `${names[a.seat]} ${a.type}${a.bid ? ` ${a.bid}` : ""}${a.tile ? ` ${label(a.tile)}` : ""}${a.end ? ` on the ${a.end}` : ""}${a.trump !== undefined ? ` ${a.trump}` : ""}${a.auto ? " (auto)" : ""}`))))));
  }
}
