// A table's chat (docs/server.md, "Notifications and chat"): the players post, everyone
// who may see the table reads; new lines come live as `chat` messages from the socket.
// Every line is text (textContent through dom.js's h), never HTML. A person can mute
// another from a line's button: the server then leaves that person's lines out for them.

import { api, get } from "./api.js";
import { h, messageLine } from "./dom.js";
import { live } from "./live.js";

const MAX = 500;

/** Add the chat of table *id* to *parent*; returns a function that removes it. With
 * *readOnly* (the replay) there is no form and nothing live. */
export function mountChat(parent, id, invite, app, { readOnly = false } = {}) {
  const list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const message = messageLine();
  message.el.id = "chat-message";
  const box = h("section", { class: "card chat-box", id: "chat", "aria-label": "Chat" }, h("h2", {}, "Chat"), list);
  const seen = new Set();
  let last = 0;

  const line = (m) => {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    last = Math.max(last, m.id);
    const li = h("li", { class: "chat-line", dataset: { id: m.id, account: m.account } },
      h("span", { class: "chat-name" }, m.name), ": ", h("span", { class: "chat-text" }, m.text));
    if (!readOnly && app.account && m.account !== app.account.id) {
      li.append(" ", h("button", {
        class: "link chat-mute", title: `Hide ${m.name}'s messages`,
        onclick: async () => {
          try {
            await api("PUT", `/me/mutes/${encodeURIComponent(m.name)}`);
            for (const other of list.querySelectorAll(`li[data-account="${Number(m.account)}"]`)) other.remove();
            message.show(`${m.name} is muted.`, "ok");
          } catch (err) {
            message.show(err.message, "error");
          }
        },
      }, "mute"));
    }
    list.append(li);
    list.scrollTop = list.scrollHeight;
  };

  const query = invite ? `&invite=${encodeURIComponent(invite)}` : "";
  const load = async () => {
    try {
      const answer = await get(`/tables/${id}/chat?after=${last}${query}`);
      answer.messages.forEach(line);
    } catch (err) {
      message.show(err.message, "error");
    }
  };

  let stopListening = () => {};
  if (!readOnly) {
    stopListening = live.listen((m) => {
      if (m.type === "chat" && m.table === id) line(m.message);
      else if (m.type === "status" && m.state === "open") load(); // missed while offline
    });
    if (app.account) {
      const input = h("input", { id: "chat-input", type: "text", maxlength: MAX, autocomplete: "off", "aria-label": "Chat message" });
      const form = h("form", {
        class: "chat-form",
        onsubmit: async (event) => {
          event.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          if (text.length > MAX) { // the server's limit and words, without the round trip
            message.show(`a chat message is at most ${MAX} characters (this one has ${text.length})`, "error");
            return;
          }
          try {
            line(await api("POST", `/tables/${id}/chat`, { text }));
            if (input.value.trim() === text) input.value = ""; // not what was typed since
            message.clear();
          } catch (err) {
            message.show(err.message, "error");
          }
        },
      }, input, h("button", { type: "submit", id: "chat-send" }, "Send"));
      box.append(form);
    }
  }
  box.append(message.el);
  parent.append(box);
  load();
  return () => {
    stopListening();
    box.remove();
  };
}
