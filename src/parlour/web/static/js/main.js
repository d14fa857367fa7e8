// The parlour web client. Map of the modules:
//   main.js      this file: who is logged in, the header, the pages by address (#/...)
//   api.js       the REST API; live.js the WebSocket (reconnects, resynchronises)
//   dom.js       building elements, messages, the confirm dialog
//   auth.js      sign up, log in;  lobby.js the lobby and the create form
//   account.js   one's own account: password, sessions, log out everywhere, delete
//   table.js     one table: its lobby (join, vote, start, invite link) and the game in play
//   games/*.js   how each game is drawn and played: dice.js (Ten-Thousand and Greedy),
//                crossword.js, rummy.js, and generic.js for any game that names none
//                (renderers.js picks the module a game's spec names)
//   replay.js    a finished game step by step;  scores.js Greedy standings, Rummy statistics
// The server is the authority: pages send actions in each game's notation and draw what
// the server answers (observations, legal actions, previews).

import { api, onLoggedOut, session } from "./api.js";
import { fill, h } from "./dom.js";
import { live } from "./live.js";
import { startNotifications } from "./notifications.js";

export const app = {
  account: null,
  /** Log in or out: the header changes and the socket reconnects as the new account. */
  async setAccount(account) {
    this.account = account;
    notice();
    drawNav();
    live.connect();
  },
};

/** Say something about the whole page (above it), or nothing. */
function notice(text = "") {
  const el = document.getElementById("notice");
  el.textContent = text;
  el.hidden = !text;
}

const pages = {
  "": () => import("./lobby.js"),
  login: () => import("./auth.js"),
  signup: () => import("./auth.js"),
  account: () => import("./account.js"),
  table: () => import("./table.js"),
  replay: () => import("./replay.js"),
  standings: () => import("./scores.js"),
  stats: () => import("./scores.js"),
  ratings: () => import("./players.js"), // endings: leaderboards, players, watching
  players: () => import("./players.js"),
  watch: () => import("./players.js"),
  notifications: () => import("./notifications.js"),
};

const NUMBERED = new Set(["table", "replay"]); // pages of one table: #/table/7

/** True for a table id the server could hold (1 to 2**31 - 1, digits only). */
function tableId(text) {
  return /^[1-9][0-9]{0,9}$/.test(text || "") && Number(text) <= 2 ** 31 - 1;
}

let unmount = null;
let routeSerial = 0;

/** The address after # as {page, id, query}: "#/table/7?invite=x". */
export function route() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, search] = raw.split("?");
  const parts = path.split("/").filter(Boolean);
  return { page: parts[0] || "", id: parts[1] || null, query: new URLSearchParams(search || "") };
}

export function go(address) {
  if (location.hash === address) render();
  else location.hash = address;
}

async function render() {
  const serial = ++routeSerial;
  const where = route();
  const load = pages[where.page];
  if (unmount) {
    const old = unmount;
    unmount = null;
    old();
  }
  const main = document.getElementById("main");
  if (!load || (NUMBERED.has(where.page) && !tableId(where.id))) {
    fill(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
    return;
  }
  const module = await load();
  if (serial !== routeSerial) return;
  fill(main);
  const stop = (await module.mount(main, where, app)) || null;
  if (serial !== routeSerial) {
    if (stop) stop(); // the address changed while this page was set up: it never shows
    return;
  }
  unmount = stop;
  drawNav();
}

function drawNav() {
  const where = route().page;
  const link = (href, text, page, cls = null) =>
    h("a", { href, class: cls, "aria-current": where === page ? "page" : null }, text);
  const nav = document.getElementById("nav");
  const items = [
    link("#/", "Lobby", ""),
    link("#/standings", "Greedy standings", "standings", "wide-only"),
    link("#/stats", "Rummy statistics", "stats", "wide-only"),
    link("#/ratings", "Ratings", "ratings"),
    link("#/watch", "Watch", "watch"),
  ];
  if (app.account) {
    items.push(
      h("a", { class: "who", href: "#/account", title: "Your account", "aria-current": where === "account" ? "page" : null }, app.account.name),
      // on a phone the header has no room for it: the account page has the same button
      h("button", { class: "link wide-only", id: "logout", onclick: logout }, "Log out"),
    );
  } else {
    // between the two forms, keep where to go after (an invite link's table)
    const next = route().query.get("next");
    const keep = next && (where === "login" || where === "signup") ? `?next=${encodeURIComponent(next)}` : "";
    items.push(link(`#/login${keep}`, "Log in", "login"), link(`#/signup${keep}`, "Sign up", "signup"));
  }
  fill(nav, items);
}

export async function logout() {
  try {
    await api("POST", "/auth/logout");
  } catch (err) {
    // already logged out: nothing to undo
  }
  await app.setAccount(null);
  go("#/login");
}

/** The login no longer holds (the socket's code 4401, or a request refused with 401): logged out in another tab or window, or
 * the login expired. Ask the server who this browser is now (a dead cookie is deleted),
 * follow it and say why; the page is drawn again for the new account, without a reload. */
async function loggedOutElsewhere() {
  const before = app.account;
  if (!before) return;
  let now;
  try {
    now = await session();
  } catch (err) {
    return; // offline: the socket keeps trying, and the next close asks again
  }
  if (app.account !== before || (now && now.id === before.id)) return; // nothing to follow
  await app.setAccount(now);
  notice(now
    ? `You are now logged in as ${now.name}: the login changed in another tab or window.`
    : `${before.name} was logged out (in another tab or window, or the login expired). Log in again to play.`);
  await render();
}

function drawLive(message) {
  if (message.type !== "status") return;
  const el = document.getElementById("live");
  const text = { open: "● live", connecting: "connecting…", reconnecting: "reconnecting…" };
  el.textContent = text[message.state] || "offline: reconnecting…";
  el.dataset.state = message.state;
}

async function start() {
  live.listen(drawLive);
  live.listen((message) => message.type === "logged-out" && loggedOutElsewhere());
  onLoggedOut(loggedOutElsewhere);
  try {
    app.account = await session();
  } catch (err) {
    app.account = null;
  }
  drawNav();
  startNotifications(app);
  live.connect();
  window.addEventListener("hashchange", render);
  await render();
}

start();
