// Notifications (docs/server.md, "Notifications and chat"): the unread badge in the
// header, the #/notifications page (the list, newest first, marked read; the e-mail
// settings) and the browser's Notification API. A `notification` message from the socket
// adds to the badge and, while this tab is in the background and the person allowed it
// (the page's button asks), shows a system notification. Everything is drawn as text.

import { api, get } from "./api.js";
import { fill, h, messageLine } from "./dom.js";
import { live } from "./live.js";

const ASKED = "parlour.browser-notifications"; // "on" once the person turned them on here
const badge = h("a", { id: "notif-badge", class: "notif-badge", href: "#/notifications", hidden: true, title: "Notifications" });
let unread = 0;
let appRef = null;

function drawBadge() {
  badge.textContent = unread > 99 ? "99+" : String(unread);
  badge.hidden = !appRef || !appRef.account || unread === 0;
  badge.setAttribute("aria-label", `${unread} unread notification${unread === 1 ? "" : "s"}`);
}

async function refresh() {
  if (!appRef || !appRef.account) {
    unread = 0;
    drawBadge();
    return;
  }
  try {
    unread = (await get("/me/notifications?limit=1")).unread;
  } catch (err) {
    unread = 0;
  }
  drawBadge();
}

/** True when a system notification may be shown (supported, allowed, turned on here). */
function browserAllowed() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(ASKED) === "on";
}

function onMessage(message) {
  if (message.type === "hello") refresh(); // (re)connected, maybe as someone else
  if (message.type !== "notification") return;
  unread += 1;
  drawBadge();
  const note = message.notification;
  if (document.hidden && browserAllowed()) {
    const shown = new Notification("parlour", { body: note.text, tag: `parlour-${note.id}` });
    shown.onclick = () => {
      window.focus();
      if (note.table) location.hash = `#/table/${note.table}`;
    };
  }
  window.dispatchEvent(new CustomEvent("parlour-notification", { detail: note }));
}

/** Start the badge (once, at start-up): it follows the account through the socket. */
export function startNotifications(app) {
  appRef = app;
  const live_ = document.getElementById("live");
  live_.parentNode.insertBefore(badge, live_);
  live.listen(onMessage);
  refresh();
}

// --- the page -------------------------------------------------------------------------

export async function mount(main, where, app) {
  if (!app.account) {
    fill(main, h("h1", {}, "Notifications"), h("p", {}, h("a", { href: "#/login?next=%23%2Fnotifications" }, "Log in"), " to see yours."));
    return null;
  }
  const message = messageLine();
  const list = h("ol", { class: "notif-list", id: "notif-list" });
  const more = h("button", { id: "notif-more", hidden: true }, "Older");
  const readAll = h("button", { id: "notif-read-all" }, "Mark all read");
  let before = null;

  const item = (note) => {
    const li = h("li", { class: note.read ? "read" : "unread", dataset: { id: note.id } });
    const text = note.table ? h("a", { href: `#/table/${note.table}` }, note.text) : h("span", {}, note.text);
    const when = h("time", { datetime: note.created_at }, new Date(note.created_at).toLocaleString());
    li.append(text, " ", when);
    if (!note.read) {
      li.append(" ", h("button", {
        class: "link", onclick: async () => {
          const answer = await api("POST", `/me/notifications/${note.id}/read`);
          unread = answer.unread;
          drawBadge();
          li.className = "read";
          li.querySelector("button").remove();
        },
      }, "Mark read"));
    }
    return li;
  };
  const load = async () => {
    const page = await get(`/me/notifications?limit=20${before ? `&before=${before}` : ""}`);
    list.append(...page.notifications.map(item));
    before = page.next_before;
    more.hidden = !before;
    unread = page.unread;
    drawBadge();
    if (!list.children.length) list.append(h("li", { class: "empty" }, "Nothing yet."));
  };
  more.onclick = () => load().catch((err) => message.show(err.message, "error"));
  readAll.onclick = async () => {
    await api("POST", "/me/notifications/read");
    unread = 0;
    drawBadge();
    for (const li of list.querySelectorAll("li.unread")) {
      li.className = "read";
      const button = li.querySelector("button");
      if (button) button.remove();
    }
  };

  const browserBox = h("p", { id: "browser-notif" });
  const drawBrowser = () => {
    if (!("Notification" in window)) {
      fill(browserBox, "This browser cannot show notifications.");
    } else if (browserAllowed()) {
      fill(browserBox, "This browser shows a notification while the tab is in the background. ",
        h("button", { id: "browser-notif-off", onclick: () => { localStorage.removeItem(ASKED); drawBrowser(); } }, "Stop"));
    } else if (Notification.permission === "denied") {
      fill(browserBox, "Notifications are blocked for this site in the browser's settings.");
    } else {
      fill(browserBox, h("button", {
        id: "browser-notif-on",
        onclick: async () => {
          const answer = await Notification.requestPermission();
          if (answer === "granted") localStorage.setItem(ASKED, "on");
          drawBrowser();
        },
      }, "Notify me in this browser"));
    }
  };
  drawBrowser();

  const mail = await get("/me/mail");
  const email = h("input", { id: "mail-address", type: "email", maxlength: 254, value: mail.email || "", autocomplete: "email" });
  const notify = h("input", { id: "mail-notify", type: "checkbox" });
  notify.checked = mail.notify;
  const mailMessage = messageLine();
  const mailForm = h("form", {
    class: "card", id: "mail-form",
    onsubmit: async (event) => {
      event.preventDefault();
      if (notify.checked && !email.value.trim()) {
        mailMessage.show("give an e-mail address to get mail", "error"); // as the server says
        return;
      }
      try {
        await api("PUT", "/me/mail", { email: email.value.trim() || null, notify: notify.checked });
        mailMessage.show("Saved.", "ok");
      } catch (err) {
        mailMessage.show(err.message, "error");
      }
    },
  },
  h("h2", {}, "E-mail"),
  mail.sending ? null : h("p", {}, "This server sends no mail."),
  h("label", { for: "mail-address" }, "Address "), email,
  h("label", {}, notify, " Mail me my turns, game starts and ends, and my daily crossword"),
  h("button", { type: "submit", id: "mail-save" }, "Save"), mailMessage.el);

  const onNew = (event) => {
    const empty = list.querySelector("li.empty");
    if (empty) empty.remove();
    list.prepend(item(event.detail));
  };
  window.addEventListener("parlour-notification", onNew);
  main.append(h("h1", {}, "Notifications"), message.el, browserBox, readAll, list, more, mailForm);
  await load();
  return () => window.removeEventListener("parlour-notification", onNew);
}
