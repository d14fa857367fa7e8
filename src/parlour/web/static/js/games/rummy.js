// Rummy: your hand as cards (sorted as the manual's N/S and N buttons, or as you arrange
// it), selected by click or keys; draw from the stock or take the discard, meld, lay off
// onto a chosen meld, discard; the table's melds with each card's owner; scores and the
// round summary. Actions are the rummy notation (docs/records.md): "draw stock",
// "draw discard", "meld 3S 4S 5S", "layoff 6S on 2", "discard 7S".

import { fill, h, keyHint, points } from "../dom.js";
import { scoreboard, who } from "./common.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
const SUITS = "SHDC";
const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export const rankOf = (card) => RANKS.indexOf(card.slice(0, -1));
export const suitOf = (card) => card.slice(-1);

/** "queen of spades" for "QS". */
export function cardName(card) {
  return `${RANK_NAMES[rankOf(card)]} of ${SUIT_NAMES[suitOf(card)]}`;
}

/** The manual's sorts: by rank then suit (N/S), or by rank only (N, keeping the order
 * among equal ranks). The ace is low. */
export function sortCards(cards, suitToo) {
  return cards.slice().sort((a, b) => rankOf(a) - rankOf(b) || (suitToo ? SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b)) : 0));
}

/** A card face: rank and suit, red suits in red. */
export function cardFace(card, attrs = {}, extra = []) {
  const suit = suitOf(card);
  const red = suit === "H" || suit === "D";
  const tag = attrs.onclick ? "button" : "span";
  return h(
    tag,
    { ...attrs, class: `card-face${red ? " red" : ""} ${attrs.class || ""}`.trim(), dataset: { card, ...(attrs.dataset || {}) }, "aria-label": attrs["aria-label"] || cardName(card), role: tag === "span" ? "img" : null },
    h("span", { "aria-hidden": "true" }, `${card.slice(0, -1)}${SUIT_SYMBOLS[suit]}`),
    h("span", { class: "suit-big", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
    extra,
  );
}

/** "the 3, 4 and 5 of spades", "the 7 of hearts, clubs and spades": cards in words. */
function cardsInWords(cards) {
  const list = (xs) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}` : xs[0]);
  const suits = new Set(cards.map(suitOf));
  const ranks = new Set(cards.map(rankOf));
  if (suits.size === 1) return `the ${list(cards.map((c) => RANK_NAMES[rankOf(c)]))} of ${SUIT_NAMES[suitOf(cards[0])]}`;
  if (ranks.size === 1) return `the ${RANK_NAMES[rankOf(cards[0])]} of ${list(cards.map((c) => SUIT_NAMES[suitOf(c)]))}`;
  return list(cards.map((c) => `the ${cardName(c)}`));
}

/** The card a "draw discard" took: the one discarded last before it (or the upcard). */
function takenCard(e, info) {
  const at = info.events.findIndex((x) => x.seq === e.seq);
  for (let i = at - 1; i >= 0; i -= 1) {
    const m = info.events[i].move.match(/^discard (\S+)$/);
    if (m) return m[1];
    if (/^deal /.test(info.events[i].move)) break;
  }
  const before = info.before && info.before.view;
  return before && before.discard_top ? before.discard_top : null;
}

/** One event in plain words for the move log (see table.js): "bob drew from the stock" (never
 * the card), "bob took the 7 of spades from the discard pile", "bob melded the 3, 4 and 5 of
 * spades", "bob laid off the 6 of spades on meld 2", "bob discarded the 7 of spades". */
export function describeEvent(e, info) {
  const name = e.by === info.you ? "You" : info.names[e.by] || `seat ${e.by}`;
  if (e.by === -1) return /^deal /.test(e.move) || e.move === "deal" ? "The cards were dealt" : "Chance";
  if (e.by === -4) return e.move === "skip" ? "The clock ran out: the turn was skipped" : `The host: ${e.move}`;
  let m;
  if (e.move === "draw stock") return `${name} drew from the stock`;
  if (e.move === "draw discard") {
    const card = takenCard(e, info);
    return `${name} took ${card ? `the ${cardName(card)}` : "the top card"} from the discard pile`;
  }
  if ((m = e.move.match(/^meld (.+)$/))) return `${name} melded ${cardsInWords(m[1].split(" "))}`;
  if ((m = e.move.match(/^layoff (\S+) on (\d+)$/))) return `${name} laid off the ${cardName(m[1])} on meld ${m[2]}`;
  if ((m = e.move.match(/^discard (\S+)$/))) return `${name} discarded the ${cardName(m[1])}`;
  return `${name}: ${e.move}`;
}

/** A meld's cards in runs of one owner: [{owner, cards}], in table order. */
function byOwner(meld) {
  const runs = [];
  meld.cards.forEach((card, i) => {
    const owner = meld.owners[i];
    if (runs.length && runs[runs.length - 1].owner === owner) runs[runs.length - 1].cards.push(card);
    else runs.push({ owner, cards: [card] });
  });
  return runs;
}

export function create(ctx) {
  let model = null;
  let order = [];
  let sortMode = null; // null, "suit" (N/S) or "rank" (N)
  let selected = new Set();
  let choosingMeld = false;
  let gone = false; // destroyed: the page dropped this view; it acts on nothing

  const status = h("p", { class: "daily", id: "rummy-status", "aria-live": "polite" });
  const melds = h("div", { class: "melds", id: "melds" });
  const stockPile = h("div", { class: "pile", id: "stock" });
  const discardPile = h("div", { class: "pile", id: "discard" });
  const discardAll = h("div", { class: "cards", id: "discard-pile" });
  const hand = h("div", { class: "cards hand", id: "hand", role: "group", "aria-label": "Your hand" });
  const drawButton = h("button", { id: "draw-stock", class: "primary", onclick: () => act("draw stock") }, "Draw from stock", keyHint("S"));
  const takeButton = h("button", { id: "take-discard", onclick: () => act("draw discard") }, "Take the discard", keyHint("T"));
  const meldButton = h("button", { id: "meld", onclick: meld }, "Meld", keyHint("M"));
  const layoffButton = h("button", { id: "layoff", onclick: startLayoff }, "Lay off", keyHint("L"));
  const discardButton = h("button", { id: "discard-card", onclick: discard }, "Discard", keyHint("D"));
  const sortSuit = h("button", { id: "sort-suit", onclick: () => sortBy("suit"), "aria-pressed": "false", title: "Sort by rank and suit" }, "Suit", keyHint("N"));
  const sortRank = h("button", { id: "sort-rank", onclick: () => sortBy("rank"), "aria-pressed": "false", title: "Sort by rank only" }, "Rank", keyHint("R"));
  const selection = h("p", { class: "selection", id: "rummy-selection", "aria-live": "polite" });
  const controls = h("p", { class: "buttons" }, drawButton, takeButton, meldButton, layoffButton, discardButton);
  const side = h("div", { id: "rummy-side" });
  const summary = h("section", { class: "card summary", id: "round-summary", hidden: true });
  // the keys' help, hidden where no key acts (a finished game, a replay)
  const keys = h("p", { class: "muted", id: "rummy-keys" }, "Keys: S draw, T take the discard, M meld, L lay off then the meld's number, D discard, N sort by rank and suit, R by rank, ←/→ and space to select, < and > move a card.");

  fill(
    ctx.root,
    h("div", { class: "rummy-layout" },
      h("div", { class: "rummy-main" },
        status,
        h("section", { class: "card rummy-board", "aria-labelledby": "table-h" },
          h("div", { class: "piles-box" },
            h("h2", { class: "sr-only" }, "Stock and discard pile"),
            h("div", { class: "piles" }, stockPile, discardPile),
            h("details", { class: "whole-pile" }, h("summary", {}, "Whole pile"), discardAll)),
          h("div", { class: "melds-box" }, h("h2", { id: "table-h", class: "sr-only" }, "On the table"), melds)),
        h("section", { class: "card hand-card", "aria-labelledby": "hand-h" },
          h("div", { class: "hand-head" }, h("h2", { id: "hand-h" }, "Your hand"), h("span", { class: "sort" }, "Sort: ", sortSuit, " ", sortRank)),
          hand, selection, controls,
          keys)),
      side, summary),
  );

  function view() {
    return model.view;
  }

  function mine() {
    return !gone && model && !model.readOnly && model.yourTurn;
  }

  function phase() {
    return mine() ? view().phase : null;
  }

  async function act(text) {
    if (!mine() || ctx.busy()) return false;
    choosingMeld = false;
    return ctx.act(text);
  }

  function chosen() {
    return order.filter((c) => selected.has(c));
  }

  async function meld() {
    const cards = chosen();
    if (!cards.length) {
      ctx.say("Select the cards of the meld first.", "error");
      return;
    }
    if (await act(`meld ${cards.join(" ")}`)) selected = new Set();
    draw();
  }

  function startLayoff() {
    if (!mine()) return;
    if (!chosen().length) {
      ctx.say("Select the card(s) to lay off first, then choose a meld.", "error");
      return;
    }
    if (view().table.length === 1) {
      layoff(1);
      return;
    }
    choosingMeld = true;
    ctx.say("Choose the meld to lay off on: its button, or its number.", "info");
    draw();
  }

  /** Lay the selected cards off onto meld *n*, one action per card. */
  async function layoff(n) {
    choosingMeld = false;
    const cards = chosen();
    if (!cards.length) {
      ctx.say("Select the card(s) to lay off first.", "error");
      return;
    }
    for (const card of cards) {
      if (!(await act(`layoff ${card} on ${n}`))) break;
      selected.delete(card);
    }
    draw();
  }

  async function discard() {
    const cards = chosen();
    if (cards.length !== 1) {
      ctx.say(cards.length ? "Select just one card to discard." : "Select the card to discard.", "error");
      return;
    }
    if (await act(`discard ${cards[0]}`)) selected = new Set();
    draw();
  }

  function sortBy(mode) {
    sortMode = mode;
    order = sortCards(order, mode === "suit");
    draw();
  }

  function toggle(card) {
    if (model.readOnly) return;
    if (selected.has(card)) selected.delete(card);
    else selected.add(card);
    drawHand();
    drawSelection();
  }

  function moveCard(card, step) {
    const i = order.indexOf(card);
    const j = i + step;
    if (i < 0 || j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
    sortMode = null;
    drawHand();
    hand.querySelector(`[data-card="${card}"]`).focus();
  }

  // ---- drawing -------------------------------------------------------------------------

  function draw() {
    drawStatus();
    drawTable();
    drawPiles();
    drawHand();
    drawSelection();
    drawControls();
    drawSide();
    drawSummary();
  }

  function drawStatus() {
    const v = view();
    if (v.over) status.textContent = `The game is over: ${howItEnded(v)}`;
    else if (mine() && v.phase === "draw") status.textContent = `Round ${v.round}: your turn. Draw from the stock or take the discard.`;
    else if (mine()) status.textContent = `Round ${v.round}: meld or lay off as you like, then discard to end your turn.`;
    else status.textContent = `Round ${v.round}: ${who(model, v.to_move)} is playing.`;
  }

  /** Why the game ended (docs/rules/rummy.md): one score over the ending score, else the
   * max_rounds safeguard. */
  function howItEnded(v) {
    const top = Math.max(...v.scores);
    const leaders = v.scores.filter((s) => s === top).length;
    if (top > v.ending_score && leaders === 1) return `${who(model, v.scores.indexOf(top))} is over ${points(v.ending_score)}.`;
    return "it reached its limit of rounds.";
  }

  /** The melds in two compact areas, sets and runs (as the Palm game had), each meld a small
   * group of cards numbered in the order laid (the number lay-offs name). */
  function drawTable() {
    const v = view();
    const owners = (o) => (o === model.you ? "you" : model.names[o] || `seat ${o}`);
    const canLay = mine() && v.phase !== "draw" && selected.size > 0;
    const one = (m, i) =>
      h("div", { class: "meld", dataset: { meld: i + 1 }, role: "group", "aria-label": `Meld ${i + 1}, a ${m.kind}` },
        h("h3", {}, `${i + 1}. ${m.kind}`),
        h("div", { class: "cards" }, byOwner(m).map(({ owner, cards }) =>
          h("span", { class: "owned" },
            h("span", { class: "cards" }, cards.map((card) =>
              cardFace(card, { class: `small ${owner === model.you ? "" : "theirs"}`, "aria-label": `${cardName(card)}, laid by ${owners(owner)}` }))),
            h("span", { class: "owner", "aria-hidden": "true" }, owners(owner))))),
        model.readOnly || !canLay ? "" : h("button", { class: `layoff-here${choosingMeld ? " primary" : ""}`, dataset: { meld: i + 1 }, onclick: () => layoff(i + 1) }, `Lay off here (${i + 1})`));
    const area = (kind, title) => {
      const list = v.table.map((m, i) => [m, i]).filter(([m]) => (kind === "set" ? m.kind === "set" : m.kind !== "set"));
      return h("div", { class: `meld-area ${kind}s`, id: `${kind}s` }, h("h3", { class: "area-h" }, title), list.length ? list.map(([m, i]) => one(m, i)) : h("span", { class: "muted" }, "none yet"));
    };
    fill(melds, v.table.length ? [area("set", "Sets"), area("run", "Runs")] : h("p", { class: "muted" }, "No melds yet."));
  }

  function drawPiles() {
    const v = view();
    fill(stockPile, h("span", { class: "card-face back", role: "img", "aria-label": `Stock, ${v.stock_count} cards` }), `Stock: ${v.stock_count}`);
    fill(
      discardPile,
      v.discard_top ? cardFace(v.discard_top, { "aria-label": `Top of the discard pile: ${cardName(v.discard_top)}` }) : h("span", { class: "card-face back", style: { opacity: 0.25 }, role: "img", "aria-label": "The discard pile is empty" }),
      "Discard pile",
    );
    fill(discardAll, v.discard_pile.length ? v.discard_pile.map((c) => cardFace(c, { class: "small" })) : h("span", { class: "muted" }, "Empty."));
  }

  function drawHand() {
    const v = view();
    const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    fill(
      hand,
      order.length
        ? order.map((card) =>
            cardFace(card, {
              class: [selected.has(card) ? "selected" : "", card === v.drawn || card === v.taken ? "new" : ""].join(" "),
              "aria-pressed": selected.has(card) ? "true" : "false",
              "aria-label": `${cardName(card)}${card === v.taken ? ", taken from the discard pile" : card === v.drawn ? ", just drawn" : ""}`,
              onclick: () => toggle(card),
              onkeydown: (e) => cardKey(e, card),
              disabled: model.readOnly,
            }))
        : h("span", { class: "muted" }, model.you === null ? "Spectators see no hand." : "No cards in your hand."),
    );
    sortSuit.setAttribute("aria-pressed", String(sortMode === "suit"));
    sortRank.setAttribute("aria-pressed", String(sortMode === "rank"));
    if (focused) {
      const again = hand.querySelector(`[data-card="${focused}"]`);
      if (again) again.focus();
    }
  }

  function drawSelection() {
    const cards = chosen();
    selection.textContent = cards.length ? `Selected: ${cards.join(" ")}` : "";
    drawControls();
  }

  function drawControls() {
    const p = phase();
    drawButton.disabled = p !== "draw" || ctx.busy();
    takeButton.disabled = p !== "draw" || !view().discard_top || ctx.busy();
    for (const b of [meldButton, layoffButton, discardButton]) b.disabled = !p || p === "draw" || ctx.busy();
    controls.hidden = model.readOnly;
    keys.hidden = model.readOnly;
    const canLay = Boolean(p) && p !== "draw" && selected.size > 0;
    if (canLay !== Boolean(melds.querySelector(".layoff-here")) && view().table.length) drawTable();
  }

  function drawSide() {
    const v = view();
    fill(
      side,
      h("section", { class: "card scores-card" },
        h("h2", { class: "scores-h" }, "Scores"),
        scoreboard(model, (seat) => (seat === null ? ["Cards"] : [v.hand_counts[seat]])),
        h("p", { class: "muted" }, `Round ${v.round} · game ends over ${points(v.ending_score)}`),
        v.known.some((cards, seat) => seat !== model.you && cards.length)
          ? h("div", { id: "known" }, v.known.map((cards, seat) => seat !== model.you && cards.length
              ? h("p", {}, `${who(model, seat)} took from the discard pile: `, h("span", { class: "cards" }, cards.map((c) => cardFace(c, { class: "small" }))))
              : ""))
          : "",
        v.round_scores.length
          ? h("details", { id: "rounds" }, h("summary", {}, "Round scores"),
              h("table", { class: "help-table" },
                h("thead", {}, h("tr", {}, h("th", {}, "Round"), model.names.map((n) => h("th", {}, n)))),
                h("tbody", {}, v.round_scores.map((row, i) => h("tr", {}, h("th", {}, i + 1), row.map((s) => h("td", {}, points(s))))))))
          : ""),
    );
  }

  function drawSummary() {
    const last = view().last_round;
    summary.hidden = !last;
    if (!last) return;
    const how =
      last.ended === "out"
        ? `${who(model, last.out)} went out.`
        : last.ended === "turns"
          ? "The round reached its turn limit."
          : "The stock ran out.";
    fill(
      summary,
      h("h2", {}, `Round ${last.round} summary`),
      h("p", {}, how),
      h("table", {},
        h("thead", {}, h("tr", {}, ["Player", "On the table", "In hand", "Round", "Game"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, model.names.map((name, seat) => h("tr", {},
          h("th", { scope: "row" }, name),
          h("td", {}, points(last.table_points[seat])),
          h("td", {}, last.hand_points[seat] ? `-${points(last.hand_points[seat])}` : "0"),
          h("td", {}, points(last.round_scores[seat])),
          h("td", {}, points(last.scores[seat])))))),
      last.hands.map((cards, seat) => cards.length
        ? h("p", {}, `${model.names[seat]} held: `, h("span", { class: "cards" }, cards.map((c) => cardFace(c, { class: "small" }))))
        : ""),
    );
  }

  // ---- keys ----------------------------------------------------------------------------

  function cardKey(event, card) {
    const cards = [...hand.querySelectorAll(".card-face")];
    const i = order.indexOf(card);
    if (event.key === "ArrowLeft" && i > 0) {
      cards[i - 1].focus();
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === "ArrowRight" && i < cards.length - 1) {
      cards[i + 1].focus();
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === "<" || event.key === ",") {
      moveCard(card, -1);
      event.stopPropagation();
    } else if (event.key === ">" || event.key === ".") {
      moveCard(card, 1);
      event.stopPropagation();
    }
  }

  function onKey(event) {
    if (gone || !model || model.readOnly || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    const key = event.key.toLowerCase();
    if (choosingMeld && /^[1-9]$/.test(key)) {
      layoff(Number(key));
      event.preventDefault();
      return;
    }
    const actions = { s: () => act("draw stock"), t: () => act("draw discard"), m: meld, l: startLayoff, d: discard, n: () => sortBy("suit"), r: () => sortBy("rank") };
    if (actions[key]) {
      actions[key]();
      event.preventDefault();
    } else if (key === "escape") {
      selected = new Set();
      choosingMeld = false;
      draw();
    }
  }
  document.addEventListener("keydown", onKey);

  function render(next) {
    model = next;
    const held = (view().hand || []).slice();
    order = order.filter((c) => held.includes(c));
    const fresh = held.filter((c) => !order.includes(c));
    order.push(...fresh);
    if (sortMode) order = sortCards(order, sortMode === "suit");
    selected = new Set([...selected].filter((c) => held.includes(c)));
    if (!mine()) choosingMeld = false;
    draw();
  }

  function destroy() {
    gone = true;
    document.removeEventListener("keydown", onKey);
  }

  return { render, setBusy: () => model && drawControls(), destroy };
}
