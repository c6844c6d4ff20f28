// The page: who plays (a guest's name, or an account signed in with this browser's key: sdk/keys.js),
// one session with the server (sdk/client.js, its token in localStorage), and three screens by address:
// the lobby at /, a table at /t/ID (?code=INVITE for a private one), a replay at /replay/ID. Setting localStorage "boneyard.debug" keeps every frame received in window.boneyard.frames
// (the tests hand them to the server's hidden-information oracle).

import { BoneyardClient } from "./sdk/client.js";
import { KeyChain, newKeyPair, signIn } from "./sdk/keys.js";
import { Mirror } from "./sdk/mirror.js";
import { h, mount } from "./ui/dom.js";
import { Lobby } from "./ui/lobby.js";
import { ReplayScreen } from "./ui/replay.js";
import { Sound } from "./ui/sound.js";
import { TableScreen } from "./ui/table.js";

const app = document.getElementById("app");
const status = document.getElementById("status");
const storage = window.localStorage;
const sound = new Sound(document.getElementById("sound"), storage);
const debug = storage.getItem("boneyard.debug") !== null;
const frames = [];
const mirror = new Mirror();
let client = null;
let screen = null;

window.boneyard = { mirror, frames, get client() { return client; } };

const route = () => {
  const [, kind, id] = location.pathname.match(/^\/(?:(t|replay)\/([A-Za-z0-9_-]{1,32}))?$/) ?? [];
  return { kind: kind ?? "lobby", id };
};

