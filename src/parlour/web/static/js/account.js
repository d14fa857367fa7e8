// One's own account (docs/server.md, "Accounts"): change the password, see the sessions
// (logins) and end one, log out everywhere, delete the account.

import { api, get, post } from "./api.js";
import { confirmBox, h, messageLine } from "./dom.js";
import { go, logout } from "./main.js";

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "–");

function passwordInput(id, autocomplete, minlength = 1) {
  return h("input", { id, name: id, type: "password", autocomplete, required: true, minlength, maxlength: 128 });
}

function passwordCard() {
  const message = messageLine();
  const current = passwordInput("current-password", "current-password");
  const fresh = passwordInput("new-password", "new-password", 8);
  const button = h("button", { type: "submit", class: "primary", id: "change-password" }, "Change password");
  async function submit(event) {
    event.preventDefault();
    button.disabled = true;
    try {
      await post("/auth/password", { current: current.value, new: fresh.value });
      current.value = fresh.value = "";
      message.show("Password changed. Your other sessions were logged out.", "ok");
    } catch (err) {
      message.show(err.message, "error");
    }
    button.disabled = false;
  }
  return h("section", { class: "card narrow" },
    h("h2", {}, "Password"),
    h("form", { onsubmit: submit, class: "stack" },
      h("label", { for: "current-password" }, "Current password"), current,
      h("label", { for: "new-password" }, "New password"), fresh,
      h("small", {}, "At least 8 characters"),
      button, message.el));
}

function sessionsCard(app) {
  const message = messageLine();
  const body = h("tbody", {});
  async function draw() {
    let sessions;
    try {
      sessions = await get("/auth/sessions");
    } catch (err) {
      message.show(err.message, "error");
      return;
    }
    body.replaceChildren(...sessions.map((s) => h("tr", { class: s.current ? "you" : "" },
      h("td", {}, when(s.created_at)),
      h("td", {}, when(s.last_used_at)),
      h("td", {}, when(s.expires_at)),
      h("td", {}, s.current
        ? "this one"
        : h("button", { class: "link", onclick: () => end(s.id), "aria-label": `Log out the session made ${when(s.created_at)}` }, "Log out")))));
  }
  async function end(id) {
    try {
      await api("DELETE", `/auth/sessions/${encodeURIComponent(id)}`);
      message.show("That session was logged out.", "ok");
    } catch (err) {
      message.show(err.message, "error");
    }
    await draw();
  }
  async function everywhere() {
    if (!(await confirmBox("Log out every session of this account, this one too?", { yes: "Log out everywhere" }))) return;
    try {
      await post("/auth/logout-all");
    } catch (err) {
      message.show(err.message, "error");
      return;
    }
    await app.setAccount(null);
    go("#/login");
  }
  draw();
  return h("section", { class: "card" },
    h("h2", {}, "Sessions"),
    h("p", { class: "muted" }, "Every browser and program logged in as you."),
    h("div", { style: { overflowX: "auto" } },
      h("table", { class: "scoreboard", id: "sessions" },
        h("thead", {}, h("tr", {}, ["Logged in", "Last used", "Expires", ""].map((t) => h("th", { scope: "col" }, t)))),
        body)),
    h("p", { class: "actions" },
      h("button", { id: "logout-here", onclick: logout }, "Log out"),
      " ",
      h("button", { id: "logout-everywhere", onclick: everywhere }, "Log out everywhere")),
    message.el);
}

function deleteCard(app) {
  const message = messageLine();
  const password = passwordInput("delete-password", "current-password");
  const button = h("button", { type: "submit", class: "danger", id: "delete-account" }, "Delete my account");
  async function submit(event) {
    event.preventDefault();
    const name = app.account.name;
    if (!(await confirmBox(`Delete the account ${name}? This cannot be undone.`, { yes: "Delete it" }))) return;
    button.disabled = true;
    try {
      await api("DELETE", "/auth/me", { password: password.value });
    } catch (err) {
      message.show(err.message, "error");
      button.disabled = false;
      return;
    }
    await app.setAccount(null);
    go("#/");
  }
  return h("section", { class: "card narrow" },
    h("h2", {}, "Delete the account"),
    h("p", { class: "muted" },
      "Not while you have a game in play. You leave the tables still waiting (yours are cancelled); finished games show \"deleted player\" in your seat, and your name is free again."),
    h("form", { onsubmit: submit, class: "stack" },
      h("label", { for: "delete-password" }, "Password"), password,
      button, message.el));
}

export function mount(main, where, app) {
  if (!app.account) {
    main.append(h("section", { class: "card narrow" },
      h("h1", {}, "Your account"),
      h("p", {}, h("a", { href: "#/login?next=%23%2Faccount" }, "Log in"), " to manage your account.")));
    return;
  }
  main.append(
    h("h1", {}, `Your account: ${app.account.name}`),
    passwordCard(), sessionsCard(app), deleteCard(app));
}
