// Any game without a renderer of its own (its GameSpec.web_renderer is ""): drawn from the
// engine protocol alone. Whose turn, the scores (when the observation has "scores"), the
// seat's observation as a table of its named parts, the legal actions as buttons (the server
// lists them up to the game's limit; keys 1-9 press the first nine), a box for the game's
// notation (always there on your turn: the only way when the moves are too many to list),
// and the log of the latest events. The interface is every renderer's: create(ctx) returns
// {render(model), setBusy(busy), destroy()}.
//
// Dice are drawn from the observation's shape, whatever the game: a part named "die" (a
// whole number 1 to 6) or "dice" (a list of them) is shown as dice pictures with their
// words ("The die shows four") above the table of parts (docs/adding-a-game.md, "Drawn pieces").

import { fill, h, points } from "../dom.js";
import { scoreboard, who } from "./common.js";
import { dieFace } from "./dice.js";

const FACE_NAMES = ["", "one", "two", "three", "four", "five", "six"];
const isFace = (v) => Number.isInteger(v) && v >= 1 && v <= 6;

/** The dice the observation *view* shows: its "dice" (faces 1 to 6) or its "die" as one,
 * or [] when it has neither (or they are not faces). */
export function diceOf(view) {
  if (!view || typeof view !== "object") return [];
  if (Array.isArray(view.dice) && view.dice.length && view.dice.every(isFace)) return view.dice;
  if (isFace(view.die)) return [view.die];
  return [];
}

/** The dice as pictures, one picture with its words for screen readers. */
function diceDrawn(faces, fresh) {
  const words = faces.length === 1 ? `The die shows ${FACE_NAMES[faces[0]]}` : `The dice show ${faces.map((f) => FACE_NAMES[f]).join(", ")}`;
  return h("div", { class: "dice", id: "generic-dice", role: "img", "aria-label": words },
    faces.map((f) => h("span", { class: `die${fresh ? " rolling" : ""}`, dataset: { face: f } }, dieFace(f))));
}

const LOG_SHOWN = 30;

