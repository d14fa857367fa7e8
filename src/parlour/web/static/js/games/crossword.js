// The crossword: the board with its premium squares and covered tiles marked, your rack
// (rearranged by drag and drop or keys), a play put together by clicking squares and
// tiles or typing letters, or typed whole ("CAT H8 across"); the server's preview (score and
// words formed) before you confirm; exchange and pass; the bag; the list of plays; daily
// mode. Actions are the crossword notation (docs/records.md).

import { confirmBox, fill, h, points } from "../dom.js";
import { debounce, scoreboard, who } from "./common.js";
import { COLUMNS, PREMIUMS, PREMIUM_NAMES, TILE_VALUES } from "./crossword-board.js";

const SIZE = 15;
const PREMIUM_CLASS = { T: "tw", D: "dw", t: "tl", d: "dl" };
const PREMIUM_SHORT = { T: "TW", D: "DW", t: "TL", d: "DL" };
const CENTRE = 7 * SIZE + 7;

export const squareName = (sq) => `${COLUMNS[sq % SIZE]}${Math.floor(sq / SIZE) + 1}`;

/** The squares a play in notation ("CAT H8 across") covers, or [] for another move. */
export function playSquares(move) {
  const m = /^([A-Za-z]+) ([A-O])(\d{1,2}) (across|down|a|d)$/.exec(move || "");
  if (!m) return [];
  const col = COLUMNS.indexOf(m[2]);
  const row = Number(m[3]) - 1;
  const across = m[4][0] === "a";
  return [...m[1]].map((_, i) => (across ? row * SIZE + col + i : (row + i) * SIZE + col));
}

/** One event in plain words for the move log (see table.js): "ann played CAT at H8 across
 * for 12", "bob passed", "bob exchanged 3 tiles" (which tiles only to their owner). */
export function describeEvent(e, info) {
  const name = e.by === info.you ? "You" : info.names[e.by] || `seat ${e.by}`;
  if (e.by === -1) return e.move.startsWith("draw ") ? (info.you !== null ? `Tiles drawn: ${e.move.slice(5)}` : "Tiles were drawn") : "";
  if (e.by === -4) return e.move === "new-day" ? "A new day began" : e.move === "skip" ? "The clock ran out: a turn was passed" : `The host: ${e.move}`;
  if (e.move === "pass") return `${name} passed`;
  if (e.move.startsWith("rack ")) return "";
  if (e.move.startsWith("exchange ")) return `${name} exchanged ${e.move.slice(9)}`;
  const m = /^(\S+) (\S+) (\S+)$/.exec(e.move);
  if (!m) return `${name}: ${e.move}`;
  const log = ((info.after && info.after.view && info.after.view.log) || []).filter((x) => x.kind === "play" && x.play === e.move && x.seat === e.by);
  const entry = log[log.length - 1];
  const score = entry ? ` for ${points(entry.score)}${entry.bingo ? " (all seven tiles!)" : ""}` : "";
  return `${name} played ${m[1].toUpperCase()} at ${m[2]} ${m[3].startsWith("a") ? "across" : "down"}${score}`;
}

