// Small DOM helpers: build elements (never from HTML strings, so names and words from
// other players are always text), show messages, ask for confirmation.

/** Build an element: h("button", {class: "x", onclick: f}, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** A key's hint after a control's words, " (R)": hidden where there is no keyboard (a phone;
 * parlour.css, pointer: coarse). */
export function keyHint(key) {
  return h("span", { class: "key-hint" }, ` (${key})`);
}

/** Replace the children of *el*. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Ask a yes/no question in a modal dialog; resolves true for yes. */
export function confirmBox(text, { yes = "Yes", no = "No" } = {}) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-yes").textContent = yes;
  document.getElementById("confirm-no").textContent = no;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    document.getElementById("confirm-no").focus();
  });
}

/** A message line: kind is "info", "ok" or "error" (errors are announced at once). */
export function messageLine() {
  const el = h("p", { class: "message", role: "status", "aria-live": "polite" });
  return {
    el,
    show(text, kind = "info") {
      el.textContent = text || "";
      el.className = `message ${kind}`;
      el.setAttribute("role", kind === "error" ? "alert" : "status");
    },
    clear() {
      el.textContent = "";
      el.className = "message";
    },
  };
}

/** Wait *ms* milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A number with thousands separators. */
export const points = (n) => (n === null || n === undefined ? "" : Number(n).toLocaleString("en"));

/** How long computer players' moves stay on screen (ms); tests set a short pace. */
export function pace() {
  const stored = Number(localStorage.getItem("parlour.pace"));
  return Number.isFinite(stored) && localStorage.getItem("parlour.pace") !== null ? stored : 800;
}

/** "2 d 3 h", "5 h 10 min", "4 min" left until *deadline* (an ISO time); "no time" once past. */
export function timeLeft(deadline, now = Date.now()) {
  const minutes = Math.floor((new Date(deadline).getTime() - now) / 60000);
  if (!(minutes > 0)) return "no time";
  const d = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (d) return hours ? `${d} d ${hours} h` : `${d} d`;
  if (hours) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${minutes} min`;
}
