// The lobby: the live table list (join a seat, take a bot's, watch), and the form that creates a table
// with every option the server takes. "Rated" (feature ratings) is for signed-in players only and makes a
// timed table (PROTOCOL.md section 5, "Rated games"): the box is off for a guest, with the reason beside
// it, and ticked it takes "no timer" out of the turn times, so the form never sends what the server refuses.

import { field, h, mount, select } from "./dom.js";
import { gameChoices, gameOf } from "./games.js";
import { ratedRefusal } from "./rated.js";
import { SeekPanel } from "./seek.js";

const LEVELS = ["basic", "good", "strong"];

export class Lobby {
  constructor({ client, mirror, onTable, flash, onSignIn }) {
    this.client = client;
    this.mirror = mirror;
    this.onTable = onTable;
    this.flash = flash;
    this.onSignIn = onSignIn; // a guest goes back to the first screen, to sign in or make an account
    this.list = h("div", { class: "tables", "aria-live": "polite" });
    this.form = this.createForm();
    this.seek = new SeekPanel({ client, mirror, flash });
    this.root = h("section", { class: "lobby", id: "lobby", "aria-label": "Lobby" },
      h("div", { class: "lobby-main" }, h("h1", {}, "Tables"), this.list),
      h("aside", { class: "lobby-side" }, this.seek.root, h("h2", {}, "New table"), this.form));
  }

  /** The server's word on a game (`hello.games`): its default seats; undefined from a server that does not say. */
  offer(game) {
    return (this.client.hello?.games ?? []).find((offer) => offer.game === game);
  }

  createForm() {
    const choices = gameChoices(this.client.hello?.games);
    const seats = h("fieldset", { class: "seats" }, h("legend", {}, "Seats"));
    const gameOptions = h("div", { class: "game-options" });
    const form = h("form", { class: "create", "aria-label": "Create a table", onsubmit: (e) => this.create(e),
      onchange: () => { this.seatRows(form, seats, gameOptions); this.ratedRules(form); } },
    field("Game", select("game", choices, choices[0][0])),
    gameOptions,
    field("Turn time", select("turn_seconds", [[30, "30 s"], [15, "15 s"], [60, "60 s"], [120, "2 min"], ["none", "no timer"]], 30)),
    h("label", { class: "check" }, h("input", { name: "rated", type: "checkbox", "aria-describedby": "rated-hint" }), " Rated"),
    h("small", { class: "rated-hint", id: "rated-hint" }),
    seats,
    h("details", {}, h("summary", {}, "More options"),
      field("Bot pace (ms per move)", h("input", { name: "bot_delay_ms", type: "number", min: 0, max: 10000, placeholder: "server's" })),
      field("Pause between hands (ms)", h("input", { name: "hand_pause_ms", type: "number", min: 0, max: 60000, placeholder: "server's" })),
      h("label", { class: "check" }, h("input", { name: "private", type: "checkbox" }), " Private: only those with the invite link sit")),
    h("button", { type: "submit", class: "primary" }, "Create table"));
    this.seatRows(form, seats, gameOptions);
    this.ratedRules(form);
    return form;
  }

  /** The rated box: off with the reason for a guest; ticked, a timed table (rated games need a turn timer). */
  ratedRules(form) {
    const f = form.elements;
    const why = ratedRefusal(this.client);
    f.rated.disabled = why !== "";
    if (why) f.rated.checked = false;
    f.turn_seconds.querySelector("option[value=none]").disabled = f.rated.checked;
    if (f.rated.checked && f.turn_seconds.value === "none") f.turn_seconds.value = "30";
    const hint = form.querySelector(".rated-hint");
    if (hint.dataset.why === why && hint.dataset.rated === String(f.rated.checked)) return;
    Object.assign(hint.dataset, { why, rated: String(f.rated.checked) });
    const guest = why !== "" && (this.client.hello?.features ?? []).includes("accounts");
    mount(hint, why || (f.rated.checked
      ? "Your rating changes with each game here: signed-in players and bots only, on a turn timer."
      : "Signed-in players and bots only, on a turn timer."),
    guest ? [" ", h("button", { type: "button", class: "small quiet", onclick: () => this.onSignIn() }, "Sign in or create an account")] : null);
  }