/** A JSON value as text on one line: lists as "1, 3, 5", records as "key: value · ...". */
function inline(value, nested = false) {
  if (value === null || value === undefined || value === "") return "–";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return Math.abs(value) >= 10000 ? points(value) : String(value);
  if (Array.isArray(value)) {
    const text = value.map((v) => inline(v, true)).join(", ");
    return nested ? `(${text})` : text || "(none)";
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k}: ${inline(v)}`).join(" · ") || "(none)";
  }
  return String(value);
}

/** A JSON value as elements: a list of lists or records, one per seat, a seat a line after
 * its name; else one line when short, else a list of its items (a board's rows, a log). */
function valueCell(value, names) {
  const perSeat = Array.isArray(value) && names.length > 0 && value.length === names.length
    && value.some((v) => v !== null && typeof v === "object");
  if (perSeat) {
    return h("ul", { class: "obs-list" }, value.map((v, i) => h("li", {}, h("strong", {}, `${names[i]}: `), valueCell(v, []))));
  }
  const one = inline(value);
  if (one.length <= 72 || value === null || typeof value !== "object") return one;
  if (Array.isArray(value)) return h("ul", { class: "obs-list" }, value.map((v) => h("li", {}, valueCell(v, []))));
  return h("ul", { class: "obs-list" }, Object.entries(value).map(([k, v]) =>
    h("li", {}, h("strong", {}, `${k}: `), valueCell(v, []))));
}

/** The observation as a table: a row per named part. */
export function observationTable(view, names) {
  const entries = view && typeof view === "object" && !Array.isArray(view) ? Object.entries(view) : [["view", view]];
  return h("table", { class: "observation", id: "observation" },
    h("caption", { class: "sr-only" }, "What your seat sees"),
    h("tbody", {}, entries.map(([key, value]) =>
      h("tr", { dataset: { part: key } },
        h("th", { scope: "row" }, key.replaceAll("_", " ")),
        h("td", {}, valueCell(value, names))))));
}

function eventWho(event, model) {
  if (event.by === -1) return "chance";
  if (event.by === -4) return "host";
  return who(model, event.by);
}

export function create(ctx) {
  let model = null;
  const turn = h("h2", { id: "turn-head" });
  const board = h("div", { class: "card scores-card", id: "scores" });
  const table = h("div", { class: "card obs-card" });
  const moves = h("div", { class: "buttons legal", id: "legal-actions", role: "group", "aria-label": "Your moves" });
  const typed = h("input", { id: "notation", type: "text", autocomplete: "off", "aria-label": "A move in the game's notation", placeholder: "a move in the game's notation" });
  const play = h("button", { type: "submit", class: "primary", id: "play-typed" }, "Play");
  const form = h("form", { class: "typed", id: "notation-form", onsubmit: submit }, typed, play);
  const movesCard = h("div", { class: "card moves-card" }, h("h3", {}, "Your moves"), moves, form);
  const log = h("ol", { class: "plays", id: "generic-log" });
  const logCard = h("div", { class: "card log-card" }, h("h3", {}, "Latest moves"), log);
  const diceCard = h("div", { class: "card dice-card", id: "dice-card", hidden: true });
  let shownDice = "";
  let shownVersion = null;
  fill(ctx.root, h("div", { class: "generic-layout" }, turn, diceCard, movesCard, board, table, logCard));

  function mine() {
    return Boolean(model && !model.readOnly && model.yourTurn);
  }

  async function send(text) {
    if (!mine() || ctx.busy() || !text) return false;
    setBusy(true);
    return ctx.act(text);
  }

  async function submit(event) {
    event.preventDefault();
    if (await send(typed.value.trim())) typed.value = "";
  }

  function setBusy(busy) {
    for (const b of moves.querySelectorAll("button")) b.disabled = busy || !mine();
    typed.disabled = busy || !mine();
    play.disabled = busy || !mine();
  }

  function render(next) {
    model = next;
    const view = model.view || {};
    // the end: the table's result, or in a replay the step's view (over, or TERMINAL to move)
    const over = Boolean(model.result) || view.over === true || view.to_move === -2;
    if (over) turn.textContent = "Game over";
    else if (mine()) turn.textContent = "Your turn";
    else if ((model.toMove || []).length) turn.textContent = `${model.toMove.map((s) => who(model, s)).join(" and ")} to move`;
    else turn.textContent = "Chance is drawn…";
    const faces = diceOf(view);
    diceCard.hidden = faces.length === 0;
    // rolled afresh: a new version whose dice differ, or the same faces rolled again
    const fresh = faces.length > 0 && shownVersion !== null && model.version !== shownVersion
      && (faces.join(" ") !== shownDice || (model.fresh || []).some((e) => e.by === -1));
    if (faces.length) fill(diceCard, h("h3", {}, faces.length === 1 ? "The die" : "The dice"), diceDrawn(faces, fresh));
    shownDice = faces.join(" ");
    shownVersion = model.version;
    board.hidden = !Array.isArray(view.scores);
    if (!board.hidden) fill(board, scoreboard(model));
    fill(table, h("h3", {}, model.readOnly ? "The table" : "What you see"), observationTable(view, model.names));
    const legal = model.legal || [];
    movesCard.hidden = model.readOnly || over;
    fill(moves, mine()
      ? legal.map((text, i) => h("button", { class: "legal-action", dataset: { action: text }, onclick: () => send(text) },
          i < 9 ? h("kbd", {}, String(i + 1)) : "", " ", text))
      : h("span", { class: "muted" }, "Not your turn."));
    if (mine() && model.legal === null) moves.append(h("span", { class: "muted" }, "Too many moves to list: type yours."));
    setBusy(ctx.busy());
    const events = (model.events && model.events.length ? model.events : model.fresh || []).slice(-LOG_SHOWN).reverse();
    fill(log, events.map((e) => h("li", { value: e.seq + 1 }, h("strong", {}, eventWho(e, model)), `: ${e.move}`)));
  }

  function onKey(event) {
    if (!mine() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    if (/^[1-9]$/.test(event.key)) {
      const button = moves.querySelectorAll("button.legal-action")[Number(event.key) - 1];
      if (button) {
        button.click();
        event.preventDefault();
      }
    }
  }
  document.addEventListener("keydown", onKey);

  return { render, setBusy, destroy: () => document.removeEventListener("keydown", onKey) };
}