export function create(ctx) {
  let model = null;
  let board = ""; // 225 letters, "." empty
  let heights = [];
  let rack = ""; // in the player's order
  let rackPending = false; // a rearrangement not yet stored by the server
  let gone = false; // destroyed: the page dropped this view; it sends nothing more
  let placed = new Map(); // square -> letter
  let order = []; // squares in the order tiles were put down (for Backspace)
  let cursor = null; // {sq, dir: "across" | "down"}
  let chosen = null; // rack index picked before a square
  let exchanging = false;
  let exchangeSet = new Set();
  let preview = null; // {ok, action, reason, entry, source}
  let previewSerial = 0;
  let dragFrom = null;
  let lastPlay = new Set(); // the squares of the last play, marked on the board

  const status = h("p", { class: "daily", id: "cw-status", "aria-live": "polite" });
  const grid = h("div", { class: "board", id: "board", role: "group", "aria-label": "Board, 15 by 15 squares (arrow keys move, letters place tiles)" });
  const rackEl = h("div", { class: "rack", id: "rack", role: "listbox", "aria-label": "Your rack (drag or use Shift+arrows to rearrange)", "aria-orientation": "horizontal" });
  const previewEl = h("p", { class: "preview", id: "preview", "aria-live": "polite" });
  const playButton = h("button", { class: "primary", id: "play", onclick: playIt, disabled: true }, "Play");
  const clearButton = h("button", { id: "clear", onclick: clearPlay }, "Clear");
  const exchangeButton = h("button", { id: "exchange", onclick: toggleExchange }, "Exchange…");
  const passButton = h("button", { id: "pass", onclick: passIt }, "Pass");
  const typed = h("input", { id: "typed", placeholder: "e.g. CAT H8 across", autocomplete: "off", spellcheck: "false", "aria-label": "Type a play: word, first square, across or down" });
  const typedForm = h("form", { class: "typed", onsubmit: (e) => { e.preventDefault(); previewTyped(); } },
    h("label", { for: "typed" }, "Type a play:"), typed, h("button", { type: "submit", id: "typed-preview" }, "Preview"));
  const controls = h("div", { class: "controls" },
    h("p", { class: "buttons" }, playButton, clearButton, exchangeButton, passButton), typedForm);
  const info = h("div", { class: "card", id: "cw-info" });
  const plays = h("ol", { class: "plays", id: "plays" });
  const hint = h("p", { class: "muted", id: "cw-hint" },
    "Click a square (again to turn ↓/→), then click tiles or type letters. Backspace takes a tile back, Enter plays.");

  fill(
    ctx.root,
    h("div", { class: "cw-layout" },
      h("div", { class: "cw-board" }, grid),
      h("div", { class: "cw-side" },
        status,
        h("div", { class: "card", id: "your-rack" },
          h("h2", { class: "rack-h" }, "Your rack"), rackEl, previewEl, controls, hint),
        info,
        h("section", { class: "card plays-card" }, h("h2", {}, "Plays"), plays))),
  );

  // ---- state helpers -------------------------------------------------------------------

  /** Whether the tiles put down make a whole placement: one row or column, no gap (the
   * board's tiles fill the rest), touching a tile on the board or covering the centre. */
  function placementComplete() {
    const squares = [...placed.keys()];
    if (!squares.length) return false;
    const rows = new Set(squares.map((q) => Math.floor(q / SIZE)));
    const cols = new Set(squares.map((q) => q % SIZE));
    if (rows.size > 1 && cols.size > 1) return false;
    const step = rows.size === 1 ? 1 : SIZE;
    const lo = Math.min(...squares);
    const hi = Math.max(...squares);
    for (let q = lo; q <= hi; q += step) if (!placed.has(q) && board[q] === ".") return false;
    const empty = !board.replace(/\./g, "");
    if (empty) return placed.has(CENTRE) && squares.length > 1;
    const near = (q) => [q - SIZE, q + SIZE, q % SIZE ? q - 1 : -1, q % SIZE < SIZE - 1 ? q + 1 : -1];
    return squares.some((q) => board[q] !== "." || near(q).some((n) => n >= 0 && n < SIZE * SIZE && board[n] !== "."));
  }

  function mayAct() {
    return !gone && model && !model.readOnly && model.view && (model.view.actors || []).includes(model.you);
  }

  /** Rack indices used by the tiles on the board (each placed letter takes one tile). */
  function usedIndices() {
    const used = new Set();
    for (const letter of placed.values()) {
      for (let i = 0; i < rack.length; i += 1) {
        if (!used.has(i) && rack[i] === letter) {
          used.add(i);
          break;
        }
      }
    }
    return used;
  }

  function letterAt(sq) {
    return placed.get(sq) || (board[sq] !== "." ? board[sq] : "");
  }

  function advance() {
    if (!cursor) return;
    const step = cursor.dir === "across" ? 1 : SIZE;
    const next = cursor.sq + step;
    const sameLine = cursor.dir === "across" ? Math.floor(next / SIZE) === Math.floor(cursor.sq / SIZE) : next < SIZE * SIZE;
    if (sameLine) cursor = { ...cursor, sq: next };
  }

  function place(sq, letter) {
    if (!mayAct()) return;
    const free = [...rack].filter((_, i) => !usedIndices().has(i));
    if (placed.has(sq)) removeAt(sq);
    if (board[sq] === letter) {
      // the letter is already there: kept, not a tile (a tile never covers its own letter)
    } else if (!free.includes(letter)) {
      ctx.say(`You have no ${letter} on your rack.`, "error");
      return;
    } else {
      placed.set(sq, letter);
      order.push(sq);
    }
    chosen = null;
    drawAll();
    schedulePreview();
  }

  function removeAt(sq) {
    placed.delete(sq);
    order = order.filter((s) => s !== sq);
  }

  function clearPlay() {
    placed = new Map();
    order = [];
    chosen = null;
    preview = null;
    typed.value = "";
    previewSerial += 1;
    drawAll();
  }

  // ---- preview and actions -------------------------------------------------------------

  const schedulePreview = debounce(() => runPreview({ tiles: [...placed].map(([sq, l]) => [squareName(sq), l]) }, "tiles"), 150);

  async function runPreview(body, source) {
    const serial = ++previewSerial;
    if (source === "tiles" && !placed.size) {
      preview = null;
      drawPreview();
      return;
    }
    try {
      const answer = await ctx.preview(body);
      if (serial !== previewSerial) return;
      // the action's own log entry: the last one, or the one before the game's end
      const log = answer.ok && answer.view ? answer.view.log.filter((e) => e.kind !== "end") : [];
      const entry = log.length ? log[log.length - 1] : null;
      preview = { ok: answer.ok, action: answer.action, reason: answer.reason, entry, source, view: answer.view };
    } catch (err) {
      if (serial !== previewSerial) return;
      preview = { ok: false, reason: err.message, source };
    }
    drawPreview();
    drawBoard();
  }

  function previewTyped() {
    const text = typed.value.trim();
    if (!text) return;
    if (placed.size) {
      placed = new Map();
      order = [];
      drawBoard();
      drawRack();
    }
    runPreview({ action: text }, "typed");
  }

  async function playIt() {
    if (!preview || !preview.ok || !mayAct() || ctx.busy()) return;
    const text = preview.entry && preview.entry.kind === "play" ? preview.entry.play : preview.action;
    playButton.disabled = true;
    if (await ctx.act(text)) clearPlay();
    else drawPreview();
  }

  async function passIt() {
    if (!mayAct()) return;
    if (await confirmBox("Pass this turn? You score nothing.", { yes: "Pass", no: "Keep playing" })) {
      if (await ctx.act("pass")) clearPlay();
    }
  }

  function toggleExchange() {
    if (!mayAct()) return;
    if (exchanging && exchangeSet.size) {
      const tiles = [...exchangeSet].map((i) => rack[i]).sort().join("");
      confirmBox(`Exchange ${tiles} for ${tiles.length} new tile${tiles.length > 1 ? "s" : ""}? It costs your turn.`, { yes: "Exchange", no: "Cancel" }).then(async (yes) => {
        if (!yes) return;
        if (await ctx.act(`exchange ${tiles}`)) {
          exchanging = false;
          exchangeSet = new Set();
          clearPlay();
        }
      });
      return;
    }
    exchanging = !exchanging;
    exchangeSet = new Set();
    if (exchanging) clearPlay();
    drawAll();
  }

  const sendRack = debounce(async () => {
    if (gone || !model || model.readOnly) return;
    const ok = await ctx.act(`rack ${rack}`, { retryStale: true });
    rackPending = false;
    if (!ok && model.view.rack) rack = model.view.rack;
    drawRack();
  }, 500);

  function moveTile(from, to) {
    if (from === to || from < 0 || to < 0 || from >= rack.length || to >= rack.length) return;
    const letters = [...rack];
    const [tile] = letters.splice(from, 1);
    letters.splice(to, 0, tile);
    rack = letters.join("");
    rackPending = true;
    drawRack();
    rackEl.querySelectorAll(".tile-btn")[to].focus();
    sendRack();
  }

  // ---- drawing -------------------------------------------------------------------------

  /** A typed play's tiles, from the preview's board (drawn like tiles put down). */
  function ghostTiles() {
    const tiles = new Map();
    if (!preview || !preview.ok || preview.source !== "typed" || !preview.view) return tiles;
    const after = preview.view.board.join("");
    for (let sq = 0; sq < after.length; sq += 1) if (after[sq] !== board[sq]) tiles.set(sq, after[sq]);
    return tiles;
  }

  let ghost = new Map();

  function drawAll() {
    drawBoard();
    drawRack();
    drawPreview();
    drawControls();
  }

  function drawBoard() {
    ghost = ghostTiles();
    const plays = ((model && model.view && model.view.log) || []).filter((x) => x.kind === "play");
    lastPlay = new Set(plays.length ? playSquares(plays[plays.length - 1].play) : []);
    const cells = [h("span", { class: "axis", "aria-hidden": "true" })];
    for (let c = 0; c < SIZE; c += 1) cells.push(h("span", { class: "axis", "aria-hidden": "true" }, COLUMNS[c]));
    const focusSq = cursor ? cursor.sq : CENTRE;
    for (let r = 0; r < SIZE; r += 1) {
      cells.push(h("span", { class: "axis", "aria-hidden": "true" }, r + 1));
      for (let c = 0; c < SIZE; c += 1) {
        const sq = r * SIZE + c;
        const premium = PREMIUMS[r][c];
        const onBoard = board[sq] !== "." ? board[sq] : "";
        const pending = placed.get(sq) || ghost.get(sq);
        const letter = pending || onBoard;
        const height = heights[sq] || 0;
        const classes = ["sq"];
        if (PREMIUM_CLASS[premium]) classes.push(PREMIUM_CLASS[premium]);
        if (sq === CENTRE) classes.push("centre");
        if (pending) classes.push("pending");
        else if (onBoard) classes.push("tile");
        if (height > 1) classes.push("covered");
        if (cursor && cursor.sq === sq && mayAct()) classes.push("cursor", cursor.dir);
        if (lastPlay.has(sq) && onBoard && !pending) classes.push("last-play");
        let label = squareName(sq);
        if (letter) label += `: ${letter}${pending ? " (your tile, not played yet)" : lastPlay.has(sq) ? " (last play)" : ""}`;
        else label += premium !== "." ? `, ${PREMIUM_NAMES[premium]}` : ", empty";
        if (height > 1) label += `, ${height - 1} tile${height > 2 ? "s" : ""} covered`;
        if (pending && onBoard) label += `, covering ${onBoard}`;
        cells.push(
          h(
            "button",
            {
              class: classes.join(" "),
              dataset: { sq, square: squareName(sq) },
              "aria-label": label,
              tabindex: sq === focusSq ? 0 : -1,
              onclick: () => clickSquare(sq),
              onkeydown: (e) => boardKey(e, sq),
              ondragover: (e) => e.preventDefault(),
              ondrop: (e) => dropOnSquare(e, sq),
            },
            letter ? [letter, h("span", { class: "val", "aria-hidden": "true" }, TILE_VALUES[letter])] : premium !== "." && sq !== CENTRE ? PREMIUM_SHORT[premium] : "",
            height > 1 ? h("span", { class: "stack", "aria-hidden": "true" }, height) : "",
          ),
        );
      }
    }
    const hadFocus = grid.contains(document.activeElement);
    fill(grid, cells);
    if (hadFocus) grid.querySelector(`[data-sq="${focusSq}"]`).focus();
  }

  function drawRack() {
    const used = usedIndices();
    const tiles = [...rack].map((letter, i) =>
      h(
        "button",
        {
          class: ["tile-btn", used.has(i) ? "used" : "", chosen === i ? "chosen" : "", exchangeSet.has(i) ? "exchange" : ""].join(" ").trim(),
          role: "option",
          "aria-selected": chosen === i || exchangeSet.has(i) ? "true" : "false",
          "aria-label": `${letter}, ${TILE_VALUES[letter]} point${TILE_VALUES[letter] > 1 ? "s" : ""}${used.has(i) ? ", on the board" : ""}${exchangeSet.has(i) ? ", to exchange" : ""}`,
          dataset: { letter, index: i },
          draggable: "true",
          onclick: () => clickTile(i),
          onkeydown: (e) => rackKey(e, i),
          ondragstart: (e) => {
            dragFrom = i;
            e.dataTransfer.setData("text/plain", String(i));
            e.dataTransfer.effectAllowed = "move";
            e.currentTarget.classList.add("dragging");
          },
          ondragend: (e) => e.currentTarget.classList.remove("dragging"),
          ondragover: (e) => e.preventDefault(),
          ondrop: (e) => {
            e.preventDefault();
            const from = dragFrom !== null ? dragFrom : Number(e.dataTransfer.getData("text/plain"));
            dragFrom = null;
            moveTile(from, i);
          },
        },
        letter,
        h("span", { class: "val", "aria-hidden": "true" }, TILE_VALUES[letter]),
      ),
    );
    fill(rackEl, tiles.length ? tiles : h("span", { class: "muted" }, model && model.you === null ? "Spectators see no rack." : "Your rack is empty."));
  }

  function drawPreview() {
    previewEl.className = "preview";
    playButton.disabled = true;
    playButton.textContent = "Play";
    if (exchanging) {
      previewEl.textContent = exchangeSet.size
        ? `Exchange ${[...exchangeSet].map((i) => rack[i]).sort().join("")}: press Exchange again to confirm.`
        : "Choose the tiles to exchange, then press Exchange again.";
      return;
    }
    if (!preview) {
      previewEl.textContent = "";
      return;
    }
    if (!preview.ok && preview.source === "tiles" && !placementComplete()) {
      // still being put together: no verdict yet, only what a play needs
      previewEl.textContent = "Place the tiles in one line, with no gap, touching the tiles on the board (the first play covers the ★).";
      return;
    }
    if (!preview.ok) {
      previewEl.className = "preview bad";
      previewEl.textContent = `Not a legal play: ${preview.reason}`;
      return;
    }
    const e = preview.entry;
    if (e && e.kind === "play") {
      const words = e.words.map(([w, p]) => `${w} ${p}`).join(", ");
      previewEl.textContent = `${e.play}: ${points(e.score)} points (${words})${e.bingo ? " with a 50 point bingo" : ""}${e.covered ? `; covers ${e.covered}` : ""}`;
      playButton.textContent = `Play ${e.play.split(" ")[0]} for ${points(e.score)}`;
    } else {
      previewEl.textContent = `${preview.action}: legal`;
    }
    playButton.disabled = !mayAct() || ctx.busy();
  }

  function drawControls() {
    const act = mayAct();
    for (const b of [clearButton, passButton]) b.disabled = !act;
    exchangeButton.disabled = !act || (model && model.view.bag < 7);
    exchangeButton.textContent = exchanging ? (exchangeSet.size ? `Exchange ${exchangeSet.size} tile${exchangeSet.size > 1 ? "s" : ""}` : "Cancel exchange") : "Exchange…";
    typed.disabled = !act;
    controls.hidden = !model || model.readOnly;
    hint.hidden = !model || model.readOnly;
  }

  function drawInfo() {
    const view = model.view;
    fill(
      info,
      scoreboard(model, (seat) => (seat === null ? ["Tiles"] : [view.rack_sizes[seat]])),
      h("p", { id: "bag" }, `Bag: ${view.bag} tile${view.bag === 1 ? "" : "s"}`),
      view.covered ? h("p", { id: "covered" }, `Covered and out of the game: ${view.covered}`) : "",
      view.unseen && !view.over ? h("details", {}, h("summary", {}, `Tiles you cannot see (${view.unseen.length})`), h("p", { class: "unseen" }, view.unseen)) : "",
      view.over && view.final_racks ? finalRacks(view) : "",
    );
  }

  /** The end: what each player was left holding and the end adjustment (docs/rules/
   * crossword.md, "End of the game": minus the rack's value, plus the others' for the one
   * who went out); the scores above include it. */
  function finalRacks(view) {
    const end = view.log.find((e) => e.kind === "end");
    const adjustments = end ? end.adjustments : [];
    const how = !end
      ? ""
      : end.out !== null
        ? `${who(model, end.out)} went out and gains the value of the tiles left on every other rack; each other player loses the value of their own.`
        : "No one went out: each player loses the value of the tiles left on their rack.";
    return h("section", { id: "final-racks", "aria-labelledby": "final-racks-h" },
      h("h2", { id: "final-racks-h" }, "Racks at the end"),
      h("table", { class: "final-racks" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Left on the rack"), h("th", { scope: "col", class: "num" }, "Adjustment"))),
        h("tbody", {}, view.final_racks.map((tiles, seat) => h("tr", { dataset: { seat } },
          h("th", { scope: "row" }, model.names[seat]),
          h("td", {}, tiles
            ? h("span", { class: "tiles", role: "img", "aria-label": [...tiles].map((t) => `${t} ${TILE_VALUES[t]}`).join(", "), dataset: { tiles } },
                [...tiles].map((t) => h("span", { class: "tile-face", "aria-hidden": "true" }, t, h("span", { class: "val" }, TILE_VALUES[t]))))
            : h("span", { class: "muted" }, "empty")),
          h("td", { class: "num" }, adjustments[seat] > 0 ? `+${points(adjustments[seat])}` : points(adjustments[seat])))))),
      h("p", { class: "muted" }, how));
  }

  function drawStatus() {
    const view = model.view;
    if (view.over) {
      status.textContent = "The game is over.";
    } else if (view.mode === "daily") {
      const mine = (view.actors || []).includes(model.you);
      if (model.you === null || model.readOnly) status.textContent = `Daily mode, day ${view.day} (days begin at midnight ${model.table.time_zone || "UTC"}).`;
      else if (mine) status.textContent = `Day ${view.day}: you may make one play today.`;
      else {
        const next = model.table && (model.table.next_day || model.table.deadline);
        const zone = model.table.time_zone || "UTC";
        const when = next ? `, ${new Date(next).toLocaleString(undefined, { timeZone: zone, dateStyle: "medium", timeStyle: "short" })}` : "";
        status.textContent = `Day ${view.day}: you have played today. Your next play comes when a new day begins (at midnight ${zone}${when}).`;
      }
    } else {
      const seat = view.to_move;
      status.textContent = seat === model.you && !model.readOnly ? "Your turn." : seat >= 0 ? `${who(model, seat)} to play.` : "";
    }
  }

  function drawPlays() {
    const names = model.names;
    const items = model.view.log.map((e) => {
      const name = e.seat !== undefined ? names[e.seat] : "";
      if (e.kind === "play") {
        const words = e.words.map(([w, p]) => `${w} ${p}`).join(", ");
        return h("li", {}, h("strong", {}, name), `: ${e.play}, ${points(e.score)} (${words})`, e.bingo ? " bingo!" : "", e.covered ? `, covers ${e.covered}` : "");
      }
      if (e.kind === "exchange") return h("li", {}, h("strong", {}, name), ` exchanged ${e.count} tile${e.count > 1 ? "s" : ""}`);
      if (e.kind === "pass") return h("li", {}, h("strong", {}, name), " passed");
      if (e.kind === "skip") return h("li", {}, h("strong", {}, name), " was skipped (the clock ran out)");
      if (e.kind === "new-day") return h("li", { class: "muted" }, `Day ${e.day} begins`);
      if (e.kind === "end") {
        const adj = e.adjustments.map((p, s) => `${names[s]} ${p >= 0 ? "+" : ""}${p}`).join(", ");
        return h("li", {}, h("strong", {}, "Game over"), e.out !== null ? `: ${names[e.out]} went out` : ": no one scored for two rounds", ` (${adj})`);
      }
      return h("li", {}, JSON.stringify(e));
    });
    fill(plays, items.length ? items : h("li", { class: "muted empty" }, "No plays yet."));
    plays.scrollTop = plays.scrollHeight;
  }

  // ---- input ---------------------------------------------------------------------------

  function clickSquare(sq) {
    if (!mayAct()) return;
    if (placed.has(sq) && !(chosen !== null)) {
      removeAt(sq);
      cursor = { sq, dir: cursor ? cursor.dir : "across" };
      drawAll();
      schedulePreview();
      return;
    }
    if (chosen !== null) {
      cursor = { sq, dir: cursor ? cursor.dir : "across" };
      const letter = rack[chosen];
      place(sq, letter);
      advance();
      drawBoard();
      return;
    }
    if (cursor && cursor.sq === sq) cursor = { sq, dir: cursor.dir === "across" ? "down" : "across" };
    else cursor = { sq, dir: cursor ? cursor.dir : "across" };
    drawBoard();
    grid.querySelector(`[data-sq="${sq}"]`).focus();
  }

  function clickTile(i) {
    if (!mayAct()) return;
    if (exchanging) {
      if (exchangeSet.has(i)) exchangeSet.delete(i);
      else exchangeSet.add(i);
      drawRack();
      drawPreview();
      drawControls();
      return;
    }
    if (usedIndices().has(i)) return;
    if (cursor) {
      place(cursor.sq, rack[i]);
      advance();
      drawBoard();
      grid.querySelector(`[data-sq="${cursor.sq}"]`).focus(); // keep typing on the board
      return;
    }
    chosen = chosen === i ? null : i;
    drawRack();
  }

  function dropOnSquare(event, sq) {
    event.preventDefault();
    const from = dragFrom !== null ? dragFrom : Number(event.dataTransfer.getData("text/plain"));
    dragFrom = null;
    if (Number.isInteger(from) && from >= 0 && from < rack.length && !usedIndices().has(from)) {
      cursor = { sq, dir: cursor ? cursor.dir : "across" };
      place(sq, rack[from]);
    }
  }

  function typeLetter(letter) {
    if (!cursor || !mayAct()) return;
    const sq = cursor.sq;
    place(sq, letter);
    advance();
    drawBoard();
  }

  function backspace() {
    const last = order[order.length - 1];
    if (last === undefined) return;
    removeAt(last);
    cursor = { sq: last, dir: cursor ? cursor.dir : "across" };
    drawAll();
    schedulePreview();
  }

  function boardKey(event, sq) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -SIZE, ArrowDown: SIZE };
    if (moves[event.key] !== undefined) {
      const next = sq + moves[event.key];
      const ok = next >= 0 && next < SIZE * SIZE && (Math.abs(moves[event.key]) === SIZE || Math.floor(next / SIZE) === Math.floor(sq / SIZE));
      if (ok) {
        cursor = { sq: next, dir: cursor ? cursor.dir : "across" };
        drawBoard();
        grid.querySelector(`[data-sq="${next}"]`).focus();
      }
      event.preventDefault();
    } else if (event.key === " ") {
      cursor = { sq, dir: cursor && cursor.sq === sq && cursor.dir === "across" ? "down" : "across" };
      drawBoard();
      event.preventDefault();
    } else if (/^[a-zA-Z]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      if (!cursor) cursor = { sq, dir: "across" };
      typeLetter(event.key.toUpperCase());
      grid.querySelector(`[data-sq="${cursor.sq}"]`).focus();
      event.preventDefault();
    } else if (event.key === "Backspace") {
      backspace();
      grid.querySelector(`[data-sq="${cursor ? cursor.sq : CENTRE}"]`).focus();
      event.preventDefault();
    } else if (event.key === "Enter") {
      playIt();
      event.preventDefault();
    } else if (event.key === "Escape") {
      clearPlay();
    }
  }

  function rackKey(event, i) {
    const tiles = rackEl.querySelectorAll(".tile-btn");
    if ((event.shiftKey && event.key === "ArrowLeft") || event.key === "<") {
      moveTile(i, i - 1);
      event.preventDefault();
    } else if ((event.shiftKey && event.key === "ArrowRight") || event.key === ">") {
      moveTile(i, i + 1);
      event.preventDefault();
    } else if (event.key === "ArrowLeft" && i > 0) {
      tiles[i - 1].focus();
      event.preventDefault();
    } else if (event.key === "ArrowRight" && i < tiles.length - 1) {
      tiles[i + 1].focus();
      event.preventDefault();
    }
  }

  // ---- updates -------------------------------------------------------------------------

  function render(next) {
    const before = board;
    model = next;
    const view = model.view;
    board = view.board.join("");
    heights = view.heights.flat();
    if (!rackPending) rack = view.rack || "";
    if (before && before !== board) {
      placed = new Map([...placed].filter(([sq]) => board[sq] === "."));
      order = order.filter((sq) => placed.has(sq));
      preview = null;
    }
    const free = [...rack];
    for (const [sq, letter] of placed) {
      const at = free.indexOf(letter);
      if (at < 0) removeAt(sq);
      else free.splice(at, 1);
    }
    if (!mayAct()) {
      exchanging = false;
      exchangeSet = new Set();
    }
    drawStatus();
    drawAll();
    drawInfo();
    drawPlays();
    if (placed.size && mayAct() && (!preview || preview.source === "tiles")) schedulePreview();
  }

  return {
    render,
    setBusy: () => drawPreview(),
    destroy: () => {
      gone = true; // its pending preview or rack order is sent no more
    },
  };
}