  /** The chosen game's options (drawn again when the game changes), and one row per seat: you, a bot of
   * a level, or open for a person. */
  seatRows(form, seats, gameOptions) {
    const game = gameOf(form.elements.game.value);
    if (gameOptions.dataset.game !== form.elements.game.value) {
      mount(gameOptions, game.optionFields());
      gameOptions.dataset.game = form.elements.game.value;
    }
    const n = game.players(form.elements, this.offer(form.elements.game.value));
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    mount(seats, h("legend", {}, "Seats"), Array.from({ length: n }, (_, i) => field(`Seat ${i + 1}`,
      select(`seat${i}`, [["me", "you"], ["open", "open for a player"], ...LEVELS.map((l) => [`bot:${l}`, `bot (${l})`])],
        old[i] ?? (i === 0 ? "me" : "bot:basic")))));
  }

  async create(event) {
    event.preventDefault();
    const f = this.form.elements;
    const game = f.game.value;
    const rules = gameOf(game);
    const roles = Array.from({ length: rules.players(f, this.offer(game)) }, (_, i) => f[`seat${i}`].value);
    const options = rules.options(f);
    if (f.target?.value) options.target = Number(f.target.value); // a game the page has no module for: its defaults
    const bots = roles.flatMap((r, i) => (r.startsWith("bot:") ? [i] : []));
    const command = { type: "create_table", game, options, bots, bot_levels: bots.map((i) => roles[i].slice(4)),
      seat: roles.includes("me") ? roles.indexOf("me") : null,
      turn_seconds: f.turn_seconds.value === "none" ? null : Number(f.turn_seconds.value), private: f.private.checked };
    if (f.rated.checked) command.rated = true;
    if (f.bot_delay_ms.value) command.bot_delay_ms = Number(f.bot_delay_ms.value);
    if (f.hand_pause_ms.value) command.hand_pause_ms = Number(f.hand_pause_ms.value);
    if (roles.filter((r) => r === "me").length > 1) {
      this.flash("Only one seat can be yours.");
      return;
    }
    if (command.rated && bots.length === roles.length) {
      this.flash("A rated game needs a person: make one seat yours, or open for a player.");
      return;
    }
    try {
      const created = await this.client.request(command);
      this.onTable(created.table.table_id, { invite: created.invite, watch: command.seat === null });
    } catch (error) {
      this.flash(error.message);
    }
  }

  render() {
    this.seek.render();
    this.ratedRules(this.form); // signed in or not, as the latest welcome says
    const tables = [...this.mirror.lobby.values()];
    if (!tables.length) {
      mount(this.list, h("p", { class: "muted" }, "No tables yet: create one."));
      return;
    }
    mount(this.list, tables.map((t) => this.row(t)));
  }

  row(t) {
    const name = gameOf(t.game).short(t);
    const refusal = t.rated ? ratedRefusal(this.client) : "";  // a guest's seat at a rated table is refused
    const seatButton = (text, cls, type, seat) => h("button", { class: cls, disabled: refusal !== "",
      title: refusal || null, onclick: () => this.join(t, seat, type) }, text);
    return h("article", { class: "table-row", "data-table": t.table_id, "aria-label": `${name} table ${t.table_id}, ${t.status}` },
      h("header", {}, h("strong", {}, name), h("span", { class: ["status", t.status] }, t.status),
        t.private ? h("span", { class: "chip" }, "private") : null,
        t.rated ? h("span", { class: "chip" }, "rated") : null,
        h("span", { class: "muted" }, `target ${t.options.target} · ${t.turn_seconds ? `${t.turn_seconds} s turns` : "untimed"} · ${t.spectators} watching`)),
      h("ul", { class: "row-seats" }, t.seats.map((s) => h("li", {},
        s.name ? `${s.name}${s.bot ? ` (bot ${s.level ?? ""})` : ""}` : "open",
        !s.name && !t.private ? seatButton("Sit", "small", "join", s.seat) : null,
        s.bot && !t.private ? seatButton("Take over", "small quiet", "take_seat", s.seat) : null))),
      h("button", { class: "small", onclick: () => this.onTable(t.table_id, { watch: true }) }, "Watch"));
  }

  async join(t, seat, type) {
    try {
      await this.client.request({ type, table_id: t.table_id, seat });
      this.onTable(t.table_id, {});
    } catch (error) {
      this.flash(error.message);
    }
  }
}
