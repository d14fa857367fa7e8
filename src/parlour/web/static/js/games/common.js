// Pieces every game page shares: the scoreboard and small formatting helpers.

import { h, points } from "../dom.js";

/** The scoreboard: one row per seat with its score; the seat(s) to move marked. */
export function scoreboard(model, extra = () => []) {
  const scores = (model.view && model.view.scores) || [];
  const toMove = new Set(model.toMove || []);
  return h(
    "table",
    { class: "scoreboard", id: "scoreboard" },
    h("caption", { class: "sr-only" }, "Scores"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), extra(null).map((x) => h("th", { scope: "col" }, x)))),
    h(
      "tbody",
      {},
      model.names.map((name, seat) =>
        h(
          "tr",
          { class: [toMove.has(seat) ? "to-move" : "", seat === model.you ? "you" : ""].join(" ").trim(), dataset: { seat } },
          h("th", { scope: "row" }, toMove.has(seat) ? h("span", { class: "turn-mark", "aria-label": "to move" }, "▶ ") : "", name),
          h("td", { class: "score" }, points(scores[seat])),
          extra(seat).map((x) => h("td", {}, x)),
        ),
      ),
    ),
  );
}

/** "ann" for a seat, or "You" (never in a replay: there the seat's name). */
export function who(model, seat) {
  if (seat === model.you && !model.readOnly) return "You";
  return model.names[seat] || `seat ${seat}`;
}

/** Debounce *fn* by *ms* milliseconds; the result's `cancel()` drops a call not yet made. */
export function debounce(fn, ms) {
  let timer = null;
  const call = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  call.cancel = () => clearTimeout(timer);
  return call;
}