function base64(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function setStatus(text, kind = "") {
  status.textContent = text;
  status.dataset.kind = kind;
  document.body.classList.toggle("offline", kind === "offline");
}

function flash(text) {
  setStatus(text, "error");
}

function show(next) {
  screen?.destroy?.();
  screen = next;
  mount(app, next.root);
  next.render?.();
}

function go(path, replace = false) {
  history[replace ? "replaceState" : "pushState"](null, "", path);
  enter();
}

function toTable(tableId, { invite = null, watch = false } = {}) {
  const code = invite ?? new URLSearchParams(location.search).get("code");
  history.pushState(null, "", `/t/${tableId}${code ? `?code=${code}` : ""}`);
  enter({ watch });
}

async function enter({ watch = true } = {}) {
  const { kind, id } = route();
  if (kind === "replay") {
    show(new ReplayScreen({ client, recordId: id }));
    return;
  }
  if (kind === "t") {
    const table = mirror.table(id);
    show(new TableScreen({ client, mirror, tableId: id, sound, onLobby: () => {
      mirror.forget(id);
      go("/");
    } }));
    if (table.seat === null && watch && !client.seats.has(id)) {
      client.request({ type: "spectate", table_id: id }).catch((error) => {
        flash(`That table is gone (${error.code}).`);
        go("/", true);
      });
    }
    return;
  }
  show(new Lobby({ client, mirror, flash, onTable: toTable, onSignIn: signInInstead }));
  client.request({ type: "list_tables" }).catch(() => {});
}

function listen(message) {
  const concerned = mirror.apply(message);
  if (message.type === "notice") {
    const kinds = { connected: "online", resumed: "online", reconnecting: "offline", disconnected: "offline", closed: "offline" };
    setStatus(message.kind === "reconnecting" ? `reconnecting… (${message.text})` : message.text, kinds[message.kind] ?? "");
    if (message.kind === "resumed" || message.kind === "resume_rejected") refreshAfterReconnect(message.kind);
    return;
  }
  if (message.type === "error" && message.reply_to === null) flash(`${message.code}: ${message.message}`);
  if (message.type === "seated" && (message.reply_to ?? null) === null && route().kind === "lobby") {
    toTable(message.table_id); // a seek found a table
    return;
  }
  if (message.type === "table_removed" && route().kind === "t" && route().id === message.table_id) {
    flash("The table was removed.");
    go("/", true);
    return;
  }
  if (screen instanceof TableScreen ? concerned?.tableId === screen.tableId : screen instanceof Lobby) screen.render();
}

function refreshAfterReconnect(kind) {
  const { kind: where, id } = route();
  if (where === "t" && kind === "resumed" && !client.seats.has(id)) {
    client.request({ type: "spectate", table_id: id }).catch(() => {}); // a watcher has no seat to resume
  } else if (where === "lobby" || kind === "resume_rejected") {
    client.request({ type: "list_tables" }).catch(() => {});
  }
}

/** Who plays: a guest by name, or an account: created here, or this device linked to it by a code. */
function nameForm(problem = null) {
  const input = h("input", { name: "name", required: true, maxlength: 32, autocomplete: "nickname", "aria-label": "Your name",
    value: storage.getItem("boneyard.name") ?? "" });
  const code = h("input", { name: "link_code", maxlength: 64, autocomplete: "off", "aria-label": "Link code" });
  const form = h("form", { class: "name-form", onsubmit: (e) => {
    e.preventDefault();
    const name = input.value.trim();
    const how = e.submitter?.value ?? "guest";
    if (!name || /^bot-/i.test(name)) {
      flash("Choose a name (names starting bot- are the bots').");
      return;
    }
    if (how === "guest") {
      storage.setItem("boneyard.name", name);
      start(name);
    } else if (how === "link" && !code.value.trim()) {
      flash("Type the link code your other device shows.");
    } else if (!keys) {
      flash("This browser cannot keep a key (IndexedDB and WebCrypto's Ed25519 are needed): play as a guest.");
    } else {
      newKeyPair().then((keyPair) => start(name, { keyPair, create: how === "create", linkCode: how === "link" ? code.value.trim() : null }),
        (error) => flash(`This browser cannot make an Ed25519 key: ${error.message}`));
    }
  } }, h("h1", {}, "Boneyard"), h("p", {}, "Dominoes against friends and bots: Three-Player Moon, Straight and Texas 42."),
  problem ? h("p", { class: "error", role: "alert" }, problem) : null,
  h("label", { class: "field" }, h("span", {}, "Your name"), input),
  h("button", { type: "submit", class: "primary", value: "guest" }, "Play as a guest"),
  h("button", { type: "submit", value: "create" }, "Create an account with this name"),
  h("small", {}, "An account keeps your name and brings you back to your seats: this browser keeps its key, the server only its public half."),
  h("details", { class: "link-form" }, h("summary", {}, "Link this device to your account"),
    h("label", { class: "field" }, h("span", {}, "Link code (from “Link a device” where you are signed in)"), code),
    h("button", { type: "submit", value: "link" }, "Link and sign in")));
  mount(app, form);
  input.focus();
}

/** A guest who wants an account: the first screen again (a fresh page, no guest name kept). */
function signInInstead() {
  storage.removeItem("boneyard.name");
  location.reload();
}

/** The header's account chip: who is signed in, and a link code for another device on request. */
function accountBar(account) {
  document.getElementById("account")?.remove();
  if (!account) return;
  const show = h("span", { class: "link-code", role: "status" });
  const bar = h("span", { id: "account", class: "account" }, h("span", { class: "chip" }, `signed in as ${account}`),
    h("button", { id: "link-device", class: "small", type: "button", onclick: () => {
      client.request({ type: "link_device" }).then((reply) => mount(show, "On your other device choose “Link this device”, name ",
        h("strong", {}, account), ", code ", h("code", {}, reply.code), ` (good for ${Math.round(reply.expires_ms / 60000)} min).`),
      (error) => flash(error.message));
    } }, "Link a device"), show);
  document.getElementById("sound").before(bar);
}

/** Open the session: a guest named `name`, or with `account` ({keyPair, create, linkCode}) signed in as
 * `name` with the key (kept in IndexedDB once the server took it). */
async function start(name, account = null) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let once = account && { create: account.create, linkCode: account.linkCode }; // spent by the first welcome
  client = new BoneyardClient({ url: `${scheme}://${location.host}/`, name, storage,
    signIn: account ? (nonce) => signIn(account.keyPair, name, nonce, once ?? {}) : null,
    onFrame: debug ? (frame) => frames.push({ connection: client.connection, frame: base64(frame) }) : null });
  client.listen(listen);
  try {
    const welcome = await client.connect();
    if (account && welcome.account) {
      if (once?.create || once?.linkCode) await keys.save(welcome.account, account.keyPair);
      once = null;
      accountBar(welcome.account);
    } else if (account) setStatus(`This server has no accounts: playing as ${welcome.name}, a guest.`);
    const { kind } = route();
    if (kind === "lobby" && welcome.seats.length) {
      history.replaceState(null, "", `/t/${welcome.seats[0].table_id}`);
    }
    enter();
  } catch (error) {
    if (error.reply) nameForm(`${account ? "Not signed in" : "Refused"}: ${error.message}`); // the server said no
    else setStatus(`Cannot reach the server: ${error.message}`, "offline");
  }
}

window.addEventListener("popstate", () => client && enter());
// The page's own links change the screen, not the page: the session (and its seats) carries on.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[href^='/']");
  if (!link || !client || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  go(link.getAttribute("href"));
});
let keys = null; // this browser's KeyChain (null: no IndexedDB here)

async function boot() {
  keys = await KeyChain.open().catch(() => null);
  const mine = await keys?.load().catch(() => null);
  const known = storage.getItem("boneyard.name");
  if (mine) start(mine.account, { keyPair: mine.keyPair });
  else if (known) start(known);
  else nameForm();
}

boot();
