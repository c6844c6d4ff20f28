// Matchmaking in the lobby (feature seeks): seek a kind of game, rated or not, with bots after a wait or
// never; the server seats the group it finds (a `seated` no command asked for: app.js opens the table).
// The lobby shows how many seek each kind (`seeks`), and the player's own seek until it is cancelled.

import { field, h, mount, select } from "./dom.js";
import { SEEK_KINDS } from "./games.js";
import { ratedRefusal } from "./rated.js";

const WAITS = [["none", "never: wait for people"], [0, "at once"], [10000, "after 10 s"], [30000, "after 30 s"], [60000, "after 1 min"]];
const kindText = (kind) => SEEK_KINDS.find(([k]) => k === kind)?.[1] ?? kind;

export class SeekPanel {
  constructor({ client, mirror, flash }) {
    this.client = client;
    this.mirror = mirror;
    this.flash = flash;
    this.counts = h("ul", { class: "seek-counts", "aria-label": "Seeking now", "aria-live": "polite" });
    this.body = h("div", { class: "seek-body" });
    this.root = h("section", { class: "seek", "aria-label": "Seek a game" }, h("h2", {}, "Seek a game"), this.counts, this.body);
  }

  render() {
    this.root.hidden = !(this.client.hello?.features ?? []).includes("seeks"); // a server without matchmaking
    const seeking = this.mirror.seeks ?? [];
    mount(this.counts, seeking.map((s) => h("li", {}, `${s.players} seeking ${kindText(s.kind)}${s.rated ? " (rated)" : ""}`)));
    const mine = this.mirror.mySeek;
    if (mine) {
      if (this.body.dataset.state !== "seeking") {
        mount(this.body, h("p", { class: "seeking", role: "status" }, `Seeking ${kindText(mine.kind)}${mine.rated ? ", rated" : ""}…`),
          h("button", { type: "button", class: "quiet", onclick: () => this.cancel() }, "Cancel"));
      }
      this.body.dataset.state = "seeking";
    } else if (this.body.dataset.state !== "form") {
      this.body.dataset.state = "form";
      mount(this.body, this.form());
    }
  }

  form() {
    return h("form", { class: "seek-form", onsubmit: (e) => this.seek(e) },
      field("Game", select("kind", SEEK_KINDS, SEEK_KINDS[0][0])),
      h("div", { class: "two" },
        field("Bots fill the seats", select("bots_after_ms", WAITS, "none")),
        field("Bots", select("bot_level", [["basic", "basic"], ["good", "good"], ["strong", "strong"]], "basic"))),
      h("label", { class: "check", title: ratedRefusal(this.client) || null },
        h("input", { name: "rated", type: "checkbox", disabled: ratedRefusal(this.client) !== "" }), " Rated (signed-in players)"),
      h("button", { type: "submit", class: "primary" }, "Seek"));
  }

  async seek(event) {
    event.preventDefault();
    const f = event.target.elements;
    const wait = f.bots_after_ms.value;
    const command = { type: "seek", kind: f.kind.value, rated: f.rated.checked,
      bots_after_ms: wait === "none" ? null : Number(wait), bot_level: f.bot_level.value };
    try {
      await this.client.request(command);
      this.mirror.mySeek = command;
      this.render();
    } catch (error) {
      this.flash(error.message);
    }
  }

  async cancel() {
    await this.client.request({ type: "cancel_seek" }).catch((error) => this.flash(error.message));
    this.mirror.mySeek = null;
    this.render();
  }
}
