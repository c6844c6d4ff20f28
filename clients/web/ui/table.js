// A table: the players around the felt, the trick or the layout in the middle, your hand along the
// bottom with its legal tiles lit (click, tap, or keys: 1-9 and arrows to pick, Enter to play, Esc to
// cancel an end choice), the actions that are not tiles (bids, trump, draw, pass), the turn clock,
// the score sheet, the log and the chat, and the panels that end a hand and a game.

import { h, mount } from "./dom.js";
import { gameOf } from "./games.js";
import { dealMark, gameOverPanel, handPanel, logLines, scoreSheet } from "./sheet.js";
import { backSvg, label, tileSvg, word } from "./tiles.js";

export const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
const PROMPTS = { discard: "Discard a tile.", bid: "Your turn to bid.", trump: "Name trump.", draw: "Draw a tile.",
  play: "Your turn: play a lit tile.", pass: "Pass." };

export class TableScreen {
  constructor({ client, mirror, tableId, onLobby, sound }) {
    this.client = client;
    this.mirror = mirror;
    this.tableId = tableId;
    this.onLobby = onLobby;
    this.sound = sound;
    this.selected = null; // the tile key whose ends are being chosen
    this.focusIndex = 0;
    this.verdict = null;
    this.asked = false;
    this.wasMyTurn = false;
    this.problem = null; // the last refusal, until the next move
    this.felt = h("div", { class: "felt" });
    this.controls = h("div", { class: "controls", "aria-live": "polite" });
    this.hand = h("div", { class: "hand", role: "toolbar", "aria-label": "Your hand" });
    this.sheet = h("div", { class: "sheet-box" });
    this.mark = h("div", { class: "mark-box" });
    this.log = h("ol", { class: "log", "aria-label": "What happened", "aria-live": "polite" });
    this.chatLines = h("ol", { class: "chat-lines", "aria-label": "Chat" });
    this.chatInput = h("input", { name: "chat", maxlength: 280, placeholder: "Say something…", "aria-label": "Chat message", autocomplete: "off" });
    this.overlay = h("div", { class: "overlay" });
    this.header = h("div", { class: "table-head" });
    const chat = h("form", { class: "chat", onsubmit: (e) => this.say(e) }, this.chatInput, h("button", { type: "submit" }, "Send"));
    this.root = h("section", { class: "table-screen", id: "table", "aria-label": "Table" },
      this.header,
      h("div", { class: "play" }, this.felt, this.controls, this.hand),
      h("aside", { class: "side" }, this.mark, this.sheet,
        h("details", { class: "log-box", open: true }, h("summary", {}, "Log and chat"), this.log, this.chatLines, chat)),
      this.overlay);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 250);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
  }

  get table() {
    return this.mirror.table(this.tableId);
  }

  /** This table's game's part of the page (ui/games.js). */
  get game() {
    return gameOf(this.table.table?.game ?? this.table.view?.game);
  }

  places() {
    const t = this.table;
    const n = t.table?.seats.length ?? t.view?.tile_counts.length ?? 3;
    const me = t.seat ?? 0;
    return (seat) => PLACES[n][(seat - me + n) % n];
  }

  // -- rendering ---------------------------------------------------------------------------------

  render() {
    const t = this.table;
    const view = t.view;
    const myTurn = t.myTurn && t.legal.length > 0;
    if (myTurn && !this.wasMyTurn) this.sound.turn();
    this.wasMyTurn = myTurn;
    this.root.dataset.myTurn = String(myTurn);
    this.root.dataset.game = t.table?.game ?? "";
    this.root.dataset.over = String(Boolean(t.gameOver));
    this.root.classList.toggle("spectating", t.seat === null);
    t.verdict?.then((v) => {
      if (this.verdict !== v) {
        this.verdict = v;
        this.render();
      }
    });
    this.renderHeader(t);
    const where = this.places();
    const seats = (t.table?.seats ?? []).map((info) => this.seat(t, info, where(info.seat)));
    let centre;
    if (!view) centre = h("div", { class: "waiting" }, t.table?.status === "waiting" ? "Waiting for players…" : "Dealing…");
    else {
      const choices = this.selected ? this.tileActions().get(this.selected)?.map((a) => a.end) ?? [] : [];
      centre = this.game.centre(t, where, { choices, onEnd: (end) => this.playEnd(end) });
    }
    mount(this.felt, seats, h("div", { class: "centre" }, centre));
    this.renderControls(t, myTurn);
    this.renderHand(t, myTurn);
    mount(this.sheet, scoreSheet(t));
    mount(this.mark, dealMark(t, this.verdict));
    mount(this.log, logLines(t).map((line) => h("li", {}, line)));
    mount(this.chatLines, t.chat.slice(-30).map((c) => h("li", { class: "chat-line" }, h("strong", {}, `${c.name}: `), c.text)));
    this.log.scrollTop = this.log.scrollHeight; // the latest line in view, without scrolling the page
    mount(this.overlay,
      gameOverPanel(t, this.verdict, { onRematch: () => this.rematch(), onLobby: () => this.leave(), asked: this.asked }),
      handPanel(t, { onReady: () => this.ready() }));
    this.tick();
  }

  renderHeader(t) {
    const info = t.table;
    const game = info ? this.game.title(info) : "";
    const invite = new URLSearchParams(location.search).get("code");
    mount(this.header,
      h("h1", {}, game),
      h("span", { class: "muted" }, `table ${this.tableId}${t.seat === null ? " · watching" : ""}`),
      info?.private && invite ? h("span", { class: "chip" }, "private · share this page's address to invite") : null,
      h("button", { class: "quiet", onclick: () => this.leave() }, "Leave"));
  }

  seat(t, info, place) {
    const view = t.view;
    const toMove = view?.to_move === info.seat;
    const count = view ? view.tile_counts[info.seat] ?? 0 : 0;
    const team = view ? this.game.team(view, info.seat) : null;
    const note = view ? this.game.seatNote(view, info.seat) : "";
    const out = view ? this.game.out(view, info.seat) : false;
    const who = info.name ?? "empty seat";
    const state = !info.name ? "" : info.bot ? `bot${info.level ? ` (${info.level})` : ""}` : !info.connected ? "away" : info.auto ? "played for" : "";
    return h("div", { class: ["seat", `at-${place}`, toMove ? "to-move" : null, place === "bottom" && t.seat !== null ? "me" : null,
      team ? `team-${team}` : null, out ? "out" : null],
    "aria-label": `${who}${state ? `, ${state}` : ""}, ${count} tiles${out ? " face down, sitting out" : ""}${toMove ? ", to move" : ""}`, "data-seat": info.seat },
    h("div", { class: "seat-name" }, h("span", { class: "seat-badge", "aria-hidden": "true" }, String(info.seat + 1)), who,
      state ? h("small", {}, ` ${state}`) : null),
    h("div", { class: "seat-note" }, note),
    place === "bottom" && t.seat !== null ? null : h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 9) }, () => backSvg(16))),
    toMove && view ? h("div", { class: "clock", role: "timer" }) : null,
    !info.name && t.seat === null ? h("button", { class: "small", onclick: () => this.sit(info.seat) }, "Sit here") : null);
  }

  /** The legal actions that name a tile, by tile: play (Straight: one per end) and discard. */
  tileActions() {
    const actions = new Map();
    for (const action of this.table.legal) {
      if (!action.tile) continue;
      const key = word(action.tile);
      actions.set(key, [...(actions.get(key) ?? []), action]);
    }
    return actions;
  }

  renderControls(t, myTurn) {
    const view = t.view;
    const others = t.legal.filter((a) => !a.tile);
    const tileActs = this.tileActions();
    let prompt = "";
    if (!view) prompt = "";
    else if (t.gameOver) prompt = "The game is over.";
    else if (myTurn && this.selected) prompt = `Where does ${this.selected} go? (1-${tileActs.get(this.selected).length}, Esc to cancel)`;
    else if (myTurn) {
      const kind = t.legal[0].type;
      prompt = this.game.prompts[kind] ?? PROMPTS[kind] ?? "Your turn.";
    } else if (view.to_move !== null && view.to_move !== undefined) prompt = `${t.seatName(view.to_move)} to move…`;
    const buttons = myTurn && this.selected
      ? tileActs.get(this.selected).map((a, i) => h("button", { class: "action primary", onclick: () => this.act(a), "data-end": a.end },
        `${i + 1}. ${this.game.choiceText(a, view)}`))
      : myTurn ? others.map((a) => h("button", { class: ["action", a.type === "pass" ? null : "primary"], onclick: () => this.act(a) }, this.game.actionText(a))) : [];
    const keys = myTurn && tileActs.size ? (this.selected ? "keys: 1-9 an end · Esc another tile" : "keys: 1-9 a tile · ← → · Enter") : "";
    mount(this.controls, this.problem ? h("p", { class: "prompt error", role: "alert" }, this.problem) : null,
      h("p", { class: "prompt" }, prompt), h("div", { class: "actions" }, buttons),
      keys ? h("small", { class: "keys", "aria-hidden": "true" }, keys) : null);
  }

  renderHand(t, myTurn) {
    const view = t.view;
    if (!view || t.seat === null) {
      mount(this.hand, t.seat === null ? h("p", { class: "muted" }, "You are watching.") : null);
      return;
    }
    if (this.game.out(view, t.seat)) { // nello: the partner's hand lies face down this hand
      mount(this.hand, h("p", { class: "muted sitting-out" }, "Your partner bid nello: you sit this hand out, your tiles face down."),
        view.hand.map(() => h("span", { class: "tile face-down", "aria-hidden": "true" }, backSvg(88))));
      return;
    }
    const acts = this.tileActions();
    const focused = document.activeElement?.closest?.(".hand") ? [...this.hand.children].indexOf(document.activeElement) : -1;
    const verb = this.game.tileVerb(view);
    mount(this.hand, view.hand.map((tile, i) => {
      const key = word(tile);
      const legal = myTurn && acts.has(key);
      const widow = t.widow && word(t.widow) === key;
      return h("button", { class: ["tile", legal ? "legal" : null, myTurn && !legal ? "dim" : null, this.selected === key ? "selected" : null,
        widow ? "widow" : null], "data-tile": key, "aria-label": `${i + 1}: ${label(tile)}${widow ? ", the widow" : ""}${legal ? `, ${verb}able` : ""}`,
        "aria-disabled": String(!legal),
        onclick: () => this.choose(key) }, tileSvg(tile, { size: 88 }), h("span", { class: "key-hint", "aria-hidden": "true" }, String(i + 1)));
    }));
    if (focused >= 0) this.hand.children[Math.min(focused, this.hand.children.length - 1)]?.focus();
  }

  tick() {
    const t = this.table;
    const left = t.secondsLeft();
    for (const clock of this.felt.querySelectorAll(".clock")) {
      clock.textContent = left === null ? "" : `${Math.ceil(left)} s`;
      clock.classList.toggle("low", left !== null && left < 6);
    }
    const ready = this.overlay.querySelector(".hand-result button");
    if (ready && t.pauseUntil) ready.textContent = `Ready (${Math.ceil(Math.max(0, t.pauseUntil - performance.now()) / 1000)} s)`;
  }

  // -- acting ------------------------------------------------------------------------------------

  choose(key) {
    const actions = this.tileActions().get(key);
    if (!actions) return;
    if (actions.length === 1) this.act(actions[0]);
    else {
      this.selected = key;
      this.render();
      this.controls.querySelector("button")?.focus();
    }
  }

  playEnd(end) {
    const action = this.tileActions().get(this.selected)?.find((a) => a.end === end);
    if (action) this.act(action);
  }

  act(action) {
    this.selected = null;
    this.problem = null;
    this.client.request({ type: "act", table_id: this.tableId, action }).catch((e) => this.flash(e.message));
    // Until the server's events come, nothing more is offered.
    const t = this.table;
    if (t.view) t.view = { ...t.view, legal_actions: [] };
    this.render();
  }

  ready() {
    this.client.request({ type: "ready", table_id: this.tableId }).catch((e) => this.flash(e.message));
  }

  rematch() {
    this.asked = true;
    this.client.request({ type: "rematch", table_id: this.tableId }).catch((e) => { this.asked = false; this.flash(e.message); });
    this.render();
  }

  sit(seat) {
    this.problem = null;
    const invite = new URLSearchParams(location.search).get("code");
    this.client.request({ type: "join", table_id: this.tableId, seat, invite }).catch((e) => this.flash(e.message));
  }

  leave() {
    this.client.request({ type: "leave", table_id: this.tableId }).catch(() => {});
    this.onLobby();
  }

  say(event) {
    event.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text) return;
    this.chatInput.value = "";
    this.client.request({ type: "chat", table_id: this.tableId, text }).catch((e) => this.flash(e.message));
  }

  /** An error in words, kept above the controls until the player does something else. */
  flash(text) {
    this.problem = text;
    this.render();
  }

  key(e) {
    if (e.target.closest?.("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const tiles = [...this.hand.querySelectorAll("button.tile")];
    if (this.selected) {
      const ends = this.tileActions().get(this.selected) ?? [];
      if (e.key === "Escape") {
        this.selected = null;
        this.render();
      } else if (/^[1-9]$/.test(e.key) && ends[Number(e.key) - 1]) this.act(ends[Number(e.key) - 1]);
      else return;
      e.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(e.key) && tiles[Number(e.key) - 1]) {
      tiles[Number(e.key) - 1].focus();
      this.choose(tiles[Number(e.key) - 1].dataset.tile);
    } else if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && tiles.length) {
      const at = tiles.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length;
      tiles[next].focus();
    } else if (e.key === "Enter" && this.overlay.querySelector("button.primary") && !e.target.closest?.("button")) {
      this.overlay.querySelector("button.primary").click();
    } else return;
    e.preventDefault();
  }
}
